// A PostgreSQL ranking over many candidates is split in two halves, one per pooled connection (pg-search.ts,
// `#bm25Parts`): over the whole index by the half marker the rows carry (`markHalves`), or, for rows written before
// it, by its words when they part the rows evenly (`wordHalves`), else, and in a bounded range, by ids. The hits and
// their scores must be those of the whole ranking on one connection, for a plain OR query, a query whose common word
// leaves the OR query (its halves share the connections with the rows holding every word) and a time window. Real
// PostgreSQL only (PGlite runs one statement at a time and never splits).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSchemas } from '../../../test/helpers/pg-schemas.js';
import { statementsSeen } from '../../../test/helpers/statements-seen.js';
import type { LexicalOptions, NewEpisode } from '../port.js';
import type { SqlStore } from '../sql/sql-store.js';
import { readLexicalStats } from './pg-lexical-stats.js';
import { createRng } from '../../script/seeded-rng.js';
import { openPostgresStore } from './open-postgres.js';
import { HALF_MARK } from './pg-lexemes.js';
import { markHalves, wordHalves } from './pg-search.js';

const base = process.env.TIDEPOOL_TEST_PG_URL;
const fresh = base ? pgSchemas(base) : () => '';

function episode(body: string, at: number): NewEpisode {
  return {
    kind: 'turn', role: 'user', speaker: null, content: body, session: null, tool: null, ok: null, source: 'test', ref: null,
    meta: {}, durable: false, occurredAt: at, createdAt: at, embedPending: false, index: { body, extra: '', raw: body },
  };
}

let pooled: SqlStore;
let single: SqlStore;

beforeAll(async () => {
  if (!base) return;
  const url = fresh('split');
  pooled = await openPostgresStore(url);
  // 44,000 rows: "kayak", "storm" and "gull" each in about 4.5 % of them, under the planner's 5 % (a word in more
  // leaves the OR query), so that together they match some 5,900 rows and part them evenly; "heron" in every 21st row
  // (2,096, over the 2,000 candidates a split needs) and "egret" in every 400th (110), so that an OR of the two is
  // nearly all heron's rows and is halved by ids; "tide" is in every row, "reef" in every third (common, yet its idf
  // is above 0).
  const rng = createRng(11);
  const rows: NewEpisode[] = [];
  for (let i = 0; i < 44_000; i++) {
    const words = ['tide', ...Array.from({ length: rng.between(2, 9) }, () => `w${rng.between(1, 400)}`)];
    for (const w of ['kayak', 'storm', 'gull']) if (rng.chance(0.045)) words.push(...Array.from({ length: rng.between(1, 3) }, () => w));
    if (i % 21 === 0) words.push('heron');
    if (i % 400 === 0) words.push('egret');
    if (i % 3 === 0) words.push('reef');
    rows.push(episode(words.join(' '), 1_000_000 + i * 1000));
  }
  for (let i = 0; i < rows.length; i += 1000) await pooled.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows.slice(i, i + 1000)));
  // The same tables through a pool of one connection: every ranking whole.
  single = await openPostgresStore(url, { poolSize: 1 });
}, 180_000);
afterAll(async () => {
  await Promise.all([pooled?.close(), single?.close()]);
});

const CASES: Array<[string, string[], LexicalOptions]> = [
  ['an OR of three frequent words', ['kayak', 'storm', 'gull'], { limit: 50 }],
  ['an OR of a frequent word and a rare one', ['heron', 'egret'], { limit: 50 }],
  ['a common word left out, the rows holding every word first', ['kayak', 'storm', 'gull', 'tide'], { limit: 50 }],
  ['the frequent words in a time window of half the rows', ['kayak', 'storm', 'gull'], { limit: 20, since: 1_000_000 + 1000 * 1000, until: 1_000_000 + 23_000 * 1000 }],
];

