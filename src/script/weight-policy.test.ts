import { describe, expect, it } from 'vitest';
import { antiInflate, computeWeight, rescoredWeight } from './weight-policy.js';
import { countWeightBands, fromTidelineWeight, toTidelineWeight, WEIGHT_BANDS, WEIGHT_GATES, weightBand, weightBandSql } from '../core/weight-scale.js';

/** Tideline's own weight (SEEDS §1.5.1): the score sum / 5, to 4 places as ours (the exact value, not float noise). */
function tidelineWeight(s: { importance: number; emotional: number; recurrence: number; unresolved: number }): number {
  return Math.round(((s.importance * 0.35 + s.emotional * 0.25 + s.recurrence * 0.25 + s.unresolved * 0.15) / 5) * 10_000) / 10_000;
}

/** Tideline's band of a weight on its own scale (dream_scripts.py weights). */
function tidelineBand(w: number): 'high' | 'mid' | 'low' {
  return w >= 0.7 ? 'high' : w >= 0.4 ? 'mid' : 'low';
}

const ALL_SCORES = [1, 2, 3, 4, 5].flatMap((importance) =>
  [1, 2, 3, 4, 5].flatMap((emotional) =>
    [1, 2, 3, 4, 5].flatMap((recurrence) => [1, 2, 3, 4, 5].map((unresolved) => ({ importance, emotional, recurrence, unresolved }))),
  ),
);

describe('weight scale', () => {
  it('weighs a default narrative 0.5 (Tideline 0.6) and keeps importance 4 in the T2 pool', () => {
    expect(computeWeight({})).toBe(0.5);
    expect(fromTidelineWeight(0.6)).toBe(0.5);
    expect(computeWeight({ importance: 4 })).toBeGreaterThan(WEIGHT_GATES.t2Pool);
    expect(computeWeight({})).not.toBeGreaterThan(WEIGHT_GATES.t2Pool);
  });

  it('puts every combination of scores through the same gates and bands as Tideline did', () => {
    for (const s of ALL_SCORES) {
      const ours = computeWeight(s);
      const theirs = tidelineWeight(s);
      expect(ours > WEIGHT_GATES.t2Pool, JSON.stringify(s)).toBe(theirs > 0.6);
      expect(ours > WEIGHT_GATES.rescue, JSON.stringify(s)).toBe(theirs > 0.7);
      expect(weightBand(ours), JSON.stringify(s)).toBe(tidelineBand(theirs));
    }
  });

  it('keeps what an imported Tideline weight meant, including weights a rescale moved off the score grid', () => {
    for (let i = 20; i <= 100; i++) {
      const w = i / 100;
      const ours = fromTidelineWeight(w);
      expect(ours > WEIGHT_GATES.t2Pool, String(w)).toBe(w > 0.6);
      expect(ours > WEIGHT_GATES.rescue, String(w)).toBe(w > 0.7);
      expect(weightBand(ours), String(w)).toBe(tidelineBand(w));
      expect(toTidelineWeight(ours)).toBeCloseTo(w, 4);
    }
    expect(fromTidelineWeight(0.1)).toBe(0); // below Tideline's floor (after a rescale): our floor
  });

  it('has one band table, which the SQL is generated from', () => {
    expect(WEIGHT_BANDS.map((b) => b.band)).toEqual(['high', 'mid', 'low']);
    expect(weightBandSql('weight')).toBe("CASE WHEN weight >= 0.625 THEN 'high' WHEN weight >= 0.25 THEN 'mid' ELSE 'low' END");
    expect(countWeightBands([0, 0.25, 0.625, 1])).toEqual({ high: 2, mid: 1, low: 1 });
  });
});

describe('antiInflate', () => {
  it("rescales on Tideline's scale, so each weight lands where Tideline put it", () => {
    const theirs = [1, 0.9, 0.8, 0.75, 0.7, 0.65];
    const avg = theirs.reduce((a, b) => a + b, 0) / theirs.length;
    const scaled = antiInflate(theirs.map(fromTidelineWeight))!;
    expect(scaled).toEqual(theirs.map((w) => fromTidelineWeight((w * 0.6) / avg)));
    expect(scaled.map((w) => weightBand(w))).toEqual(theirs.map((w) => tidelineBand((w * 0.6) / avg)));
  });

  it("starts above Tideline's 0.7 average (0.625 here), not above 0.7 on our scale", () => {
    expect(antiInflate(Array(5).fill(fromTidelineWeight(0.7)))).toBeUndefined();
    expect(antiInflate(Array(5).fill(fromTidelineWeight(0.71)))).toEqual(Array(5).fill(fromTidelineWeight(0.6)));
  });
});

describe('rescoredWeight', () => {
  it("keeps an earlier rescale factor (taken on Tideline's scale) when a score changes", () => {
    const before = { importance: 5, emotional: 5, recurrence: 3, unresolved: 5 };
    const after = { ...before, recurrence: 5 };
    const rescaled = fromTidelineWeight(tidelineWeight(before) * 0.8);
    expect(rescoredWeight(rescaled, before, after)).toBe(fromTidelineWeight(tidelineWeight(after) * 0.8));
    expect(rescoredWeight(computeWeight(before), before, after)).toBe(computeWeight(after));
  });
});
