/** Seeded pseudo-random numbers, so that every clustering run replays (STYLE §2: randomness is an argument). */

/** A source of uniform numbers in [0, 1), like `Math.random`. */
export type Rng = () => number;

/** The fixed seed of the soft clustering (SEEDS §1.7: `RandomState(42)`). */
export const DEFAULT_SEED = 42;

/**
 * mulberry32: a 32-bit state generator, small and fast, with good enough statistics for seeding k-means
 * and drawing samples. The same seed always yields the same sequence on every platform.
 */
export function mulberry32(seed: number = DEFAULT_SEED): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A seeded source with the draws simulations need; every draw advances one {@link mulberry32} state. */
export interface SeededRandom {
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
 * {@link mulberry32} with the draws of {@link SeededRandom}, for the benchmarks' synthetic corpora.
 * @example createRng(42).int(10) // same value on every run
 */
export function createRng(seed: number): SeededRandom {
  const next = mulberry32(seed);
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    between: (lo, hi) => lo + int(hi - lo + 1),
    pick: <T>(items: readonly T[]): T => items[int(items.length)] as T,
    chance: (p) => next() < p,
  };
}

/** A uniform integer in [0, n) drawn from `rng`. */
export function randomInt(rng: Rng, n: number): number {
  return Math.min(n - 1, Math.floor(rng() * n));
}

/**
 * `count` distinct indices out of [0, n), drawn by a partial Fisher-Yates shuffle and returned in ascending
 * order (so that a sample keeps the input order, which keeps later ties deterministic).
 */
export function sampleIndices(rng: Rng, n: number, count: number): Int32Array {
  const m = Math.max(0, Math.min(n, count));
  const pool = new Int32Array(n);
  for (let i = 0; i < n; i++) pool[i] = i;
  for (let i = 0; i < m; i++) {
    const j = i + randomInt(rng, n - i);
    const t = pool[i]!;
    pool[i] = pool[j]!;
    pool[j] = t;
  }
  return pool.slice(0, m).sort();
}