/** What one search sent: its rankings' texts and the tsquery texts they were given. */
async function rankingsOf(terms: string[], o: LexicalOptions) {
  const { result, texts, params } = await statementsSeen(pooled.db, () => pooled.forSpace('s').search.lexical('episode', terms, o));
  const at = texts.flatMap((s, i) => (s.includes('ts_rank_cd') ? [i] : []));
  return { result, rankings: at.map((i) => texts[i]!), queries: at.flatMap((i) => params[i]!.filter((p): p is string => typeof p === 'string')) };
}

async function expectWholeRanking(terms: string[], o: LexicalOptions, split: Array<{ id: number; score: number }>) {
  const whole = await single.forSpace('s').search.lexical('episode', terms, o);
  expect(split.length).toBe(o.limit);
  expect(split.map((h) => h.id)).toEqual(whole.map((h) => h.id));
  split.forEach((h, i) => expect(h.score).toBeCloseTo(whole[i]!.score, 9));
}

const marker = `'${HALF_MARK}'`;

describe.skipIf(!base)('PostgreSQL ranking split over two connections', () => {
  it('counts the rows carrying the half marker in the statistics, about half of them', async () => {
    const r = await pooled.db.get<{ n: unknown }>(`SELECT count(*) AS n FROM episodes_fts WHERE tsv @@ ?::tsquery`, [marker]);
    const { hits } = await readLexicalStats(pooled.db, 'episode', 's', [HALF_MARK]);
    expect(hits[0]).toBe(Number(r?.n));
    expect(hits[0]! / 44_000).toBeGreaterThan(0.45);
    expect(hits[0]! / 44_000).toBeLessThan(0.55);
  });

  it.each(CASES)('%s: the same hits and scores as one whole ranking', async (_, terms, o) => {
    const { result: split, rankings, queries } = await rankingsOf(terms, o);
    if (o.since === undefined) {
      // Over the whole index: the rows with the marker and those without, neither by ids nor by words.
      expect(queries.some((q) => q.endsWith(`) & ${marker}`))).toBe(true);
      expect(queries.some((q) => q.endsWith(`) & !${marker}`))).toBe(true);
      expect(rankings.some((s) => s.includes('f.id + 0') || s.includes('AND NOT f.tsv @@'))).toBe(false);
    } else {
      // A range with bounds of its own is halved by them, so that a half read through the primary key reads only
      // its own rows (with the half's bound a filter, each half read the whole range).
      expect(queries.some((q) => q.includes(marker))).toBe(false);
      expect(rankings.some((s) => s.includes('f.id + 0'))).toBe(false);
      expect(rankings.filter((s) => /f\.id > \?/.test(s) && /f\.id <= \?/.test(s)).length).toBeGreaterThanOrEqual(2);
    }
    await expectWholeRanking(terms, o, split);
  });

  it('scores the rows holding every word inside the rare words\' ranking as two rankings would', async () => {
    // "reef" is in a third of the rows and leaves the OR query. Over the whole index the rows holding every word are
    // scored in the rare words' halves, keeping the larger score; a time window over every row ranks them apart.
    const terms = ['kayak', 'storm', 'reef'];
    const merged = await rankingsOf(terms, { limit: 50 });
    expect(merged.rankings.filter((r) => r.includes('greatest(')).length).toBe(2);
    expect(merged.rankings.some((r) => !r.includes('greatest('))).toBe(false);
    const apart = await rankingsOf(terms, { limit: 50, since: 1_000_000, until: 1_000_000 + 44_000 * 1000 });
    expect(apart.rankings.some((r) => r.includes('greatest('))).toBe(false);
    expect(apart.queries.some((q) => q.includes("('reef')") && q.includes(' & ') && !q.includes(marker))).toBe(true);
    // Not vacuous: some of the best rows hold every word and score more than the rare words alone give them.
    const rare = await pooled.forSpace('s').search.lexical('episode', ['kayak', 'storm'], { limit: 50 });
    expect(merged.result.map((h) => h.id)).not.toEqual(rare.map((h) => h.id));
    expect(merged.result.map((h) => h.id)).toEqual(apart.result.map((h) => h.id));
    merged.result.forEach((h, i) => expect(h.score).toBeCloseTo(apart.result[i]!.score, 9));
  });

  describe('rows written before the half marker', () => {
    beforeAll(async () => {
      // As a database written before the marker holds them: no row carries it, the statistics count none.
      await pooled.db.run(`UPDATE episodes_fts SET tsv = ts_delete(tsv, ?::text) WHERE tsv @@ ?::tsquery`, [HALF_MARK, marker]);
      await pooled.db.run(`DELETE FROM lexical_terms WHERE term IN (?, ?)`, [HALF_MARK, '!*']);
      await pooled.db.run(`UPDATE lexical_deltas SET terms = terms - ?::text - ?::text`, [HALF_MARK, '!*']);
      expect((await readLexicalStats(pooled.db, 'episode', 's', [HALF_MARK])).hits).toEqual([0]);
    });

    it.each(CASES)('%s: the same hits and scores as one whole ranking', async (_, terms, o) => {
      // A word half of the whole index leaves out the first half's rows with `AND NOT f.tsv @@`, an id half of it
      // filters the ids (`f.id + 0`); a half of a bounded range (a time window) is bounded by the range's own ids.
      const { result: split, rankings, queries } = await rankingsOf(terms, o);
      expect(queries.some((q) => q.includes(marker))).toBe(false);
      if (terms.includes('heron')) {
        // One word holds 95 % of the candidates: by words, one half would read and rank nearly all of them.
        expect(rankings.some((s) => s.includes('f.id + 0 >'))).toBe(true);
        expect(rankings.some((s) => s.includes('AND NOT f.tsv @@'))).toBe(false);
      } else if (o.since === undefined) {
        // Three words of about 1,980 rows each: one half ranks the rows of two, the other those of the third.
        expect(rankings.some((s) => s.includes('AND NOT f.tsv @@'))).toBe(true);
        expect(rankings.some((s) => s.includes('f.id + 0'))).toBe(false);
      } else {
        expect(rankings.some((s) => s.includes('f.id + 0'))).toBe(false);
        expect(rankings.filter((s) => /f\.id > \?/.test(s) && /f\.id <= \?/.test(s)).length).toBeGreaterThanOrEqual(2);
      }
      await expectWholeRanking(terms, o, split);
    });
  });
});

