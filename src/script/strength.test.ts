import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../core/clock.js';
import { STRENGTH_HALF_LIFE_DAYS, strengthNow } from './strength.js';

const T = Date.UTC(2026, 0, 1);

describe('strengthNow', () => {
  it.each([
    [0, 0.8],
    [30, 0.4],
    [60, 0.2],
    [15, 0.8 * Math.SQRT1_2],
  ])('after %i days without reinforcement an entry at 0.8 has %f', (days, expected) => {
    expect(strengthNow(0.8, T, T + days * DAY_MS)).toBeCloseTo(expected, 10);
  });

  it('halves in 30 days by default and honours another half-life', () => {
    expect(STRENGTH_HALF_LIFE_DAYS).toBe(30);
    expect(strengthNow(1, T, T + 10 * DAY_MS, 10)).toBeCloseTo(0.5, 10);
  });

  it('does not grow when the clock is behind the last reinforcement', () => {
    expect(strengthNow(0.5, T, T - DAY_MS)).toBe(0.5);
  });
});
