/** Tideline's four-dimension narrative weight, tag-frequency recurrence and anti-inflation (SEEDS §1.5.1-1.5.2). */
import { fromTidelineWeight, toTidelineWeight } from '../core/weight-scale.js';

/** The four 1-5 scores of a narrative. */
export interface NarrativeScores {
  importance: number;
  emotional: number;
  recurrence: number;
  unresolved: number;
}

/** Score used for a missing dimension (SEEDS §1.5.1: "each null becomes 3"). */
export const DEFAULT_SCORE = 3;

/**
 * Weight on a true 0..1 range. Tideline divides the weighted sum by 5, so its range is 0.2-1.0 (BUG T-1);
 * the intended 0..1 comes from mapping the sum's real range [1, 5] onto [0, 1]. Tideline's thresholds move with it
 * (core/weight-scale).
 */
export function computeWeight(scores: Partial<NarrativeScores>): number {
  const d = (v: number | undefined) => clampScore(v ?? DEFAULT_SCORE);
  const raw =
    d(scores.importance) * 0.35 + d(scores.emotional) * 0.25 + d(scores.recurrence) * 0.25 + d(scores.unresolved) * 0.15;
  return round4((raw - 1) / 4);
}

/**
 * One tag-frequency → recurrence mapping used at write time, in sibling propagation and in the nightly refresh
 * (SEEDS BUG T-2: the seed had three). `freq` counts the other narratives sharing a tag:
 * 0 → 1, 1-2 → 2, 3-5 → 3, 6-10 → 4, 11+ → 5 (the README table "0 / 1-2 / 3-5 / 6-10 / 11+").
 */
export function recurrenceFromFrequency(freq: number | undefined): number {
  if (freq === undefined) return DEFAULT_SCORE; // no tags: nothing to measure (SEEDS §1.5.2)
  if (freq <= 0) return 1;
  if (freq <= 2) return 2;
  if (freq <= 5) return 3;
  if (freq <= 10) return 4;
  return 5;
}

/**
 * Window and threshold of write-time anti-inflation (SEEDS §1.5.1): newest 20, ≥ 5 rows, average > 0.7 → 0.6.
 * `threshold` and `target` are on Tideline's scale: the rescale is multiplicative there, and an affine change of
 * scale does not commute with it, so {@link antiInflate} applies it on that scale.
 */
export const ANTI_INFLATION = { writeWindow: 20, nightlyWindow: 50, minRows: 5, threshold: 0.7, target: 0.6 } as const;

/**
 * Returns the rescaled weights when the average of `weights`, on Tideline's scale, exceeds the threshold, else
 * undefined: each weight is multiplied there by target / average, so a memory keeps the band it would have in
 * Tideline. Pure: the caller persists the result.
 */
export function antiInflate(
  weights: readonly number[],
  opts: { minRows?: number; threshold?: number; target?: number } = {},
): number[] | undefined {
  const minRows = opts.minRows ?? ANTI_INFLATION.minRows;
  const threshold = opts.threshold ?? ANTI_INFLATION.threshold;
  const target = opts.target ?? ANTI_INFLATION.target;
  if (weights.length < minRows) return undefined;
  const seed = weights.map(toTidelineWeight);
  // Rounded so that ten weights of exactly 0.7 average 0.7, not 0.7000000000000001.
  const avg = Math.round((seed.reduce((a, b) => a + b, 0) / seed.length) * 1e9) / 1e9;
  if (avg <= threshold) return undefined;
  const factor = target / avg;
  return seed.map((w) => fromTidelineWeight(w * factor));
}

/**
 * The weight of `to` scores for a narrative that now weighs `current` and was scored `from`: an earlier
 * anti-inflation factor (taken on Tideline's scale, as {@link antiInflate} applied it) is kept instead of being
 * reset to the raw value (SEEDS BUG T-5).
 */
export function rescoredWeight(current: number, from: Partial<NarrativeScores>, to: Partial<NarrativeScores>): number {
  const factor = toTidelineWeight(current) / toTidelineWeight(computeWeight(from));
  return fromTidelineWeight(toTidelineWeight(computeWeight(to)) * factor);
}

function clampScore(v: number): number {
  return Math.min(5, Math.max(1, Math.round(v)));
}

function round4(v: number): number {
  return Math.round(v * 10_000) / 10_000;
}
