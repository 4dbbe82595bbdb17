import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nightlyTokenBudget, planSleepWork, SLEEP_BUDGET } from './sleep-budget-policy.js';

describe('nightlyTokenBudget', () => {
  it.each([
    [0, 13_000],
    [100, 13_500],
    [10_000, 18_000],
    [100_000, 28_811],
    [291_600, 40_000],
    [250_000, 38_000],
    [10_000_000, 40_000],
    [-5, 13_000],
  ])('gives a memory of %i items %i tokens', (size, budget) => {
    expect(nightlyTokenBudget(size)).toBe(budget);
  });

  it('never shrinks as the memory grows, and never passes the cap (property)', () => {
    fc.assert(
      fc.property(fc.nat({ max: 2_000_000 }), fc.nat({ max: 2_000_000 }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        return nightlyTokenBudget(lo) <= nightlyTokenBudget(hi) && nightlyTokenBudget(hi) <= SLEEP_BUDGET.cap;
      }),
      { seed: 3 },
    );
  });
});

describe('planSleepWork', () => {
  const p = (id: string, estimate: number) => ({ id, estimate });

  it('runs packets in order while they fit; later smaller ones may still fit; the rest waits', () => {
    const plan = planSleepWork([p('a', 400), p('b', 500), p('c', 300), p('d', 100)], 1000);
    expect(plan.run.map((x) => x.id)).toEqual(['a', 'b', 'd']);
    expect(plan.wait.map((x) => x.id)).toEqual(['c']);
    expect(plan.planned).toBe(1000);
  });

  it('sets apart packets larger than the whole budget for splitting', () => {
    const plan = planSleepWork([p('huge', 5000), p('a', 10)], 1000);
    expect(plan.tooLarge.map((x) => x.id)).toEqual(['huge']);
    expect(plan.run.map((x) => x.id)).toEqual(['a']);
  });

  it('keeps the reserve free for the fixed later steps', () => {
    const plan = planSleepWork([p('a', 600), p('b', 300)], 1000, { reserve: 300 });
    expect(plan.run.map((x) => x.id)).toEqual(['a']);
    expect(plan.wait.map((x) => x.id)).toEqual(['b']);
  });

  it('never plans more than the budget (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 5000 }), { maxLength: 40 }),
        fc.nat({ max: 20_000 }),
        (sizes, budget) => {
          const plan = planSleepWork(
            sizes.map((s, i) => p(String(i), s)),
            budget,
          );
          return (
            plan.planned <= budget &&
            plan.run.length + plan.wait.length + plan.tooLarge.length === sizes.length
          );
        },
      ),
      { seed: 11 },
    );
  });
});