describe('markHalves', () => {
  it('parts a match by the marker when the space\'s rows carry it evenly enough', () => {
    expect(markHalves("('a') | ('b')", 1000, 480)).toEqual({ first: `(('a') | ('b')) & !${marker}`, second: `(('a') | ('b')) & ${marker}` });
    // Rows written before the marker are all on the first side: too many of them, and the ids are halved instead.
    expect(markHalves("('a')", 1000, 200)).toBeUndefined();
    expect(markHalves("('a')", 1000, 0)).toBeUndefined();
    expect(markHalves("('a')", 0, 0)).toBeUndefined();
  });
});

describe('wordHalves', () => {
  it('parts the words evenly by their rows, the larger side first', () => {
    expect(wordHalves([{ query: "'a'", rows: 1000 }, { query: "'b'", rows: 600 }, { query: "'c'", rows: 500 }])).toEqual({
      first: "('a')",
      second: "('b') | ('c')",
    });
  });
  it('keeps the id halves when one word holds most of the rows', () => {
    // By words the larger half would read and rank 80 % of the candidates; by ids each half reads all, ranks half.
    expect(wordHalves([{ query: "'a'", rows: 4000 }, { query: "'b'", rows: 1000 }])).toBeUndefined();
    expect(wordHalves([{ query: "'a'", rows: 3000 }, { query: "'b'", rows: 2000 }])).toBeDefined();
  });
  it('counts a word asked twice once, and needs two words', () => {
    expect(wordHalves([{ query: "'a'", rows: 900 }, { query: "'a'", rows: 900 }])).toBeUndefined();
    expect(wordHalves([{ query: "'a'", rows: 0 }, { query: "'b'", rows: 0 }])).toBeUndefined();
  });
});
