// Term pruning on large SQLite indexes: very common words are dropped when rarer ones exist, and a query made only
// of very common words ranks the newest rows holding all of them (its BM25 ranking carries little signal; scoring
// every row would cost a BM25 pass over most of the index). When fewer rows hold them all, the newest rows are
// scored; large indexes read that window by a descending walk, which must find the same rows and scores as the
// rowid-range query that small ones use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainEpisode as ep } from './plain-episode.test-helper.js';
import type { SqlStore } from '../sql/sql-store.js';
import { createRng } from '../../script/seeded-rng.js';
import { openSqliteStore } from './open-sqlite.js';
import { SqliteSearch } from './sqlite-search.js';

const ROWS = 24_000;
let store: SqlStore;
let ids: number[];

beforeAll(async () => {
  store = await openSqliteStore(':memory:');
  // Every row says "alpha beta" and "e-mail"; only the very first also says "zeta". A seeded share of rows repeats
  // alpha or beta and pads with filler, so scores vary and the window's ranking is not all ties.
  const rng = createRng(7);
  const filler = (n: number) => Array.from({ length: n }, () => `w${rng.between(1, 400)}`).join(' ');
  const rows = Array.from({ length: ROWS }, (_, i) =>
    ep(`alpha beta e-mail row${i}${i === 0 ? ' zeta' : ''} ${rng.chance(0.3) ? 'alpha ' : ''}${rng.chance(0.3) ? 'beta ' : ''}${filler(rng.between(0, 12))}`),
  );
  ids = (await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows))).ids;
}, 120_000);
afterAll(async () => {
  await store.close();
});

describe('SQLite lexical search on a large index', () => {
  it('ranks the newest rows holding every word first when all words are very common', async () => {
    const hits = await store.forSpace('s').search.lexical('episode', ['alpha', 'beta'], { limit: 50 });
    expect(hits.map((h) => h.id)).toEqual(ids.slice(-50).reverse());
    expect(hits.every((h, i) => i === 0 || h.score < hits[i - 1]!.score)).toBe(true);
    const one = await store.forSpace('s').search.lexical('episode', ['alpha'], { limit: 5 });
    expect(one.map((h) => h.id)).toEqual(ids.slice(-5).reverse());
  });

  it('drops a very common word when a rarer one is asked, and finds the oldest row by it', async () => {
    const hits = await store.forSpace('s').search.lexical('episode', ['zeta', 'alpha'], { limit: 5 });
    expect(hits.map((h) => h.id)).toEqual([ids[0]]);
  });

  it('counts a term as FTS5 matches it, so a common hyphenated word is dropped too', async () => {
    // "e-mail" is the phrase "e mail" to FTS5; a vocabulary lookup of the whole word would find no row and keep it.
    const hits = await store.forSpace('s').search.lexical('episode', ['e-mail', 'zeta'], { limit: 5 });
    expect(hits.map((h) => h.id)).toEqual([ids[0]]);
  });

  it('finds the same window rows and scores by the descending walk as by the rowid range', async () => {
    const walk = new SqliteSearch(store.db, { descendingWalkRows: 0 });
    const range = new SqliteSearch(store.db, { descendingWalkRows: Number.MAX_SAFE_INTEGER });
    // Asking for more rows than hold both words leaves the newest-first intersection for the scored window.
    const a = await walk.lexical('s', 'episode', ['alpha', 'beta'], { limit: 9000 });
    const b = await range.lexical('s', 'episode', ['alpha', 'beta'], { limit: 9000 });
    expect(a).toHaveLength(9000);
    expect(new Set(a.map((h) => h.score)).size).toBeGreaterThan(5);
    // Rows tied on score may be cut at the last place in either order; the scores must agree one for one.
    expect(a.map((h) => h.score)).toEqual(b.map((h) => h.score));
    const cut = a.at(-1)!.score;
    const above = (hs: typeof a) => hs.filter((h) => h.score > cut).map((h) => h.id).sort((x, y) => x - y);
    expect(above(a)).toEqual(above(b));
    expect(Math.min(...a.map((h) => h.id))).toBeGreaterThan(ids.at(-1)! - 20_000);
  });
});
