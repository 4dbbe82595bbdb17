/**
 * tsvector and tsquery text built from FTS5's terms (`fts5-tokens.ts`): PostgreSQL stores and matches the terms
 * SQLite indexes, and spends no time in its own parser and stemmer on ingest (to_tsvector was most of a batch's
 * index write, issue 20).
 */
import { remembered } from '../../core/bounded-memo.js';
import { fts5Terms, porterStemUncached, unicode61 } from '../sql/fts5-tokens.js';

/** PostgreSQL keeps positions up to this (larger ones are clamped) and at most 256 per lexeme. */
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;
/** Longer lexemes are refused by tsvector input; to_tsvector skipped such words too. */
const MAX_LEXEME_BYTES = 2046;

/** A lexeme quoted for tsvector / tsquery input. */
export function quoteLexeme(lexeme: string): string {
  // FTS5's terms never hold a quote or a backslash (ASCII punctuation separates tokens); the check is a guard.
  if (lexeme.includes("'") || lexeme.includes('\\')) return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  return `'${lexeme}'`;
}

/**
 * A tsvector's length in tokens: its positions (every lexeme of a term has one at least; the half marker, none, though
 * ts_rank_cd's length normalisation would count it as one).
 */
export interface TsvectorLength {
  length: number;
  /** Its distinct lexemes, the half marker included, when asked for (the lexical statistics count the rows holding each). */
  lexemes?: Lexeme[];
}

/**
 * A key of the lexical statistics (pg-lexical-stats.ts): a lexeme, or the prefix key of a first character. Interned,
 * so that counting a row's keys hashes no string: `row` marks the row that last counted it (a key counts once a row).
 */
export interface StatKey {
  readonly key: string;
  row: number;
  /** The delta that last counted it (`LexicalDelta`'s id, 0 for none) and its place in that delta's counts. */
  delta: number;
  slot: number;
}

/** Prefix keys by first code point, interned ({@link Lexeme.prefix}). */
const PREFIX_KEYS = new Map<number, StatKey>();

/**
 * A lexeme of the write path, interned (one object per term while the table holds it): its UTF-8 bytes are encoded
 * and checked once, its prefix key found once, and while a document is built (`lexemePositions`) it holds that
 * document's positions, so that a document's lexemes need no map of their own.
 */
export class Lexeme implements StatKey {
  readonly key: string;
  row = 0;
  delta = 0;
  slot = 0;
  /** The document its positions belong to; those of an earlier document are stale. */
  doc = 0;
  /** Its positions in that document: a list in `AT` (first, last and how many). */
  first = 0;
  last = 0;
  count = 0;
  /**
   * Its first two UTF-16 code units (0 where it is shorter), the high part of its sort key (`inServerOrder`): strings
   * ordered by it are ordered as JS orders them, up to ties.
   */
  readonly head: number;
  #bytes: Uint8Array | undefined;
  #prefix: StatKey | undefined;
  constructor(term: string) {
    this.key = term;
    this.head = (term.length > 0 ? term.charCodeAt(0) * 65_536 : 0) + (term.length > 1 ? term.charCodeAt(1) : 0);
  }

  /** Its UTF-8 bytes for the binary format, refused when it holds NUL or a lone surrogate (see `tsvectorBinary`). */
  bytes(): Uint8Array {
    if (this.#bytes === undefined) {
      const term = this.key;
      if (term.includes('\0') || !(term as string & { isWellFormed(): boolean }).isWellFormed()) {
        throw new Error(`tsvectorBinary: lexeme ${JSON.stringify(term)} holds NUL or a lone surrogate`);
      }
      this.#bytes = Buffer.from(term, 'utf8');
    }
    return this.#bytes;
  }

  /** The statistics' key of its first character (a code point, as PostgreSQL's left(lexeme, 1) takes it). */
  prefix(): StatKey {
    if (this.#prefix === undefined) {
      const c = this.key.codePointAt(0)!;
      let k = PREFIX_KEYS.get(c);
      if (k === undefined) {
        if (PREFIX_KEYS.size >= 65_536) {
          PREFIX_KEYS.clear();
          epoch++;
        }
        k = { key: prefixKey(String.fromCodePoint(c)), row: 0, delta: 0, slot: 0 };
        PREFIX_KEYS.set(c, k);
      }
      this.#prefix = k;
    }
    return this.#prefix;
  }
}

/**
 * The lexeme that marks a row of the index's second half (no positions; `HALF`): a ranking over many candidates runs as
 * two statements at once, one ranking the rows holding `HALF_MARK` and one those without it (pg-search.ts), so that
 * each reads only its own rows. Rows are marked by runs of `HALF_RUN` written one after another (`halfOfNext`), so
 * that the two halves mostly lie in pages of their own. '!' separates tokens in FTS5's unicode61 (so no term is the
 * marker), and sorts before every character a term starts with, so the marker is a tsvector's first lexeme. The
 * lexical statistics count it like any lexeme (its rows: how many rows are marked).
 */
