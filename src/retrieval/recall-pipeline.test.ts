import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { settleTold } from './recall-pipeline.js';

type Cand = { id: number; score: number; told?: number; tells: boolean };

/** Every candidate read: the scores a full evaluation gives. */
function full(cands: readonly Cand[]): Map<number, number> {
  return new Map(cands.map((c) => [c.id, c.told !== undefined && c.tells ? c.told : c.score]));
}

describe('settleTold', () => {
  it('gives the top `need` that reading every candidate gives, reading fewer', () => {
    const cand = fc.record({
      score: fc.double({ min: 0, max: 1, noNaN: true }),
      boost: fc.option(fc.double({ min: 1, max: 3, noNaN: true }), { nil: undefined }),
      tells: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(cand, { maxLength: 60 }), fc.integer({ min: 1, max: 15 }), (raw, need) => {
        const cands: Cand[] = raw.map((c, id) => ({ id, score: c.score, tells: c.tells, ...(c.boost ? { told: c.score * c.boost } : {}) }));
        const truth = full(cands);
        let reads = 0;
        settleTold(cands, need, (c) => {
          reads++;
          return c.tells;
        });
        const top = (m: ReadonlyMap<number, number>) => [...m.values()].sort((a, b) => b - a).slice(0, need);
        expect(top(new Map(cands.map((c) => [c.id, c.score])))).toEqual(top(truth));
        // A candidate keeps either its settled score or a lower one than it could have had.
        for (const c of cands) expect(c.score).toBeLessThanOrEqual(truth.get(c.id)!);
        expect(reads).toBeLessThanOrEqual(raw.filter((c) => c.boost).length);
      }),
    );
  });

  it('stops reading once no candidate left could enter the top', () => {
    const cands: Cand[] = [
      { id: 1, score: 10, tells: false },
      { id: 2, score: 9, tells: false },
      { id: 3, score: 1, told: 2, tells: true },
      { id: 4, score: 1, told: 2, tells: true },
    ];
    let reads = 0;
    const left = settleTold(cands, 2, () => {
      reads++;
      return true;
    });
    expect(reads).toBe(0);
    expect(left).toBe(2);
    expect(settleTold(cands, 3, () => true)).toBe(0);
    expect(cands.find((c) => c.id === 3)!.score).toBe(2);
  });
});
