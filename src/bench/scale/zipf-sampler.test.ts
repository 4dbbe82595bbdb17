import { describe, expect, it } from 'vitest';
import { createRng } from '../../script/seeded-rng.js';
import { zipfSampler } from './zipf-sampler.js';

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
