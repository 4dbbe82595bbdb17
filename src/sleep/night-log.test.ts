import { describe, expect, it } from 'vitest';
import { emptyNightLog } from '../script/briefing-render.js';
import { combineDeltas, foldNight, mergeNightLogs, scrubLog } from './night-log.js';

const k = (id: number, content = `k${id}`) => ({ id, kind: 'fact', content });

describe('night log', () => {
  it('folds unit deltas, counting an entry once, and never as both new and reinforced', () => {
    const log = foldNight(emptyNightLog('s', 0, 'm', 100), [
      { episodes: 3, created: [k(1)], tokens: { librarian: 40 } },
      {
        episodes: 2,
        created: [k(2)],
        reinforced: [k(1), k(3)],
        counts: { merged: 1 },
        tokens: { librarian: 10, comb: 5 },
      },
      { reinforced: [k(3)], forgotten: [k(9)], deferred: 1 },
    ]);
    expect([
      log.episodes,
      log.created.map((c) => c.id),
      log.reinforced.map((c) => c.id),
      log.forgotten.length,
    ]).toEqual([5, [1, 2], [3], 1]);
    expect(log.tokens).toEqual({ budget: 100, used: 55, byStep: { librarian: 50, comb: 5 } });
    expect([log.counts.merged, log.deferred]).toEqual([1, 1]);
  });

  it('combines the parts of one unit: lists joined, numbers and counters summed', () => {
    expect(
      combineDeltas({ created: [k(1)], rejected: 1, counts: { linked: 1 } }, undefined, {
        created: [k(2)],
        rejected: 2,
        counts: { linked: 2, merged: 1 },
        selfImageUpdated: true,
      }),
    ).toEqual({
      created: [k(1), k(2)],
      rejected: 3,
      counts: { linked: 3, merged: 1 },
      selfImageUpdated: true,
    });
  });

  it('merges the nights of one day: sums what was done, keeps the newest ideas and gaps', () => {
    const a = foldNight(emptyNightLog('s', 10, 'none', 100), [
      { episodes: 4, created: [k(1)], ideas: [{ problem: 'p', nextStep: 'old' }] },
    ]);
    const b = foldNight(emptyNightLog('s', 20, 'openai:x', 50), [
      { episodes: 6, reinforced: [k(1), k(2)], ideas: [{ problem: 'p', nextStep: 'new' }] },
    ]);
    b.finishedAt = 30;
    const day = mergeNightLogs([a, b]);
    expect([
      day.episodes,
      day.created.length,
      day.reinforced.map((r) => r.id),
      day.startedAt,
      day.finishedAt,
      day.tokens.budget,
    ]).toEqual([10, 1, [2], 10, 30, 150]);
    expect(day.ideas).toEqual([{ problem: 'p', nextStep: 'new' }]);
    expect(day.model).toBe('openai:x');
  });

  it('scrubs every text of the log', () => {
    const log = foldNight(emptyNightLog('s', 0, 'm', 1), [
      {
        created: [k(1, 'Rosa said hi')],
        superseded: [{ old: k(2, 'Rosa'), by: k(3, 'x') }],
        ideas: [{ problem: 'ask Rosa', nextStep: 'call Rosa' }],
      },
    ]);
    const clean = JSON.stringify(scrubLog(log, (t) => t.replace(/Rosa/g, '[person_1]')));
    expect(clean).not.toContain('Rosa');
    expect(clean).toContain('[person_1] said hi');
  });
});
