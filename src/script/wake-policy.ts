/** Whether a space sleeps tonight: ≥ 5 eligible episodes wait, or the oldest has waited > 3 days (SEEDS §3.3). */

import { DAY_MS } from '../core/clock.js';
import { wakeConfig } from '../core/config.js';

/**
 * SEEDS §3.3 thresholds, configurable as `sleep.wake` (core/config `wakeConfig`, the one source of the defaults):
 * sleep when at least `minEpisodes` (5) eligible episodes wait, or when the oldest has waited strictly longer than
 * `maxWaitDays` (3); an episode is eligible once `now - createdAt >= minAgeMinutes` (30).
 */
export type WakeOptions = ReturnType<typeof wakeConfig.parse>;

/** The defaults of SEEDS §3.3, as the config schema gives them. */
export const WAKE_DEFAULTS: Readonly<WakeOptions> = Object.freeze(wakeConfig.parse(undefined));

/** The decision and the numbers behind it, for `sleep_status` and the night log. */
export type WakeDecision =
  | { sleep: true; reason: 'enough_episodes' | 'oldest_waited'; eligible: number; oldestWaitMs: number }
  | { sleep: false; reason: 'nothing_eligible' | 'too_few'; eligible: number; oldestWaitMs: number };

/** True when an unconsolidated episode is old enough for tonight (SEEDS §3.3: "at least 30 min old"). */
export function isEligible(
  episode: { createdAt: number },
  now: number,
  minAgeMinutes = WAKE_DEFAULTS.minAgeMinutes,
): boolean {
  return now - episode.createdAt >= minAgeMinutes * 60_000;
}

/**
 * Decides from the space's unconsolidated episodes (the function applies the 30-minute eligibility itself, so
 * passing all unconsolidated episodes is right). Count wins over age when both hold.
 */
export function shouldSleep(
  unconsolidated: ReadonlyArray<{ createdAt: number }>,
  now: number,
  options: Partial<WakeOptions> = {},
): WakeDecision {
  const o = { ...WAKE_DEFAULTS, ...options };
  const eligible = unconsolidated.filter((e) => isEligible(e, now, o.minAgeMinutes));
  const oldestWaitMs = eligible.reduce((max, e) => Math.max(max, now - e.createdAt), 0);
  if (eligible.length === 0) return { sleep: false, reason: 'nothing_eligible', eligible: 0, oldestWaitMs };
  if (eligible.length >= o.minEpisodes)
    return { sleep: true, reason: 'enough_episodes', eligible: eligible.length, oldestWaitMs };
  if (oldestWaitMs > o.maxWaitDays * DAY_MS)
    return { sleep: true, reason: 'oldest_waited', eligible: eligible.length, oldestWaitMs };
  return { sleep: false, reason: 'too_few', eligible: eligible.length, oldestWaitMs };
}
