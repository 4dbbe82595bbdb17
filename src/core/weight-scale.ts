/**
 * The narrative weight scale and every Tideline weight threshold placed on it (SEEDS §1.5.1, §1.6, BUG T-1).
 *
 * Tideline's weight is the score sum / 5, so it runs 0.2-1.0. Tidepool maps the sum's real range [1, 5] onto
 * [0, 1] instead (a weight means the same everywhere: 0 is the lightest possible memory, 1 the heaviest). Each
 * threshold below is written with Tideline's number and moved onto our scale by {@link fromTidelineWeight}, so the
 * same raw scores pass the same gates as in Tideline: a default narrative (all 3s, Tideline 0.6) weighs 0.5, and
 * importance 4 (Tideline 0.67) still clears the T2 pool's 0.6 (0.5 here).
 */

/** A Tideline weight (sum / 5, 0.2-1.0) on Tidepool's scale ((sum − 1) / 4, 0-1), rounded to 4 places. */
export function fromTidelineWeight(w: number): number {
  return round4(Math.min(1, Math.max(0, (w * 5 - 1) / 4)));
}

/** A Tidepool weight on Tideline's scale (the inverse of {@link fromTidelineWeight} within 0.2-1.0). */
export function toTidelineWeight(w: number): number {
  return (w * 4 + 1) / 5;
}

/**
 * Weight gates, each Tideline's number moved onto our scale. `t2Pool`: the T2 prefetch pool takes weight > 0.6
 * (§1.6; config `injection.t2MinWeight` defaults to it). `rescue`: the pre-compress reminder shows weight > 0.7
 * (§1.6). `heavy`: the night's drift starts from a memory of at least this weight (§1.8 names no number; the pool's
 * gate, so "high-weight" means what the pool means).
 */
export const WEIGHT_GATES = {
  t2Pool: fromTidelineWeight(0.6),
  rescue: fromTidelineWeight(0.7),
  heavy: fromTidelineWeight(0.6),
} as const;

/** A weight band's name. */
export type WeightBand = 'high' | 'mid' | 'low';

/**
 * The one definition of the weight bands (SEEDS §1.5.1 `dream_scripts.py weights`: high ≥ 0.7, mid ≥ 0.4, low),
 * heaviest first; a weight belongs to the first band whose `min` it reaches. The SQL count is generated from it
 * ({@link weightBandSql}).
 */
export const WEIGHT_BANDS: ReadonlyArray<{ band: WeightBand; min: number }> = [
  { band: 'high', min: fromTidelineWeight(0.7) },
  { band: 'mid', min: fromTidelineWeight(0.4) },
  { band: 'low', min: Number.NEGATIVE_INFINITY },
];

/** The band of one weight. */
export function weightBand(w: number): WeightBand {
  return WEIGHT_BANDS.find((b) => w >= b.min)!.band;
}

/** Counts per band, zeros included. */
export function countWeightBands(weights: Iterable<number>): Record<WeightBand, number> {
  const out: Record<WeightBand, number> = { high: 0, mid: 0, low: 0 };
  for (const w of weights) out[weightBand(w)]++;
  return out;
}

/** A SQL `CASE` naming the band of `column`, generated from {@link WEIGHT_BANDS} (numbers only, no parameters). */
export function weightBandSql(column: string): string {
  const whens = WEIGHT_BANDS.filter((b) => Number.isFinite(b.min)).map((b) => `WHEN ${column} >= ${b.min} THEN '${b.band}'`);
  return `CASE ${whens.join(' ')} ELSE '${WEIGHT_BANDS[WEIGHT_BANDS.length - 1]!.band}' END`;
}

function round4(v: number): number {
  return Math.round(v * 10_000) / 10_000;
}