export const HALF_MARK = '!half';
/** Rows written one after another that share a half (about four pages of an episode's index table). */
export const HALF_RUN = 64;

/** What a prefix key ends with, in JS and in the SQL that counts a deleted row's prefixes (pg-lexical-stats.ts). */
export const PREFIX_MARK = '*';

/**
 * The statistics' key for the rows holding any lexeme that starts with the character `c`: the rows a prefix query
 * `c:*` matches, which is how a single Chinese character is searched (as FTS5's prefix query, sql-util.ts). Counted on
 * write like a lexeme, so that no search counts them in the index: at 1M rows a first count of '去':* read 30,000 rows
 * (116-308 ms), and each new process (a hook) counted again. An FTS5 term never holds '*', so no lexeme is a key.
 */
export function prefixKey(c: string): string {
  return `${c}${PREFIX_MARK}`;
}

/**
 * The positions of the document being built, as linked lists (one per lexeme, `Lexeme.first`): a position word
 * (`lexemePositions`) and the index of the lexeme's next one (-1 at the end). Reused for every document, grown as
 * needed: a document's positions allocate nothing.
 */
let AT = new Int32Array(1024);
let NEXT = new Int32Array(1024);

function grow(): void {
  const at = new Int32Array(AT.length * 2);
  const next = new Int32Array(NEXT.length * 2);
  at.set(AT);
  next.set(NEXT);
  AT = at;
  NEXT = next;
}

/** Interned lexemes (bounded: started over between documents when full). */
const LEXEMES = new Map<string, Lexeme>();
const LEXEME_MEMO = 50_000;
/** Times the interned keys were started over: a key counted before and after may be two objects. */
let epoch = 0;

/** How many times interned keys were started over (a counter of keys by object compares it, `LexicalDelta`). */
export function internEpoch(): number {
  return epoch;
}
/** Documents built so far (`Lexeme.doc`). */
let documents = 0;

/** The interned lexeme of `term`. */
function internedLexeme(term: string): Lexeme {
  let lx = LEXEMES.get(term);
  if (lx === undefined) {
    lx = new Lexeme(term);
    LEXEMES.set(term, lx);
  }
  return lx;
}

/** The marker of the second half (`HALF_MARK`): never a term, so never interned; it holds no position. */
const HALF = new Lexeme(HALF_MARK);
HALF.first = -1;

/** Rows built so far (`halfOfNext`). */
let built = 0;

/** Whether the next row built goes to the index's second half: runs of `HALF_RUN` rows alternate. */
export function halfOfNext(): boolean {
  return Math.floor(built++ / HALF_RUN) % 2 === 1;
}

/**
 * Each token's lexeme (its stem's, interned; null for a term too long to index): a token costs one lookup, where its
 * stem and then its lexeme cost two. This is the tokens' memo: a new token is stemmed without `porterStem`'s, which
 * would keep it a second time. Started over with the interned lexemes (`LEXEMES`).
 */
const TOKENS = new Map<string, Lexeme | null>();

function tokenLexeme(token: string): Lexeme | null {
  let lx = TOKENS.get(token);
  if (lx === undefined) {
    const term = porterStemUncached(token);
    lx = term.length * 3 > MAX_LEXEME_BYTES && Buffer.byteLength(term) > MAX_LEXEME_BYTES ? null : internedLexeme(term);
    TOKENS.set(token, lx);
  }
  return lx;
}

/**
 * A line's terms as interned lexemes (null for a term too long to index, which still takes its position), the last
 * few thousand lines remembered: a turn is indexed again as the context of the turns after it, and its lexemes are
 * then found without a lookup per term. Started over with the interned lexemes (`LEXEMES`), so that a document never
 * holds two objects for one term. The terms are FTS5's, as `fts5Terms` makes them: the `unicode61` tokens, each stemmed.
 */
const LINES = new Map<string, ReadonlyArray<Lexeme | null>>();

function lineLexemes(line: string): ReadonlyArray<Lexeme | null> {
  return remembered(LINES, 4096, line, (l) => {
    const tokens: Array<string | Lexeme | null> = unicode61(l);
    for (let i = 0; i < tokens.length; i++) tokens[i] = tokenLexeme(tokens[i] as string);
    return tokens as Array<Lexeme | null>;
  });
}

/** A document's lexemes with the second half's marker first (`HALF_MARK`), when `half`. */
function marked(lexemes: Lexeme[], half: boolean): Lexeme[] {
  if (half) lexemes.unshift(HALF);
  return lexemes;
}

