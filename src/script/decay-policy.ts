/** Knowledge strength over time: ~30-day half-life decay and saturating reinforcement by recall hits (SEEDS §3.4). */

import { STRENGTH_HALF_LIFE_DAYS, strengthNow } from './strength.js';

/** SEEDS §3.4: "a half-life of about 30 days unless reinforced". */
export const HALF_LIFE_DAYS = STRENGTH_HALF_LIFE_DAYS;

/**
 * Strength added per recall hit (config `recall.reinforceStep`, default 0.1): a fresh entry at 0.5 reaches 1 after
 * five hits in a row; an entry decayed to 0.1 needs about one hit a week to hold its ground
 * (0.1 · 0.5^(7/30) ≈ 0.085, plus 0.1 → 0.185 and rising).
 */
export const REINFORCE_STEP = 0.1;

/** Strength stored as of `lastReinforcedAt`, decayed to `now` (`s · 0.5^(Δdays / halfLife)`, Δ clamped at 0). */
export function strengthAt(
  strength: number,
  lastReinforcedAt: number,
  now: number,
  halfLifeDays = HALF_LIFE_DAYS,
): number {
  return strengthNow(strength, lastReinforcedAt, now, halfLifeDays);
}

/**
 * One reinforcement at `now`: first decay to `now`, then add `step`, saturating at 1. Returns the strength to store
 * together with the new `lastReinforcedAt`. Decaying first matters: adding to the stored (undecayed) value while
 * moving the timestamp would give back everything lost since the last hit.
 */
export function reinforce(
  strength: number,
  lastReinforcedAt: number,
  now: number,
  options: { step?: number; halfLifeDays?: number } = {},
): { strength: number; lastReinforcedAt: number } {
  const decayed = strengthAt(strength, lastReinforcedAt, now, options.halfLifeDays);
  return {
    strength: Math.min(1, decayed + (options.step ?? REINFORCE_STEP)),
    lastReinforcedAt: Math.max(now, lastReinforcedAt),
  };
}
