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

/** Formats epoch ms as a UTC calendar day `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