function measure(lexemes: Lexeme[], out: TsvectorLength | undefined): void {
  if (out === undefined) return;
  let n = 0;
  for (const lx of lexemes) n += lx.count;
  out.length = n;
  if (out.lexemes !== undefined) out.lexemes = lexemes;
}

/**
 * The tsvector literal of weighted fields (positions as `lexemePositions` numbers them); `out.length` gets its
 * positions (`TsvectorLength`). `half`: the row is marked as the second half's (`HALF_MARK`).
 */
export function tsvectorLiteral(
  fields: ReadonlyArray<readonly [text: string, weight: 'A' | 'B' | 'C']>,
  out?: TsvectorLength,
  mark: { half?: boolean } = {},
): string {
  const lexemes = marked(lexemePositions(fields), mark.half === true);
  measure(lexemes, out);
  let text = '';
  for (const lx of lexemes) {
    text += `${text === '' ? '' : ' '}${quoteLexeme(lx.key)}`;
    if (lx.count === 0) continue;
    text += ':';
    for (let i = lx.first; i >= 0; i = NEXT[i]!) text += `${i === lx.first ? '' : ','}${AT[i]! >> 2}${fields[AT[i]! & 3]![1]}`;
  }
  return text;
}

/**
 * A document's distinct lexemes in first-seen order, each holding (until the next document) its positions in `AT`,
 * each with its field's index in the low two bits (one map lookup per token). Positions run on from field
 * to field with one left out between them, so a phrase never spans two fields (FTS5 numbers each column's tokens
 * apart).
 */
function lexemePositions(fields: ReadonlyArray<readonly [text: string, weight: 'A' | 'B' | 'C']>): Lexeme[] {
  if (fields.length > 4) throw new Error(`tsvector: at most 4 fields, got ${fields.length}`);
  if (LEXEMES.size >= LEXEME_MEMO || TOKENS.size >= 2 * LEXEME_MEMO) {
    LEXEMES.clear();
    TOKENS.clear();
    LINES.clear();
    epoch++;
  }
  const doc = ++documents;
  const lexemes: Lexeme[] = [];
  let used = 0;
  let position = 0;
  for (let f = 0; f < fields.length; f++) {
    // Line by line: a newline always separates tokens, and a context field repeats the lines of earlier turns,
    // whose lexemes lineLexemes remembers. Trimmed, so that a context line (" text ", joined by " \n ") is the very
    // text remembered from its own turn (the spaces around it hold no token).
    for (const line of fields[f]![0].split('\n')) {
      for (const lx of lineLexemes(line.trim())) {
        position++;
        if (lx === null) continue;
        const at = (position > MAX_POSITION ? MAX_POSITION : position) * 4 + f;
        if (lx.doc === doc) {
          // Clamped positions repeat MAX_POSITION: tsvector keeps each position once (its binary input refuses a repeat).
          if (lx.count >= MAX_POSITIONS || AT[lx.last]! >> 2 >= at >> 2) continue;
          if (used === AT.length) grow();
          NEXT[lx.last] = used;
          lx.count++;
        } else {
          if (used === AT.length) grow();
          lx.doc = doc;
          lx.first = used;
          lx.count = 1;
          lexemes.push(lx);
        }
        AT[used] = at;
        NEXT[used] = -1;
        lx.last = used++;
      }
    }
    position++;
  }
  return lexemes;
}

/** tsvector weights in the binary format (WordEntryPos's two high bits): A 3, B 2, C 1. */
const WEIGHT_BITS = { A: 3 << 14, B: 2 << 14, C: 1 << 14 } as const;
/** The tsvector type's OID (pg_type.dat), named in the binary array header. */
const TSVECTOR_OID = 3614;

/**
 * One document's tsvector in PostgreSQL's binary format (tsvector_send), with its 4-byte length in front as an array
 * element: the server reads it without parsing tsvector text, which was half of the tsvector input's cost (issue
 * 20). Lexemes go in the server's own order (see below), so that it sorts nothing. Equal to the text input of `tsvectorLiteral`
 * (pg-lexemes.test.ts). FTS5's tokenizer splits at NUL and lone surrogates, so a lexeme never holds one; a lexeme
 * that did would end early in the binary form, and is refused instead. Written byte by byte into one buffer, each
 * lexeme's bytes encoded once per process (`Lexeme.bytes`): this runs for every indexed row. `out.length` gets its
 * positions (`TsvectorLength`); `half` marks the row as the second half's (`HALF_MARK`).
 */
