import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../core/clock.js';
import { HALF_LIFE_DAYS, reinforce, REINFORCE_STEP, strengthAt } from './decay-policy.js';

const T = Date.UTC(2026, 0, 1);

describe('strengthAt', () => {
  it.each([
    [0, 0.8],
    [30, 0.4],
    [60, 0.2],
    [15, 0.8 * Math.SQRT1_2],
  ])('after %i days without reinforcement an entry at 0.8 has %f', (days, expected) => {
    expect(strengthAt(0.8, T, T + days * DAY_MS)).toBeCloseTo(expected, 10);
  });

  it('halves in 30 days by default and honours another half-life', () => {
    expect(HALF_LIFE_DAYS).toBe(30);
    expect(strengthAt(1, T, T + 10 * DAY_MS, 10)).toBeCloseTo(0.5, 10);
  });

  it('does not grow when the clock is behind the last reinforcement', () => {
    expect(strengthAt(0.5, T, T - DAY_MS)).toBe(0.5);
  });
});

describe('reinforce', () => {
  it('decays to now before adding the step, and moves the timestamp', () => {
    const r = reinforce(0.8, T, T + 30 * DAY_MS);
    expect(r.strength).toBeCloseTo(0.4 + REINFORCE_STEP, 10);
    expect(r.lastReinforcedAt).toBe(T + 30 * DAY_MS);
  });

  it('saturates at 1', () => {
    expect(reinforce(0.95, T, T, { step: 0.2 }).strength).toBe(1);
  });

  it('always yields a strength in [decayed, 1] (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 400 * DAY_MS }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (s, dt, step) => {
          const r = reinforce(s, T, T + dt, { step });
          const decayed = strengthAt(s, T, T + dt);
          return r.strength >= decayed - 1e-12 && r.strength <= 1;
        },
      ),
      { seed: 42 },
    );
  });
});
