// Whether a term is common is counted once and remembered while the index grows by less than 1 %; past that it is
// counted again, so a word that became common leaves the OR query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEpisode } from '../port.js';
import { plainEpisode as ep } from './plain-episode.test-helper.js';
import type { SqlStore } from '../sql/sql-store.js';
import { openSqliteStore } from './open-sqlite.js';

let store: SqlStore;
const rows = (n: number, zebra: (i: number) => boolean, kayak: (i: number) => boolean): NewEpisode[] =>
  Array.from({ length: n }, (_, i) => ep(`w${i % 97} w${i % 89}${zebra(i) ? ' zebra' : ''}${kayak(i) ? ' kayak' : ''}`));

beforeAll(async () => {
  store = await openSqliteStore(':memory:');
  // 8,000 rows: "zebra" in 390 (4.9 %, under the 5 % cut), "kayak" in 80, none with both.
  await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows(8000, (i) => i % 20 === 3 && i < 7800, (i) => i % 100 === 11)));
}, 60_000);
afterAll(async () => {
  await store.close();
});

const zebraOnly = async () => {
  const hits = await store.forSpace('s').search.lexical('episode', ['kayak', 'zebra'], { limit: 1000 });
  const got = await store.forSpace('s').episodes.getMany(hits.map((h) => h.id));
  return got.filter((e) => !e.content.includes('kayak')).length;
};

describe('SQLite search remembers whether a term is common', () => {
  it('keeps the count while the index grows by less than 1 %, and counts again after', async () => {
    expect(await zebraOnly()).toBe(390); // rare: scored in the OR query
    // +60 rows, all with "zebra": 450 of 8,060 (5.6 %) but the index grew 0.75 %, so the count stands.
    await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows(60, () => true, () => false)));
    expect(await zebraOnly()).toBe(450);
    // +40 more: 1.25 % since the count, so it is counted again, is common, and only rows with "kayak" remain.
    await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows(40, () => true, () => false)));
    expect(await zebraOnly()).toBe(0);
  });
});
