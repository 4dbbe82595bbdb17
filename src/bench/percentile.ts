// Percentiles and latency summaries for the benchmarks (nearest-rank method, no interpolation).

/**
 * The p-th percentile (0 < p ≤ 100) of `values` by the nearest-rank method: the smallest value
 * such that at least p % of the values are ≤ it (`sorted[ceil(p/100·n) − 1]`). NaN when empty.
 * @example percentile([5, 1, 3, 2, 4], 50) // 3
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

/** p50/p95/p99 of a list of latencies in milliseconds, rounded to 0.001 ms. */
export interface LatencySummary {
  readonly p50_ms: number;
  readonly p95_ms: number;
  readonly p99_ms: number;
}

/** Summarises latencies (ms) as p50/p95/p99 by nearest rank, rounded to microseconds. */
export function summariseLatency(latenciesMs: readonly number[]): LatencySummary {
  return {
    p50_ms: roundTo(percentile(latenciesMs, 50), 3),
    p95_ms: roundTo(percentile(latenciesMs, 95), 3),
    p99_ms: roundTo(percentile(latenciesMs, 99), 3),
  };
}

/** Arithmetic mean; NaN when empty. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Rounds to `digits` decimals, keeping NaN as NaN. */
export function roundTo(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
