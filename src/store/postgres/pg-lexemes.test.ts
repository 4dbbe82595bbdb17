// tsvectors sent in PostgreSQL's binary format equal those of the text input, as the server reads both (needs
// TIDEPOOL_TEST_PG_URL: only node-postgres binds a Buffer as a binary parameter).
import type { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HALF_MARK, HALF_RUN, halfOfNext, tsvectorArray, tsvectorBinary, tsvectorLiteral, type TsvectorLength } from './pg-lexemes.js';

const url = process.env.TIDEPOOL_TEST_PG_URL;
type Fields = Array<readonly [string, 'A' | 'B' | 'C']>;

const DOCS: Array<[string, Fields]> = [
  ['English with stems and repeats', [['Running shoes, run! The runner runs.', 'A'], ['Ana', 'B'], ['the shoes were new \n we ran', 'C']]],
  ['Chinese bigrams and a speaker', [['用户 爱喝 咖啡 用户爱 喝咖', 'A'], ['小明', 'B'], ['', 'C']]],
  ['accents folded, a quote and a backslash between tokens', [["Café naïve l'été C:\\path", 'A'], ['', 'B']]],
  ['positions past 16383 are clamped and kept once', [[`${'filler '.repeat(16390)}end end end`, 'A']]],
  ['more than 256 positions of one lexeme', [['tide '.repeat(400), 'A'], ['tide', 'C']]],
  ['a lone surrogate (a token separator)', [['alpha be\ud800ta gamma', 'A']]],
  ['no token at all', [['  ...  ', 'A'], ['', 'B'], ['', 'C']]],
];

describe.skipIf(!url)('tsvector binary format', () => {
  let client: Client;
  beforeAll(async () => {
    const { default: pg } = await import('pg');
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });

  it('reads every document as the same tsvector as its text form, in order', async () => {
    const texts = DOCS.map(([, f]) => tsvectorLiteral(f).replace(/[\ud800-\udfff]/g, '\ufffd'));
    const r = await client.query<{ i: number; text: string; binary: string }>(
      `SELECT t.i::int AS i, t.v::tsvector::text AS text, b.v::text AS binary
       FROM unnest($1::text[]) WITH ORDINALITY AS t(v, i) JOIN unnest($2::tsvector[]) WITH ORDINALITY AS b(v, i) USING (i)
       ORDER BY i`,
      [texts, tsvectorArray(DOCS.map(([, f]) => tsvectorBinary(f)))],
    );
    expect(r.rows.map((x) => x.binary)).toEqual(r.rows.map((x) => x.text));
    expect(r.rows).toHaveLength(DOCS.length);
    // Not vacuous: stems with several positions, three weights, one clamped position, 256 positions at most.
    const [english, , , clamped, many] = r.rows.map((x) => x.binary);
    expect(english).toContain("'run':1A,3A,6A 'runner':5A 'shoe':2A,11C");
    expect(english).toContain("'ana':8B");
    expect(clamped).toContain("'end':16383A");
    expect(many!.match(/\d+A/g)).toHaveLength(256);
  });

  it('marks a row of the second half with a lexeme of no position, first, in both forms', async () => {
    const docs = DOCS.map(([, f]) => f);
    const r = await client.query<{ text: string; binary: string; marked: boolean }>(
      `SELECT t.v::tsvector::text AS text, b.v::text AS binary, b.v @@ $3::tsquery AS marked
       FROM unnest($1::text[]) WITH ORDINALITY AS t(v, i) JOIN unnest($2::tsvector[]) WITH ORDINALITY AS b(v, i) USING (i)
       ORDER BY i`,
      [
        docs.map((f) => tsvectorLiteral(f, undefined, { half: true }).replace(/[\ud800-\udfff]/g, '\ufffd')),
        tsvectorArray(docs.map((f) => tsvectorBinary(f, undefined, { half: true }))),
        `'${HALF_MARK}'`,
      ],
    );
    expect(r.rows.map((x) => x.binary)).toEqual(r.rows.map((x) => x.text));
    for (const [i, row] of r.rows.entries()) {
      expect(row.marked).toBe(true);
      // First, with no position; the rest as without the mark.
      expect(row.binary.startsWith(`'${HALF_MARK}'`)).toBe(true);
      const unmarked = tsvectorLiteral(docs[i]!).replace(/[\ud800-\udfff]/g, '\ufffd');
      const rest = row.binary.slice(`'${HALF_MARK}'`.length).trimStart();
      expect(rest).toBe((await client.query<{ t: string }>('SELECT $1::tsvector::text AS t', [unmarked])).rows[0]!.t);
    }
  });
});

