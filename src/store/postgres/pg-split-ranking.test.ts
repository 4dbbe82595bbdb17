// A PostgreSQL ranking over many candidates is split in two halves, one per pooled connection (pg-search.ts,
// `#bm25Parts`): over the whole index by its words when they part the rows evenly (`wordHalves`), else, and in a
// bounded range, by ids. The hits and their scores must be those of the whole ranking on one connection, for a plain
// OR query, a query whose common word leaves the OR query (its halves share the connections with the rows holding
// every word) and a time window. Real PostgreSQL only (PGlite runs one statement at a time and never splits).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSchemas } from '../../../test/helpers/pg-schemas.js';
import { statementsSeen } from '../../../test/helpers/statements-seen.js';
import type { LexicalOptions, NewEpisode } from '../port.js';
import type { SqlStore } from '../sql/sql-store.js';
import { createRng } from '../../script/seeded-rng.js';
import { openPostgresStore } from './open-postgres.js';
import { wordHalves } from './pg-search.js';

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
  // nearly all heron's rows and is halved by ids; "tide" is in every row.
  const rng = createRng(11);
  const rows: NewEpisode[] = [];
  for (let i = 0; i < 44_000; i++) {
    const words = ['tide', ...Array.from({ length: rng.between(2, 9) }, () => `w${rng.between(1, 400)}`)];
    for (const w of ['kayak', 'storm', 'gull']) if (rng.chance(0.045)) words.push(...Array.from({ length: rng.between(1, 3) }, () => w));
    if (i % 21 === 0) words.push('heron');
    if (i % 400 === 0) words.push('egret');
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

describe.skipIf(!base)('PostgreSQL ranking split over two connections', () => {
  it.each(CASES)('%s: the same hits and scores as one whole ranking', async (_, terms, o) => {
    // The statements a search sent: a word half of the whole index leaves out the first half's rows with
    // `AND NOT f.tsv @@`, a half of a bounded range (a time window) is bounded by the range's own ids.
    const { result: split, texts } = await statementsSeen(pooled.db, () => pooled.forSpace('s').search.lexical('episode', terms, o));
    const rankings = texts.filter((s) => s.includes('ts_rank_cd'));
    if (terms.includes('heron')) {
      // One word holds 95 % of the candidates: by words, one half would read and rank nearly all of them.
      expect(rankings.some((s) => s.includes('f.id + 0 >'))).toBe(true);
      expect(rankings.some((s) => s.includes('AND NOT f.tsv @@'))).toBe(false);
    } else if (o.since === undefined) {
      // Three words of about 1,980 rows each: one half ranks the rows of two, the other those of the third.
      expect(rankings.some((s) => s.includes('AND NOT f.tsv @@'))).toBe(true);
      expect(rankings.some((s) => s.includes('f.id + 0'))).toBe(false);
    } else {
      // A range with bounds of its own is halved by them, so that a half read through the primary key reads only
      // its own rows (with the half's bound a filter, each half read the whole range).
      expect(rankings.some((s) => s.includes('f.id + 0'))).toBe(false);
      expect(rankings.filter((s) => /f\.id > \?/.test(s) && /f\.id <= \?/.test(s)).length).toBeGreaterThanOrEqual(2);
    }
    const whole = await single.forSpace('s').search.lexical('episode', terms, o);
    expect(split.length).toBe(o.limit);
    expect(split.map((h) => h.id)).toEqual(whole.map((h) => h.id));
    split.forEach((h, i) => expect(h.score).toBeCloseTo(whole[i]!.score, 9));
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
