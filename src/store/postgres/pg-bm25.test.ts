// PostgreSQL scores every candidate by FTS5's BM25 (ts_rank_cd gives each term's weighted count and the row's length):
// the same rows with the same scores as SQLite's bm25(), repeated words, a one-character Chinese
// prefix and weighted columns (speaker B, preceding turns C) included. (A phrase is scored by the mean count of its
// words, not by its own occurrences as FTS5 does.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEpisode } from '../port.js';
import type { SqlStore } from '../sql/sql-store.js';
import { createRng } from '../../script/seeded-rng.js';
import { openSqliteStore } from '../sqlite/open-sqlite.js';
import { openPostgresStore } from './open-postgres.js';

const LEX = { limit: 40 };
let sqlite: SqlStore;
let pg: SqlStore;

function episode(body: string, extra: string, ctx: string): NewEpisode {
  return {
    kind: 'turn', role: 'user', speaker: null, content: body, session: null, tool: null, ok: null, source: 'test', ref: null,
    meta: {}, durable: false, occurredAt: 1, createdAt: 1, embedPending: false, index: { body, extra, ctx, raw: '' },
  };
}

beforeAll(async () => {
  [sqlite, pg] = await Promise.all([openSqliteStore(':memory:'), openPostgresStore('pglite://memory')]);
  const rng = createRng(5);
  const words = ['harbour', 'kayak', 'storm', 'net', 'boat', 'tide', 'rope', 'gull', '部署', '部门', '备份'];
  const rows: NewEpisode[] = [];
  for (let i = 0; i < 400; i++) {
    const pick = (n: number) => Array.from({ length: n }, () => (rng.chance(0.5) ? words[rng.between(0, words.length - 1)]! : `w${rng.between(1, 90)}`));
    rows.push(episode(pick(rng.between(2, 12)).join(' '), pick(rng.between(0, 2)).join(' '), pick(rng.between(0, 6)).join(' ')));
  }
  for (const store of [sqlite, pg]) await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows));
}, 180_000);
afterAll(async () => {
  await Promise.all([sqlite?.close(), pg?.close()]);
});

const QUERIES = [
  [['kayak']],
  [['kayak', 'storm']],
  [['kayak', 'kayak', 'gull']],
  [['部', 'rope']],
  [['部署', 'boat', 'w7']],
];

/** Each query's hits on SQLite and PostgreSQL while space `s` is alone. */
const alone = new Map<string, unknown>();

async function ranksAlike(terms: string[]): Promise<void> {
  const [a, b] = await Promise.all([sqlite.forSpace('s').search.lexical('episode', terms, LEX), pg.forSpace('s').search.lexical('episode', terms, LEX)]);
  // Another space's rows change neither engine's hits nor their scores.
  const key = JSON.stringify(terms);
  if (alone.has(key)) expect([a, b]).toEqual(alone.get(key));
  else alone.set(key, [a, b]);
  expect(a.length).toBeGreaterThan(0);
  expect(b.length).toBe(a.length);
  b.forEach((h, i) => expect(h.score).toBeCloseTo(a[i]!.score, 4));
  // Rows of equal score may come in another order (SQLite leaves ties unordered), and the cut may take other rows
  // of the last score; every other row is in both, with the same score.
  const scoreA = new Map(a.map((h) => [h.id, h.score]));
  const scoreB = new Map(b.map((h) => [h.id, h.score]));
  const cut = a[a.length - 1]!.score + 1e-4;
  for (const [hits, other] of [[a, scoreB], [b, scoreA]] as const) {
    for (const h of hits.filter((x) => x.score > cut)) expect(other.get(h.id)).toBeCloseTo(h.score, 4);
  }
}

describe('PostgreSQL BM25', () => {
  it.each(QUERIES)('ranks %j as SQLite does', ranksAlike);
});

describe('PostgreSQL BM25 beside another space', () => {
  beforeAll(async () => {
    // Another space, shorter rows and "kayak" in most of them: counted, it would move N, n and the mean length.
    const rows = Array.from({ length: 300 }, (_, i) => episode(i % 4 === 0 ? `gull w${i % 7}` : 'kayak kayak storm', '', ''));
    for (const store of [sqlite, pg]) await store.transaction((tx) => tx.forSpace('other').episodes.insertMany(rows));
  }, 180_000);

  it.each(QUERIES)("ranks %j as SQLite does, each counting the space's own rows", ranksAlike);
});