describe('the index halves', () => {
  it('mark no position and count the marker among the row\'s lexemes', () => {
    const plain: TsvectorLength = { length: 0, lexemes: [] };
    const marked: TsvectorLength = { length: 0, lexemes: [] };
    tsvectorBinary([['alpha beta alpha', 'A']], plain);
    tsvectorBinary([['alpha beta alpha', 'A']], marked, { half: true });
    expect(marked.length).toBe(plain.length);
    expect(marked.lexemes!.map((l) => l.key)).toEqual([HALF_MARK, ...plain.lexemes!.map((l) => l.key)]);
    expect(tsvectorLiteral([['alpha', 'A']], undefined, { half: true })).toBe(`'${HALF_MARK}' 'alpha':1A`);
  });

  it('alternate in runs of rows written one after another', () => {
    const halves = Array.from({ length: 4 * HALF_RUN }, () => halfOfNext());
    // The first run may have begun before; every run after it is HALF_RUN rows of one half, the next of the other.
    const start = halves.findIndex((h) => h !== halves[0]);
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThanOrEqual(HALF_RUN);
    for (let i = start; i + HALF_RUN <= halves.length; i += HALF_RUN) {
      const run = halves.slice(i, i + HALF_RUN);
      expect(new Set(run).size).toBe(1);
      if (i > start) expect(run[0]).not.toBe(halves[i - 1]);
    }
    expect(halves.filter(Boolean).length / halves.length).toBeGreaterThan(0.3);
  });
});

describe('lexemes interned on the write path', () => {
  /** A one-field row's tsvector length and lexemes. */
  const row = (text: string) => {
    const len: TsvectorLength = { length: 0, lexemes: [] };
    tsvectorBinary([[text, 'A']], len);
    return len;
  };
  it('counts a key once however often its interned objects were started over during a batch', async () => {
    const { LexicalDelta } = await import('./pg-lexical-stats.js');
    const delta = new LexicalDelta();
    const first = row('alpha 去年');
    delta.add(first.length, first.lexemes!);
    // More distinct words than the interning table keeps: the next document starts it over.
    row(Array.from({ length: 50_001 }, (_, i) => `w${i}`).join(' '));
    const again = row('alpha alpha 去年');
    expect(again.lexemes![0]).not.toBe(first.lexemes![0]);
    delta.add(again.length, again.lexemes!);
    expect(JSON.parse(delta.json())).toEqual({ alpha: 2, 'a*': 2, 去年: 2, '去*': 2 });
    expect(delta.tokens).toBe(2 + 3);
    // Two positions of one lexeme in a row are one row in its count, and the row's prefix key counts once.
    const same = new LexicalDelta();
    const r = row('alpha alps alpha');
    same.add(r.length, r.lexemes!);
    expect(JSON.parse(same.json())).toEqual({ alpha: 1, alp: 1, 'a*': 1 });
  });

  it('counts a key once when its objects were started over after a part was built and before it was counted', async () => {
    const { LexicalDelta } = await import('./pg-lexical-stats.js');
    // As a batch goes: the delta begins, a part is built, the next part's build starts the interned keys over, and
    // only then are the first part's rows counted.
    const delta = new LexicalDelta();
    const first = row('papaya');
    row(Array.from({ length: 50_001 }, (_, i) => `u${i}`).join(' '));
    const second = row('papaya');
    expect(second.lexemes![0]).not.toBe(first.lexemes![0]);
    delta.add(first.length, first.lexemes!);
    delta.add(second.length, second.lexemes!);
    expect(delta.json()).toBe('{"papaya":2,"p*":2}');
  });

  it('counts each delta apart when two writes of one process count the same keys in turn', async () => {
    const { LexicalDelta } = await import('./pg-lexical-stats.js');
    const a = new LexicalDelta();
    const b = new LexicalDelta();
    // Interleaved: each takes the keys over from the other, back and forth.
    a.add(2, row('kiwi mango').lexemes!);
    b.add(1, row('kiwi').lexemes!);
    a.add(1, row('kiwi').lexemes!);
    b.add(2, row('kiwi mango').lexemes!);
    a.add(1, row('mango').lexemes!);
    expect(JSON.parse(a.json())).toEqual({ kiwi: 2, mango: 2, 'k*': 2, 'm*': 2 });
    expect(JSON.parse(b.json())).toEqual({ kiwi: 2, mango: 1, 'k*': 2, 'm*': 1 });
    // Read deltas let their keys go: the next one counts them in one place each, in first-seen order.
    const c = new LexicalDelta();
    c.add(2, row('mango kiwi').lexemes!);
    c.add(1, row('kiwi').lexemes!);
    expect(c.json()).toBe('{"kiwi":2,"k*":2,"mango":1,"m*":1}');
  });

  it('never holds two objects for one lexeme in a document, though its line was remembered before a start-over', () => {
    expect(tsvectorLiteral([['gamma', 'A']])).toBe("'gamma':1A");
    tsvectorLiteral([[Array.from({ length: 50_001 }, (_, i) => `v${i}`).join(' '), 'A']]);
    // "gamma" alone was remembered as a line of the old interned objects; "gamma delta" is new.
    expect(tsvectorLiteral([['gamma delta', 'A'], ['gamma', 'C']])).toBe("'gamma':1A,4C 'delta':2A");
  });
});

