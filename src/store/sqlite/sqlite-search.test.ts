// Term pruning on large SQLite indexes: very common words are dropped when rarer ones exist, and a query made only
// of very common words is scored over the newest rows (its ranking carries no signal; scoring every row would cost
// a BM25 pass over most of the index).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEpisode } from '../port.js';
import type { SqlStore } from '../sql/sql-store.js';
import { openSqliteStore } from './open-sqlite.js';

const ROWS = 24_000;
let store: SqlStore;
let ids: number[];

function ep(content: string): NewEpisode {
  return {
    kind: 'turn', role: 'user', speaker: null, content, session: null, tool: null, ok: null, source: 'test', ref: null, meta: {},
    durable: false, occurredAt: 1, createdAt: 1, embedPending: false, index: { body: content, extra: '', raw: '' },
  };
}

beforeAll(async () => {
  store = await openSqliteStore(':memory:');
  // Every row says "alpha beta"; only the very first also says "zeta".
  const rows = Array.from({ length: ROWS }, (_, i) => ep(`alpha beta row${i}${i === 0 ? ' zeta' : ''}`));
  ids = (await store.transaction((tx) => tx.episodes.insertMany('s', rows))).ids;
}, 120_000);
afterAll(async () => {
  await store.close();
});

describe('SQLite lexical search on a large index', () => {
  it('scores a query of only very common words over the newest 20,000 rows', async () => {
    const hits = await store.search.lexical('s', 'episode', ['alpha', 'beta'], { limit: 50 });
    expect(hits).toHaveLength(50);
    const newest = ids.at(-1)!;
    expect(Math.min(...hits.map((h) => h.id))).toBeGreaterThan(newest - 20_000);
  });

  it('drops a very common word when a rarer one is asked, and finds the oldest row by it', async () => {
    const hits = await store.search.lexical('s', 'episode', ['zeta', 'alpha'], { limit: 5 });
    expect(hits.map((h) => h.id)).toEqual([ids[0]]);
  });
});
