// The planner remembers which common words are rarest of late until the index has grown by more than 1 % of the
// space's rows: a second query asks nothing again, nor one after a few writes; after more it asks again and plans as a
// planner that never saw the old counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEpisode } from '../port.js';
import type { SqlStore } from './sql-store.js';
import { openSqliteStore } from '../sqlite/open-sqlite.js';
import { sqlitePlanCounter } from '../sqlite/sqlite-search.js';
import { LexicalPlanner, type PlanCounter } from './lexical-planner.js';

let store: SqlStore;

function episode(body: string): NewEpisode {
  return {
    kind: 'turn', role: 'user', speaker: null, content: body, session: null, tool: null, ok: null, source: 'test', ref: null,
    meta: {}, durable: false, occurredAt: 1, createdAt: 1, embedPending: false, index: { body, extra: '', raw: '' },
  };
}

/** The real SQLite counter, with its `recentMatches` calls counted (and the other counts, by kind). */
function counting(): { counter: PlanCounter; asked: string[]; counts: Record<string, number> } {
  const real = sqlitePlanCounter(store.db);
  const asked: string[] = [];
  const counts: Record<string, number> = {};
  const note = (kind: string) => (counts[kind] = (counts[kind] ?? 0) + 1);
  const counter: PlanCounter = {
    ...real,
    spaceRows: (space, layer) => (note('spaceRows'), real.spaceRows(space, layer)),
    termRows: (space, layer, term, cap, alone) => (note('termRows'), real.termRows(space, layer, term, cap, alone)),
    windowFloor: (space, layer, window, alone) => (note('windowFloor'), real.windowFloor(space, layer, window, alone)),
    recentMatches: (space, layer, term, sample, alone) => {
      asked.push(term);
      return real.recentMatches(space, layer, term, sample, alone);
    },
  };
  return { counter, asked, counts };
}

beforeAll(async () => {
  store = await openSqliteStore(':memory:');
  // Every word in more than 5 % of 6,000 rows: all common, so the planner compares them by their newest matches.
  const rows = Array.from({ length: 6000 }, (_, i) => episode(['tide', i % 3 === 0 ? 'harbour' : 'kelp', i % 4 === 0 ? 'gull' : 'rope'].join(' ')));
  await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows));
}, 60_000);
afterAll(async () => {
  await store?.close();
});

describe('LexicalPlanner, common words of late', () => {
  it('asks each word once while the index is unchanged, and again after a write', async () => {
    const { counter, asked } = counting();
    const planner = new LexicalPlanner(counter);
    const terms = ['tide', 'harbour', 'gull'];
    const scored = async (p: LexicalPlanner) => p.scoredTerms(await p.plan('s', 'episode', terms), 's', 'episode');
    const plan = await planner.plan('s', 'episode', terms);
    expect(plan.minRowid).toBeDefined();
    expect(plan.rarestOfLate).toBe(true);
    // Planning alone counts nothing of late: a search the newest rows holding every word answer never needs it.
    expect(asked).toEqual([]);
    const first = await planner.scoredTerms(plan, 's', 'episode');
    expect(first).toHaveLength(2);
    expect([...asked].sort()).toEqual(['gull', 'harbour', 'tide']);
    expect(await scored(planner)).toEqual(first);
    expect(asked).toHaveLength(3);

    // Lately "harbour" is in every row and "gull" in none: the rarest of late change.
    await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(Array.from({ length: 3000 }, () => episode('tide harbour kelp'))));
    const after = await scored(planner);
    expect(asked).toHaveLength(6);
    expect(after).toEqual(await scored(new LexicalPlanner(sqlitePlanCounter(store.db))));
    expect(after).not.toEqual(first);
  });

  it('keeps the densities over writes of up to 1 % of the space, and asks again past it', async () => {
    const { counter, asked } = counting();
    const planner = new LexicalPlanner(counter);
    const terms = ['tide', 'harbour', 'gull'];
    const scored = async () => planner.scoredTerms(await planner.plan('s', 'episode', terms), 's', 'episode');
    const first = await scored();
    expect(asked).toHaveLength(3);
    const rows = (await sqlitePlanCounter(store.db).spaceRows('s', 'episode')).rows;
    const write = (n: number) => store.transaction((tx) => tx.forSpace('s').episodes.insertMany(Array.from({ length: n }, () => episode('tide gull rope'))));
    // A server recording turns between recalls: a few rows more ask nothing again.
    await write(Math.floor(rows / 200));
    expect(await scored()).toEqual(first);
    expect(asked).toHaveLength(3);
    // Past 1 % of the space's rows since the densities were taken, every word is asked again.
    await write(Math.floor(rows / 100));
    await scored();
    expect([...asked.slice(3)].sort()).toEqual(['gull', 'harbour', 'tide']);
  });

  it('takes each count once when a query plans its searches at once', async () => {
    // Recall searches the whole memory and each named time window together: each plan asks the same counts.
    const { counter, asked, counts } = counting();
    const planner = new LexicalPlanner(counter);
    const terms = ['tide', 'harbour', 'gull'];
    const both = async (p: LexicalPlanner) => {
      const plan = await p.plan('s', 'episode', terms);
      return { plan, scored: await p.scoredTerms(plan, 's', 'episode') };
    };
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => both(planner)));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(a).toEqual(await both(new LexicalPlanner(sqlitePlanCounter(store.db))));
    expect([...asked].sort()).toEqual(['gull', 'harbour', 'tide']);
    expect(counts.spaceRows).toBe(1);
    expect(counts.windowFloor).toBe(1);
    // SQLite's counter counts term by term (no `termsRows`).
    expect(counts.termRows).toBe(terms.length);
  });
});