export function tsvectorBinary(
  fields: ReadonlyArray<readonly [text: string, weight: 'A' | 'B' | 'C']>,
  out?: TsvectorLength,
  mark: { half?: boolean } = {},
): Buffer {
  // In the server's order (its bytes, shorter first on a tie: for text without characters beyond U+FFFF, the order
  // of JS strings): tsvector_recv then has nothing to sort (it sorts only what arrives out of order, which a lexeme
  // beyond U+FFFF may still be). The sort was ~1 in 15 of the server's ingest CPU. The marker sorts first.
  const lexemes = marked(inServerOrder(lexemePositions(fields)), mark.half === true);
  measure(lexemes, out);
  const weights = fields.map(([, w]) => WEIGHT_BITS[w]);
  let size = 4;
  for (const lx of lexemes) size += lx.bytes().length + 1 + 2 + lx.count * 2;
  const b = Buffer.allocUnsafe(4 + size);
  b.writeInt32BE(size, 0);
  b.writeInt32BE(lexemes.length, 4);
  let o = 8;
  for (const lx of lexemes) {
    const bytes = lx.bytes();
    // Byte by byte: a lexeme is a few bytes, and set() costs more to call than to copy them.
    if (bytes.length > 32) {
      b.set(bytes, o);
      o += bytes.length;
    } else for (let i = 0; i < bytes.length; i++) b[o++] = bytes[i]!;
    b[o++] = 0;
    b[o++] = lx.count >> 8;
    b[o++] = lx.count & 0xff;
    for (let i = lx.first; i >= 0; i = NEXT[i]!) {
      const at = AT[i]!;
      const word = weights[at & 3]! | (at >> 2);
      b[o++] = word >> 8;
      b[o++] = word & 0xff;
    }
  }
  return b;
}

function byKey(a: Lexeme, b: Lexeme): number {
  return a.key < b.key ? -1 : 1;
}

/** Sort keys of a document's lexemes (`inServerOrder`), reused. */
let SORT_KEYS = new Float64Array(256);
/** Up to this many lexemes, a sort key holds the lexeme's index below its `head` (2^32 × 2^20 < 2^53). */
const INDEX_BITS = 2 ** 20;

/**
 * A document's lexemes in JS string order (`byKey`), sorted by number: each lexeme's `head` and its index as one
 * float, sorted natively, then only the runs sharing a head compared as strings. A comparator sort compared strings
 * throughout, and was the larger part of building a tsvector.
 */
function inServerOrder(lexemes: Lexeme[]): Lexeme[] {
  const n = lexemes.length;
  if (n < 2) return lexemes;
  if (n >= INDEX_BITS) return lexemes.sort(byKey);
  if (SORT_KEYS.length < n) SORT_KEYS = new Float64Array(2 ** Math.ceil(Math.log2(n)));
  const keys = SORT_KEYS.subarray(0, n);
  for (let i = 0; i < n; i++) keys[i] = lexemes[i]!.head * INDEX_BITS + i;
  keys.sort();
  const out = new Array<Lexeme>(n);
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    // The index: k's low part (floor and multiply are exact here, and far quicker than % on a float).
    out[i] = lexemes[k - Math.floor(k / INDEX_BITS) * INDEX_BITS]!;
  }
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && out[j]!.head === out[i]!.head) j++;
    if (j - i > 1) sortRun(out, i, j);
    i = j;
  }
  return out;
}

/** Sorts `a[from, to)` by `byKey`: by insertion, as runs sharing a head are mostly short; a long one by `sort`. */
function sortRun(a: Lexeme[], from: number, to: number): void {
  if (to - from > 16) {
    const run = a.slice(from, to).sort(byKey);
    for (let i = 0; i < run.length; i++) a[from + i] = run[i]!;
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const x = a[i]!;
    let j = i - 1;
    while (j >= from && byKey(a[j]!, x) > 0) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = x;
  }
}

/** A one-dimensional `tsvector[]` in the binary format (array_send) of elements made by `tsvectorBinary`. */
export function tsvectorArray(elements: readonly Buffer[]): Buffer {
  const head = Buffer.alloc(20);
  head.writeInt32BE(1, 0); // dimensions
  head.writeInt32BE(0, 4); // no nulls
  head.writeUInt32BE(TSVECTOR_OID, 8);
  head.writeInt32BE(elements.length, 12);
  head.writeInt32BE(1, 16); // lower bound
  return Buffer.concat([head, ...elements]);
}

/**
 * A query term as tsquery text: its terms as a phrase (as FTS5 reads a quoted string), or, for a single Chinese
 * character, every lexeme it starts (FTS5's prefix query). Undefined when the term holds no token at all.
 */
export function tsqueryLiteral(term: string, prefix: boolean): string | undefined {
  const terms = fts5Terms(term);
  if (terms.length === 0) return undefined;
  return prefix ? `${quoteLexeme(terms[0]!)}:*` : terms.map(quoteLexeme).join(' <-> ');
}
