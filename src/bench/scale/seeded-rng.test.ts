import { describe, expect, it } from 'vitest';
import { createRng, zipfSampler } from './seeded-rng.js';

describe('createRng', () => {
  it('replays the same sequence for the same seed and differs for another', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    for (const v of seqA) expect(v >= 0 && v < 1).toBe(true);
  });

  it('draws integers inside their bounds', () => {
    const r = createRng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 500; i += 1) seen.add(r.between(2, 4));
    expect([...seen].sort()).toEqual([2, 3, 4]);
  });
});

describe('zipfSampler', () => {
  it('makes rank 0 about twice as frequent as rank 1 (s = 1)', () => {
    const sample = zipfSampler(1000, 1);
    const r = createRng(7);
    const counts = new Array<number>(1000).fill(0);
    for (let i = 0; i < 50_000; i += 1) {
      const rank = sample(r);
      counts[rank] = (counts[rank] as number) + 1;
    }
    const ratio = (counts[0] as number) / (counts[1] as number);
    expect(ratio).toBeGreaterThan(1.7);
    expect(ratio).toBeLessThan(2.3);
  });
});
