import { describe, expect, it } from 'vitest';
import { createRng, mulberry32, randomInt, sampleIndices } from './seeded-rng.js';

describe('mulberry32', () => {
  it('replays the same sequence for the same seed and differs for another seed', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(xs);
  });

  it('stays in [0, 1) and covers the range roughly evenly', () => {
    const r = mulberry32(1);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) {
      const v = r();
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(1);
      buckets[Math.floor(v * 10)]!++;
    }
    for (const b of buckets) expect(b).toBeGreaterThan(850);
  });
});

describe('randomInt and sampleIndices', () => {
  it('draws integers below n', () => {
    const r = mulberry32(7);
    for (let i = 0; i < 1000; i++) expect(randomInt(r, 3)).toBeLessThan(3);
  });

  it('samples distinct ascending indices, reproducibly', () => {
    const s = sampleIndices(mulberry32(5), 100, 30);
    expect(s.length).toBe(30);
    expect(new Set(s).size).toBe(30);
    expect([...s]).toEqual([...s].sort((a, b) => a - b));
    expect([...sampleIndices(mulberry32(5), 100, 30)]).toEqual([...s]);
    expect(sampleIndices(mulberry32(5), 10, 50).length).toBe(10);
  });
});

describe('createRng', () => {
  it('draws the very sequence of mulberry32 with the same seed', () => {
    const a = createRng(9);
    const b = mulberry32(9);
    expect(Array.from({ length: 8 }, () => a.next())).toEqual(Array.from({ length: 8 }, () => b()));
  });


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
