// A small seeded random number generator (mulberry32) and a Zipf sampler, so synthetic corpora replay exactly.

/** Deterministic random source; every draw advances one shared 32-bit state. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Uniform integer in [lo, hi]. */
  between(lo: number, hi: number): number;
  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
}

/**
 * mulberry32: a 32-bit state generator with good statistical quality for simulation, far faster
 * than a cryptographic source and identical on every platform.
 * @example createRng(42).int(10) // same value on every run
 */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    between: (lo, hi) => lo + int(hi - lo + 1),
    pick: <T>(items: readonly T[]): T => items[int(items.length)] as T,
    chance: (p) => next() < p,
  };
}

/**
 * Samples ranks 0..n-1 with probability ∝ 1 / (rank + 1)^s (Zipf's law; natural text has s ≈ 1),
 * by binary search over the cumulative weights.
 */
export function zipfSampler(n: number, s = 1.05): (rng: Rng) => number {
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
