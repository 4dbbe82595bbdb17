// A word common enough to leave the OR query still counts: rows holding every asked word are fetched first with
// their whole score, so the top of a query of one rare and one common word equals the unpruned BM25 top (a row with
// only the common word scores below every row with the rare one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEpisode } from '../port.js';
import { plainEpisode as ep } from './plain-episode.test-helper.js';
import type { SqlStore } from '../sql/sql-store.js';
import { createRng } from '../../script/seeded-rng.js';
import { openSqliteStore } from './open-sqlite.js';
import { SqliteSearch } from './sqlite-search.js';

let store: SqlStore;
const withBoth = new Set<number>();

beforeAll(async () => {
  store = await openSqliteStore(':memory:');
  const rng = createRng(11);
  // 8,000 rows: "harbour" in 30 % (common), "kayak" in 160 rows (2 %), 20 of which also say "harbour".
  const rows: NewEpisode[] = [];
  for (let i = 0; i < 8000; i++) {
    const kayak = i % 50 === 7;
    const harbour = kayak ? i % 400 === 7 : rng.chance(0.3);
    const words = Array.from({ length: rng.between(3, 8) }, () => `w${rng.between(1, 300)}`);
    if (kayak) words.push('kayak');
    if (harbour) words.push('harbour');
    rows.push(ep(words.join(' ')));
  }
  const ids = (await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows))).ids;
  rows.forEach((r, i) => {
    if (r.content.includes('kayak') && r.content.includes('harbour')) withBoth.add(ids[i]!);
  });
}, 60_000);
afterAll(async () => {
  await store.close();
});

describe('SQLite lexical search with a common word left out', () => {
  it('ranks as the unpruned query does, the rows with both words scored by both', async () => {
    expect(withBoth.size).toBe(20);
    for (const limit of [10, 60]) {
      const hits = await store.forSpace('s').search.lexical('episode', ['kayak', 'harbour'], { limit });
      const exact = await new SqliteSearch(store.db, { commonShare: 1 }).lexical('s', 'episode', ['kayak', 'harbour'], { limit });
      expect(hits.map((h) => h.score)).toEqual(exact.map((h) => h.score));
      expect(hits.map((h) => h.id)).toEqual(exact.map((h) => h.id));
      expect(hits.filter((h) => withBoth.has(h.id)).length).toBeGreaterThanOrEqual(Math.min(limit, 20) / 2);
    }
  });
});
