import { describe, expect, it } from 'vitest';
import {
  normalizeWeights,
  planNightlyWeights,
  refreshRecurrence,
  tagFrequencies,
  type WeightedDoc,
} from './recurrence-refresh.js';
import { computeWeight } from './weight-policy.js';

const T = Date.UTC(2026, 0, 1);
function doc(id: number, tags: string[], over: Partial<WeightedDoc> = {}): WeightedDoc {
  const scores = { importance: 3, emotional: 3, recurrence: 1, unresolved: 3, ...over };
  return { id, tags, createdAt: T + id * 1000, weight: computeWeight(scores), ...scores, ...over };
}

describe('tagFrequencies', () => {
  it('counts the other narratives sharing at least one tag, once each, with tags trimmed and case-folded', () => {
    const docs = [
      doc(1, ['调试', 'db']),
      doc(2, ['调试']),
      doc(3, [' DB ', '调试']),
      doc(4, ['other']),
      doc(5, []),
    ];
    const f = tagFrequencies(docs);
    expect(f.get(1)).toBe(2);
    expect(f.get(2)).toBe(2);
    expect(f.get(3)).toBe(2);
    expect(f.get(4)).toBe(0);
    expect(f.has(5)).toBe(false);
  });
});

describe('refreshRecurrence', () => {
  it('maps frequency with the one README table (0 / 1-2 / 3-5 / 6-10 / 11+ → 1..5)', () => {
    for (const [others, expected] of [
      [0, 1],
      [1, 2],
      [2, 2],
      [3, 3],
      [5, 3],
      [6, 4],
      [10, 4],
      [11, 5],
      [30, 5],
    ] as const) {
      const docs = Array.from({ length: others + 1 }, (_, i) => doc(i + 1, ['t'], { recurrence: 9 }));
      const u = refreshRecurrence(docs);
      expect(u[0]).toMatchObject({ id: 1, recurrence: expected });
    }
  });

  it('recomputes the weight of a changed row from its four scores and leaves unchanged or untagged rows alone', () => {
    const docs = [
      doc(1, ['a'], { recurrence: 2 }),
      doc(2, ['a'], { recurrence: 1, importance: 5 }),
      doc(3, [], { recurrence: 4 }),
    ];
    const u = refreshRecurrence(docs);
    expect(u).toEqual([
      {
        id: 2,
        recurrence: 2,
        weight: computeWeight({ importance: 5, emotional: 3, recurrence: 2, unresolved: 3 }),
      },
    ]);
  });
});

describe('normalizeWeights', () => {
  it("rescales the newest 50 to Tideline's average of 0.6 (0.5 here) when their average exceeds its 0.7", () => {
    const docs = Array.from({ length: 60 }, (_, i) => ({ ...doc(i + 1, []), weight: i < 10 ? 0.1 : 0.9 }));
    const u = normalizeWeights(docs);
    expect(u).toHaveLength(50);
    expect(u.every((x) => x.id > 10)).toBe(true);
    expect(u[0]!.weight).toBeCloseTo(0.5, 4);
  });

  it("does nothing at or below Tideline's 0.7 (0.625 here), or with fewer than 5 rows", () => {
    expect(normalizeWeights(Array.from({ length: 10 }, (_, i) => ({ ...doc(i, []), weight: 0.625 })))).toEqual(
      [],
    );
    expect(normalizeWeights(Array.from({ length: 10 }, (_, i) => ({ ...doc(i, []), weight: 0.65 })))).toHaveLength(10);
    expect(normalizeWeights(Array.from({ length: 4 }, (_, i) => ({ ...doc(i, []), weight: 0.95 })))).toEqual(
      [],
    );
  });
});

describe('planNightlyWeights', () => {
  it('refreshes recurrence first, then normalises on the refreshed weights, and reports bands', () => {
    const docs = Array.from({ length: 12 }, (_, i) =>
      doc(i + 1, ['shared'], { importance: 5, emotional: 5, unresolved: 5, recurrence: 1 }),
    );
    const plan = planNightlyWeights(docs);
    expect(plan.refreshed).toBe(12); // 11 others → recurrence 5
    expect(plan.rescaled).toBe(12); // every weight became 1.0, above Tideline's 0.7
    expect(plan.updates).toHaveLength(12);
    expect(plan.updates[0]).toEqual({ id: 1, recurrence: 5, weight: 0.5 }); // Tideline's 0.6
    expect(plan.bands).toEqual({ high: 0, mid: 12, low: 0 });
  });

  it('returns no updates for a settled memory', () => {
    const docs = [doc(1, ['x'], { recurrence: 2 }), doc(2, ['x'], { recurrence: 2 })];
    expect(planNightlyWeights(docs).updates).toEqual([]);
  });
});
