// Word search inside a time window reads only the id range of that window's rows; rows of other spaces or other
// times interleaved in that range must still be dropped, and the answer must equal a plain filtered scan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainEpisode as ep } from './plain-episode.test-helper.js';
import type { SqlStore } from '../sql/sql-store.js';
import { createRng } from '../../script/seeded-rng.js';
import { openSqliteStore } from './open-sqlite.js';
import { num } from '../sql/sql-util.js';
import { spaceFtsTables } from './sqlite-search.js';

const DAY = 86_400_000;
let store: SqlStore;

beforeAll(async () => {
  store = await openSqliteStore(':memory:');
  const rng = createRng(3);
  const words = ['kayak', 'river', 'dinner', 'mother', 'budget', 'garden', 'guitar', 'museum'];
  const text = () => Array.from({ length: rng.between(3, 9) }, () => rng.pick(words)).join(' ');
  // 60 days, 50 rows a day in space a, interleaved with rows of space b; a few late rows back-dated into day 10.
  for (let d = 0; d < 60; d++) {
    const rows = Array.from({ length: 50 }, (_, i) => ep(text(), d * DAY + i * 60_000));
    await store.transaction((tx) => tx.forSpace('a').episodes.insertMany(rows));
    await store.transaction((tx) => tx.forSpace('b').episodes.insertMany(rows.slice(0, 10)));
  }
  await store.transaction((tx) => tx.forSpace('a').episodes.insertMany([ep('kayak river backdated', 10 * DAY + 5)]));
}, 60_000);
afterAll(async () => {
  await store.close();
});

describe('SQLite lexical search inside a time window', () => {
  it("equals a filtered scan of the space's own index, back-dated rows included", async () => {
    // Space a's own word table: its bm25() counts a's rows only.
    const n = num((await store.db.get<{ n: unknown }>("SELECT n FROM search_tables WHERE space = 'a' AND layer = 'episode'"))?.n);
    const fts = spaceFtsTables('episode', n).fts;
    for (const [since, until] of [[10 * DAY, 11 * DAY - 1], [0, 2 * DAY], [30 * DAY, 90 * DAY], [10 * DAY, 10 * DAY + 3600_000]] as const) {
      const hits = await store.forSpace('a').search.lexical('episode', ['kayak', 'river'], { limit: 40, since, until });
      const expected = await store.db.all<{ id: unknown; s: number }>(
        `SELECT f.rowid AS id, bm25(${fts}, 1.0, 0.3, 0.3) AS s FROM ${fts} f JOIN episodes x ON x.id = f.rowid
         WHERE ${fts} MATCH '"kayak" OR "river"' AND x.space = 'a' AND x.occurred_at >= ? AND x.occurred_at <= ?
         AND x.archived_at IS NULL ORDER BY s, f.rowid DESC LIMIT 40`,
        [since, until],
      );
      expect(hits.map((h) => h.score)).toEqual(expected.map((r) => -r.s));
      // Equal scores newer row first, as every ranking orders them: the same rows in the same order.
      expect(hits.map((h) => h.id)).toEqual(expected.map((r) => num(r.id)));
    }
    const late = await store.forSpace('a').search.lexical('episode', ['backdated'], { limit: 5, since: 10 * DAY, until: 11 * DAY });
    expect(late).toHaveLength(1);
  });

  it('answers nothing for an empty window', async () => {
    expect(await store.forSpace('a').search.lexical('episode', ['kayak'], { limit: 5, since: 100 * DAY, until: 101 * DAY })).toEqual([]);
  });
});