describe('tsvector binary order', () => {
  it('sends lexemes in the order the server keeps them (by their bytes), so that it sorts nothing', () => {
    const buf = tsvectorBinary([['zebra apple Mango 咖啡 apple banana 北京 ápple', 'A'], ['yak', 'B'], ['aardvark zebra', 'C']]);
    const lexemes: Buffer[] = [];
    let o = 8;
    for (let i = 0; i < buf.readInt32BE(4); i++) {
      const end = buf.indexOf(0, o);
      lexemes.push(buf.subarray(o, end));
      o = end + 1;
      o += 2 + buf.readUInt16BE(o) * 2;
    }
    expect(o).toBe(buf.length);
    expect(lexemes.length).toBeGreaterThan(6);
    const sorted = [...lexemes].sort(Buffer.compare);
    expect(lexemes.map(String)).toEqual(sorted.map(String));
  });

  it('orders many lexemes that share their first characters, long ones and one-letter ones as well', () => {
    // 700 distinct words (more than the sort's first buffer), most sharing a two-letter head with others.
    const words = Array.from({ length: 700 }, (_, i) => `${'tha'[i % 3]}${'hoe'[i % 3]}${String.fromCharCode(97 + (i % 26))}${i.toString(36)}x`);
    const long = `th${'q'.repeat(40)}`;
    // Short runs too ("qu…", "北…"), which are sorted by insertion, and a run of one.
    const buf = tsvectorBinary([[`${words.join(' ')} t th ${long} thq quz qua qum 北京 北 zoo`, 'A'], [words.slice(0, 50).reverse().join(' '), 'C']]);
    const lexemes: string[] = [];
    let o = 8;
    for (let i = 0; i < buf.readInt32BE(4); i++) {
      const end = buf.indexOf(0, o);
      lexemes.push(buf.subarray(o, end).toString());
      o = end + 1;
      o += 2 + buf.readUInt16BE(o) * 2;
    }
    expect(o).toBe(buf.length);
    expect(lexemes).toContain(long);
    expect(lexemes).toContain('t');
    expect(new Set(lexemes).size).toBe(lexemes.length);
    expect(lexemes.length).toBeGreaterThan(700);
    expect(lexemes).toEqual([...lexemes].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  });
});
