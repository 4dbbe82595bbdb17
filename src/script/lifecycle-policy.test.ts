import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../core/clock.js';
import {
  planEpisodeRetention,
  planKnowledgeLifecycle,
  type LifecycleEpisode,
  type LifecycleKnowledge,
} from './lifecycle-policy.js';

const NOW = Date.UTC(2026, 8, 30, 2, 17);
// Never reinforced unless a case says so: strength stamped when the entry was created.
const k = (over: Partial<LifecycleKnowledge>): LifecycleKnowledge => ({
  id: 1,
  status: 'provisional',
  occurrences: 1,
  createdAt: NOW,
  strength: 0.5,
  lastReinforcedAt: over.createdAt ?? NOW,
  durable: false,
  ...over,
});
const e = (over: Partial<LifecycleEpisode>): LifecycleEpisode => ({
  id: 1,
  createdAt: NOW,
  consolidatedAt: null,
  durable: false,
  ...over,
});

describe('planKnowledgeLifecycle', () => {
  it.each([
    ['3 occurrences, exactly 7 days old', { occurrences: 3, createdAt: NOW - 7 * DAY_MS }, 'promote'],
    ['3 occurrences, 1 ms short of 7 days', { occurrences: 3, createdAt: NOW - 7 * DAY_MS + 1 }, 'keep'],
    ['2 occurrences, 20 days old', { occurrences: 2, createdAt: NOW - 20 * DAY_MS }, 'keep'],
    ['9 occurrences, 60 days old', { occurrences: 9, createdAt: NOW - 60 * DAY_MS }, 'promote'],
    ['1 occurrence, exactly 21 days old', { occurrences: 1, createdAt: NOW - 21 * DAY_MS }, 'keep'],
    ['1 occurrence, 21 days and 1 ms old', { occurrences: 1, createdAt: NOW - 21 * DAY_MS - 1 }, 'forget'],
    ['0 occurrences, 40 days old', { occurrences: 0, createdAt: NOW - 40 * DAY_MS }, 'forget'],
    ['2 occurrences, 40 days old', { occurrences: 2, createdAt: NOW - 40 * DAY_MS }, 'keep'],
    [
      '1 occurrence, 40 days old but durable',
      { occurrences: 1, createdAt: NOW - 40 * DAY_MS, durable: true },
      'keep',
    ],
    [
      'reliable, 1 occurrence, 40 days old',
      { status: 'reliable', occurrences: 1, createdAt: NOW - 40 * DAY_MS },
      'keep',
    ],
    // Being seen counts use (DESIGN §6): recall hits and injections, a reinforcement, a person's approval.
    ['1 occurrence, 40 days old, recalled once', { occurrences: 1, uses: 1, createdAt: NOW - 40 * DAY_MS }, 'keep'],
    ['1 occurrence, 40 days old, recalled 11 times', { occurrences: 1, uses: 11, createdAt: NOW - 40 * DAY_MS }, 'keep'],
    ['0 occurrences, 40 days old, injected once', { occurrences: 0, uses: 1, createdAt: NOW - 40 * DAY_MS }, 'forget'],
    [
      '1 occurrence, 40 days old, reinforced after creation',
      { occurrences: 1, createdAt: NOW - 40 * DAY_MS, lastReinforcedAt: NOW - 30 * DAY_MS },
      'keep',
    ],
    ['1 occurrence, 40 days old, approved by a person', { occurrences: 1, approved: true, createdAt: NOW - 40 * DAY_MS }, 'keep'],
    ['an open problem, 1 occurrence, 40 days old', { kind: 'open_problem', occurrences: 1, createdAt: NOW - 40 * DAY_MS }, 'keep'],
    ['a fact, 1 occurrence, 40 days old, never used', { kind: 'fact', occurrences: 1, uses: 0, createdAt: NOW - 40 * DAY_MS }, 'forget'],
    [
      'quarantined, 5 occurrences, 40 days old',
      { status: 'quarantined', occurrences: 5, createdAt: NOW - 40 * DAY_MS },
      'keep',
    ],
  ] as const)('provisional-state entry with %s → %s', (_name, over, outcome) => {
    const plan = planKnowledgeLifecycle([k(over)], NOW);
    expect(plan).toEqual({
      promote: outcome === 'promote' ? [1] : [],
      forget: outcome === 'forget' ? [1] : [],
    });
  });

  it('only ever moves provisional entries, never both ways (property)', () => {
    const status = fc.constantFrom(
      'provisional',
      'reliable',
      'quarantined',
      'superseded',
      'forgotten',
    ) as fc.Arbitrary<LifecycleKnowledge['status']>;
    const row = fc.record({
      id: fc.nat(),
      status,
      occurrences: fc.nat({ max: 10 }),
      createdAt: fc.integer({ min: NOW - 90 * DAY_MS, max: NOW }),
      strength: fc.double({ min: 0, max: 1, noNaN: true }),
      lastReinforcedAt: fc.constant(NOW),
      durable: fc.boolean(),
      uses: fc.nat({ max: 3 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(row, { selector: (r) => r.id, maxLength: 30 }), (rows) => {
        const plan = planKnowledgeLifecycle(rows, NOW);
        const byId = new Map(rows.map((r) => [r.id, r]));
        const moved = [...plan.promote, ...plan.forget];
        return (
          new Set(moved).size === moved.length &&
          moved.every((id) => byId.get(id)?.status === 'provisional') &&
          plan.forget.every((id) => byId.get(id)?.durable === false && (byId.get(id)?.uses ?? 0) + byId.get(id)!.occurrences < 2)
        );
      }),
      { seed: 7 },
    );
  });
});

describe('planEpisodeRetention', () => {
  it.each([
    ['consolidated exactly 14 days ago', { consolidatedAt: NOW - 14 * DAY_MS, durable: true }, 'archive'],
    [
      'consolidated 1 ms less than 14 days ago',
      { consolidatedAt: NOW - 14 * DAY_MS + 1, durable: true },
      'keep',
    ],
    ['not consolidated, 20 days old', { createdAt: NOW - 20 * DAY_MS }, 'keep'],
    ['non-durable, exactly 30 days old', { createdAt: NOW - 30 * DAY_MS }, 'drop'],
    ['non-durable, 1 ms short of 30 days', { createdAt: NOW - 30 * DAY_MS + 1 }, 'keep'],
    ['durable, 300 days old, never consolidated', { createdAt: NOW - 300 * DAY_MS, durable: true }, 'keep'],
    [
      'non-durable, 40 days old and consolidated 20 days ago',
      { createdAt: NOW - 40 * DAY_MS, consolidatedAt: NOW - 20 * DAY_MS },
      'drop',
    ],
    [
      'durable, 40 days old and consolidated 20 days ago',
      { createdAt: NOW - 40 * DAY_MS, consolidatedAt: NOW - 20 * DAY_MS, durable: true },
      'archive',
    ],
  ] as const)('an episode %s → %s', (_name, over, outcome) => {
    expect(planEpisodeRetention([e(over)], NOW)).toEqual({
      archive: outcome === 'archive' ? [1] : [],
      drop: outcome === 'drop' ? [1] : [],
    });
  });
});
