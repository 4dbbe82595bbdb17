import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../core/clock.js';
import { isEligible, shouldSleep } from './wake-policy.js';

const NOW = Date.UTC(2026, 8, 30, 2, 17);
const MIN = 60_000;
const aged = (...ages: number[]) => ages.map((a) => ({ createdAt: NOW - a }));

describe('isEligible', () => {
  it('counts an episode from exactly 30 minutes of age', () => {
    expect(isEligible({ createdAt: NOW - 30 * MIN }, NOW)).toBe(true);
    expect(isEligible({ createdAt: NOW - 30 * MIN + 1 }, NOW)).toBe(false);
  });
});

describe('shouldSleep', () => {
  it('sleeps when 5 eligible episodes wait', () => {
    expect(shouldSleep(aged(31 * MIN, 40 * MIN, 50 * MIN, 60 * MIN, 30 * MIN), NOW)).toMatchObject({
      sleep: true,
      reason: 'enough_episodes',
      eligible: 5,
    });
  });

  it('does not count episodes younger than 30 minutes', () => {
    expect(shouldSleep(aged(31 * MIN, 40 * MIN, 50 * MIN, 60 * MIN, 29 * MIN), NOW)).toMatchObject({
      sleep: false,
      reason: 'too_few',
      eligible: 4,
    });
  });

  it('sleeps when the oldest has waited more than 3 days, not at exactly 3 days', () => {
    expect(shouldSleep(aged(3 * DAY_MS + 1), NOW)).toMatchObject({
      sleep: true,
      reason: 'oldest_waited',
      eligible: 1,
    });
    expect(shouldSleep(aged(3 * DAY_MS), NOW)).toMatchObject({
      sleep: false,
      reason: 'too_few',
      oldestWaitMs: 3 * DAY_MS,
    });
  });

  it('stays awake with nothing eligible', () => {
    expect(shouldSleep([], NOW)).toEqual({
      sleep: false,
      reason: 'nothing_eligible',
      eligible: 0,
      oldestWaitMs: 0,
    });
    expect(shouldSleep(aged(MIN), NOW)).toMatchObject({ sleep: false, reason: 'nothing_eligible' });
  });

  it('takes other thresholds from the options', () => {
    expect(shouldSleep(aged(2 * MIN, 3 * MIN), NOW, { minEpisodes: 2, minAgeMinutes: 1 })).toMatchObject({
      sleep: true,
    });
  });
});
