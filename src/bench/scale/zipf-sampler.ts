// A Zipf sampler over a seeded random source, so synthetic corpora draw words as natural text does and replay exactly.
import type { SeededRandom } from '../../script/seeded-rng.js';

/**
 * Samples ranks 0..n-1 with probability ∝ 1 / (rank + 1)^s (Zipf's law; natural text has s ≈ 1),
 * by binary search over the cumulative weights.
 */
export function zipfSampler(n: number, s = 1.05): (rng: SeededRandom) => number {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r += 1) {
    total += 1 / (r + 1) ** s;
    cdf[r] = total;
  }
  return (rng) => {
    const u = rng.next() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cdf[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}
