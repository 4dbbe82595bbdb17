// PostgreSQL scores every candidate by FTS5's BM25 (ts_rank_cd gives each term's weighted count and the row's length):
// the same rows with the same scores as SQLite's bm25(), repeated words, a one-character Chinese
// prefix and weighted columns (speaker B, preceding turns C) included. (A phrase is scored by the mean count of its
// words, not by its own occurrences as FTS5 does.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEpisode } from '../port.js';
import type { SqlStore } from '../sql/sql-store.js';
import { createRng } from '../../script/seeded-rng.js';
import { openSqliteStore } from '../sqlite/open-sqlite.js';
import { fts5Terms } from '../sql/fts5-tokens.js';
import { openPostgresStore } from './open-postgres.js';
import { HALF_MARK } from './pg-lexemes.js';

const LEX = { limit: 40 };
let sqlite: SqlStore;
let pg: SqlStore;
const stored: NewEpisode[] = [];

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
  stored.push(...rows);
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
  // More one-word terms than a row without a stored length may take its length from (LENGTH_BRANCHES): rows holding
  // only the later ones take it from the whole match.
  [['w3', 'w5', 'w11', 'w17', 'w23', 'w29', 'gull']],
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
  // The same rows in the same order: rows of equal score newest first on both engines, so a cut among them keeps
  // the same ones.
  expect(b.map((h) => h.id)).toEqual(a.map((h) => h.id));
}

describe('PostgreSQL BM25', () => {
  it.each(QUERIES)('ranks %j as SQLite does', ranksAlike);

  it("stores each row's length as the server counts its positions, and ranks rows written without one alike", async () => {
    // The half marker (pg-lexemes.ts) holds no position: a row's length is its terms' positions.
    const positions = `(SELECT sum(greatest(cardinality(u.positions), 1)) FROM unnest(tsv) u WHERE u.lexeme <> '${HALF_MARK}')`;
    const wrong = await pg.db.all<{ id: number }>(`SELECT id FROM episodes_fts WHERE len IS DISTINCT FROM ${positions}`);
    expect(wrong).toEqual([]);
    const marked = await pg.db.all<{ id: unknown }>(`SELECT id FROM episodes_fts WHERE tsv @@ ?::tsquery`, [`'${HALF_MARK}'`]);
    expect(marked.length).toBeGreaterThan(0);
    const stored = await Promise.all(QUERIES.map(([terms]) => pg.forSpace('s').search.lexical('episode', terms!, LEX)));
    // Rows written before the length column (schema version 3) have none, nor the half marker, which came later:
    // their length comes from their ranks.
    await pg.db.run('UPDATE episodes_fts SET len = NULL, tsv = ts_delete(tsv, ?::text)', [HALF_MARK]);
    try {
      const measured = await Promise.all(QUERIES.map(([terms]) => pg.forSpace('s').search.lexical('episode', terms!, LEX)));
      expect(measured).toEqual(stored);
    } finally {
      await pg.db.run(`UPDATE episodes_fts SET len = ${positions}`);
      await pg.db.run(`UPDATE episodes_fts SET tsv = tsv || ?::tsvector WHERE id = ANY(?::bigint[])`, [
        `'${HALF_MARK}'`,
        `{${marked.map((r) => Number(r.id)).join(',')}}`,
      ]);
    }
  });
});

describe('PostgreSQL BM25 of a phrase', () => {
  // A row's length D comes from a one-word term it holds, else from the whole match: a row holding the phrase and
  // not the word takes the second way. Checked against BM25 computed here from the rows' own terms (FTS5 scores a phrase by its
  // own occurrences, so SQLite is no reference for it).
  it('scores rows holding the phrase, the word or both by BM25 over their terms', async () => {
    const fields = stored.map((r) => [r.index.body, r.index.extra, r.index.ctx ?? ''].map((t) => fts5Terms(t)));
    const weight = [1, 0.3, 0.3];
    const f = (row: (readonly string[])[], w: string) => row.reduce((sum, terms, i) => sum + terms.filter((x) => x === w).length * weight[i]!, 0);
    const holdsPhrase = (row: (readonly string[])[]) => row.some((terms) => terms.some((x, i) => x === 'kayak' && terms[i + 1] === 'storm'));
    const length = (row: (readonly string[])[]) => row.reduce((sum, terms) => sum + terms.length, 0);
    const avgdl = fields.reduce((sum, row) => sum + length(row), 0) / fields.length;
    const idf = (n: number) => Math.max(Math.log((fields.length - n + 0.5) / (n + 0.5)), 1e-6);
    const idfPhrase = idf(fields.filter(holdsPhrase).length);
    const idfWord = idf(fields.filter((row) => f(row, 'gull') > 0).length);
    const part = (idfOf: number, freq: number, d: number) => (idfOf * freq * 2.2) / (freq + 1.2 * (0.25 + (0.75 * d) / avgdl));
    const hits = await pg.forSpace('s').search.lexical('episode', ['kayak storm', 'gull'], { limit: 400 });
    // The space's rows were the first written: ids 1 to 400 in input order.
    const content = new Map((await pg.forSpace('s').episodes.getMany(hits.map((h) => h.id))).map((e) => [e.id, e.content]));
    let phraseOnly = 0;
    for (const h of hits) {
      expect(content.get(h.id)).toBe(stored[h.id - 1]!.content);
      const row = fields[h.id - 1]!;
      // PostgreSQL's f of a phrase is the mean of its words' counts in the row (the header above).
      const phrase = (f(row, 'kayak') + f(row, 'storm')) / 2;
      const word = f(row, 'gull');
      if (word === 0) phraseOnly++;
      expect(h.score).toBeCloseTo(part(idfPhrase, phrase, length(row)) + part(idfWord, word, length(row)), 4);
    }
    expect(phraseOnly).toBeGreaterThan(0);
  });
});

describe('PostgreSQL BM25 beside another space', () => {
  beforeAll(async () => {
    // Another space, shorter rows and "kayak" in most of them: counted, it would move N, n and the mean length.
    const rows = Array.from({ length: 300 }, (_, i) => episode(i % 4 === 0 ? `gull w${i % 7}` : 'kayak kayak storm', '', ''));
    for (const store of [sqlite, pg]) await store.transaction((tx) => tx.forSpace('other').episodes.insertMany(rows));
  }, 180_000);

  it.each(QUERIES)("ranks %j as SQLite does, each counting the space's own rows", ranksAlike);
});
