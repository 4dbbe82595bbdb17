// The planner's "newest matches" count (which common words are rarest of late, when every asked word is common): on
// PostgreSQL a space alone in the index walks it newest first instead of sorting every match the GIN index gives,
// and must count exactly what SQLite's FTS5 walk counts, for common and rare words, samples below and above the
// number of matches, alone and beside another space.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementsSeen } from '../../../test/helpers/statements-seen.js';
import type { NewEpisode } from '../port.js';
import type { SqlStore } from '../sql/sql-store.js';
import { createRng } from '../../script/seeded-rng.js';
import { openSqliteStore } from '../sqlite/open-sqlite.js';
import { sqlitePlanCounter } from '../sqlite/sqlite-search.js';
import { openPostgresStore } from './open-postgres.js';
import { readLexicalStats } from './pg-lexical-stats.js';
import { pgPlanCounter, QueryStats } from './pg-search.js';

let sqlite: SqlStore;
let pg: SqlStore;

function episode(body: string): NewEpisode {
  return {
    kind: 'turn', role: 'user', speaker: null, content: body, session: null, tool: null, ok: null, source: 'test', ref: null,
    meta: {}, durable: false, occurredAt: 1, createdAt: 1, embedPending: false, index: { body, extra: '', raw: '' },
  };
}

beforeAll(async () => {
  [sqlite, pg] = await Promise.all([openSqliteStore(':memory:'), openPostgresStore('pglite://memory')]);
  const rng = createRng(8);
  // "tide" in most rows, "harbour" in about a tenth, "gull" in a few, "kelp" only among the oldest rows.
  const rows = Array.from({ length: 1500 }, (_, i) => {
    const words = [`w${rng.between(1, 200)}`, `w${rng.between(1, 200)}`];
    if (rng.chance(0.8)) words.push('tide');
    if (rng.chance(0.1)) words.push('harbour');
    if (rng.chance(0.01)) words.push('gull');
    if (i < 40) words.push('kelp');
    return episode(words.join(' '));
  });
  for (const store of [sqlite, pg]) await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows));
}, 180_000);
afterAll(async () => {
  await Promise.all([sqlite?.close(), pg?.close()]);
});

const CASES: Array<[string, number]> = [
  ['tide', 50],
  ['tide', 5000],
  ['harbour', 30],
  ['harbour', 500],
  ['gull', 3],
  ['kelp', 10],
  ['kelp', 100],
  ['absent', 10],
];

async function counted(alone: boolean, withStats = false): Promise<unknown[]> {
  // With the query's statistics, the counter knows each word's share and reads a word that is not too common
  // through the GIN index instead of walking (the cheaper of the two; the same answer).
  const words = [...new Set(CASES.map(([w]) => w))];
  const read = withStats ? new QueryStats('s', 'episode', words, await readLexicalStats(pg.db, 'episode', 's', words, { topOf: 'episodes_fts' })) : undefined;
  const [a, b] = [sqlitePlanCounter(sqlite.db), pgPlanCounter(pg.db, read)];
  const out: unknown[] = [];
  for (const [term, sample] of CASES) {
    const [x, y] = await Promise.all([a.recentMatches('s', 'episode', term, sample, alone), b.recentMatches('s', 'episode', term, sample, alone)]);
    expect(y, `${term} / ${sample}`).toEqual(x);
    out.push(y);
  }
  return out;
}

describe('newest matches of a word, PostgreSQL beside SQLite', () => {
  it('counts the same for a space alone in the index', async () => {
    const got = await counted(true);
    // The walk stopped at the sample where there were more matches, and reached the oldest row where there were not.
    expect(got[0]).toMatchObject({ count: 50 });
    expect(got[5]).toMatchObject({ count: 10 });
    expect(got[6]).toMatchObject({ count: 40, low: 1 });
    expect(got[7]).toEqual({ count: 0, low: 0 });
  });

  it('counts the same through the GIN index where the statistics say it is cheaper than a walk', async () => {
    const { texts: asked } = await statementsSeen(pg.db, () => counted(true, true));
    // "harbour" (a tenth of the rows) and the rarer words went by the index; "tide" (eight in ten) was walked.
    expect(asked.filter((q) => q.includes('ORDER BY id DESC LIMIT')).length).toBeGreaterThan(0);
    expect(asked.filter((q) => q.includes('ORDER BY f.id DESC LIMIT')).length).toBeGreaterThan(0);
  });

  it('counts the same for a space beside another', async () => {
    for (const store of [sqlite, pg]) await store.transaction((tx) => tx.forSpace('other').episodes.insertMany([episode('tide kelp harbour')]));
    await counted(false);
  });
});
