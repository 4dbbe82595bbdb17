/** Clock and randomness ports, so that every policy and every night can replay (STYLE §2). */

/** Source of the current time in epoch milliseconds UTC. */
export interface Clock {
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock fixed at `ms`, moved by `set`/`advance`; for tests and for `--now`. */
export class FixedClock implements Clock {
  #ms: number;
  constructor(ms: number) {
    this.#ms = ms;
  }
  now(): number {
    return this.#ms;
  }
  set(ms: number): void {
    this.#ms = ms;
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}

/** Milliseconds in one day. */
export const DAY_MS = 86_400_000;

/**
 * The latest time Tidepool stores: 9999-12-31T23:59:59.999Z. Past it a date has no `YYYY-MM-DD` form, and past
 * 8.64e15 ms none at all ("Invalid time value"): every input time is checked against it (issue 22).
 */
export const MAX_TIME_MS = 253_402_300_799_999;

/**
 * A stored time made safe to format: a row written before times were checked (an old version, a restored file)
 * may hold one past {@link MAX_TIME_MS}, below 0 or not a number; it reads as the nearest representable time.
 */
export function representableTime(ms: number): number {
  if (Number.isNaN(ms)) return 0;
  return Math.min(Math.max(ms, 0), MAX_TIME_MS);
}

/** Formats epoch ms as a UTC calendar day `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
