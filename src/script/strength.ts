/** Knowledge strength as of a moment: exponential decay with a ~30-day half-life (DESIGN §6, SEEDS §3.4). */

/** Days for strength to halve without reinforcement. */
export const STRENGTH_HALF_LIFE_DAYS = 30;

/** Strength `strength` last reinforced at `lastAt`, decayed to `now`. */
export function strengthNow(strength: number, lastAt: number, now: number, halfLifeDays = STRENGTH_HALF_LIFE_DAYS): number {
  const days = Math.max(0, (now - lastAt) / 86_400_000);
  return strength * Math.pow(0.5, days / halfLifeDays);
}
