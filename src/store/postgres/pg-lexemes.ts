/**
 * tsvector and tsquery text built from FTS5's terms (`fts5-tokens.ts`): PostgreSQL stores and matches the terms
 * SQLite indexes, and spends no time in its own parser and stemmer on ingest (to_tsvector was most of a batch's
 * index write, issue 20).
 */
import { fts5Terms } from '../sql/fts5-tokens.js';

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

/** A tsvector's length as ts_rank_cd's length normalisation counts it: its positions, one per lexeme at least. */
export interface TsvectorLength {
  length: number;
  /** Its distinct lexemes, when asked for (the lexical statistics count the rows holding each). */
  lexemes?: string[];
}

function positionsOf(lexemes: Map<string, number[]>): number {
  let n = 0;
  for (const ats of lexemes.values()) n += Math.max(1, ats.length);
  return n;
}

function measure(lexemes: Map<string, number[]>, out: TsvectorLength | undefined): void {
  if (out === undefined) return;
  out.length = positionsOf(lexemes);
  if (out.lexemes !== undefined) out.lexemes = [...lexemes.keys()];
}

/**
 * The tsvector literal of weighted fields (positions as `lexemePositions` numbers them); `out.length` gets its
 * positions (`TsvectorLength`).
 */
export function tsvectorLiteral(fields: ReadonlyArray<readonly [text: string, weight: 'A' | 'B' | 'C']>, out?: TsvectorLength): string {
  const lexemes = lexemePositions(fields);
  measure(lexemes, out);
  let text = '';
  for (const [term, ats] of lexemes) {
    text += `${text === '' ? '' : ' '}${quoteLexeme(term)}:`;
    for (let i = 0; i < ats.length; i++) text += `${i === 0 ? '' : ','}${ats[i]! >> 2}${fields[ats[i]! & 3]![1]}`;
  }
  return text;
}

/**
 * Per lexeme, in first-seen order: its positions, each with its field's index in the low two bits (one map lookup
 * per token). Positions run on from field to field with one left out between them, so a phrase never spans two
 * fields (FTS5 numbers each column's tokens apart).
 */
function lexemePositions(fields: ReadonlyArray<readonly [text: string, weight: 'A' | 'B' | 'C']>): Map<string, number[]> {
  if (fields.length > 4) throw new Error(`tsvector: at most 4 fields, got ${fields.length}`);
  const lexemes = new Map<string, number[]>();
  let position = 0;
  for (let f = 0; f < fields.length; f++) {
    // Line by line: a newline always separates tokens, and a context field repeats the lines of earlier turns,
    // whose terms fts5Terms remembers. Trimmed, so that a context line (" text ", joined by " \n ") is the very
    // text remembered from its own turn (the spaces around it hold no token).
    for (const line of fields[f]![0].split('\n')) {
      for (const term of fts5Terms(line.trim())) {
        position++;
        if (term.length * 3 > MAX_LEXEME_BYTES && Buffer.byteLength(term) > MAX_LEXEME_BYTES) continue;
        const at = (position > MAX_POSITION ? MAX_POSITION : position) * 4 + f;
        const seen = lexemes.get(term);
        if (seen === undefined) lexemes.set(term, [at]);
        // Clamped positions repeat MAX_POSITION: tsvector keeps each position once (its binary input refuses a repeat).
        else if (seen.length < MAX_POSITIONS && seen[seen.length - 1]! >> 2 < at >> 2) seen.push(at);
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

/** Lexemes' UTF-8 bytes, checked once: the same words recur in every batch (bounded, started over when full). */
const lexemeBytes = new Map<string, Uint8Array>();
const LEXEME_BYTES_MEMO = 50_000;

function encodeLexeme(term: string): Uint8Array {
  let bytes = lexemeBytes.get(term);
  if (bytes === undefined) {
    if (term.includes('\0') || !(term as string & { isWellFormed(): boolean }).isWellFormed()) {
      throw new Error(`tsvectorBinary: lexeme ${JSON.stringify(term)} holds NUL or a lone surrogate`);
    }
    bytes = Buffer.from(term, 'utf8');
    if (lexemeBytes.size >= LEXEME_BYTES_MEMO) lexemeBytes.clear();
    lexemeBytes.set(term, bytes);
  }
  return bytes;
}

/**
 * One document's tsvector in PostgreSQL's binary format (tsvector_send), with its 4-byte length in front as an array
 * element: the server reads it without parsing tsvector text, which was half of the tsvector input's cost (issue
 * 20). Lexemes go in first-seen order (the server sorts them). Equal to the text input of `tsvectorLiteral`
 * (pg-lexemes.test.ts). FTS5's tokenizer splits at NUL and lone surrogates, so a lexeme never holds one; a lexeme
 * that did would end early in the binary form, and is refused instead. Written byte by byte into one buffer, each
 * lexeme's bytes encoded once per process (`encodeLexeme`): this runs for every indexed row. `out.length` gets its
 * positions (`TsvectorLength`).
 */
export function tsvectorBinary(fields: ReadonlyArray<readonly [text: string, weight: 'A' | 'B' | 'C']>, out?: TsvectorLength): Buffer {
  const lexemes = lexemePositions(fields);
  measure(lexemes, out);
  const weights = fields.map(([, w]) => WEIGHT_BITS[w]);
  let size = 4;
  const encoded: Uint8Array[] = [];
  for (const [term, ats] of lexemes) {
    const bytes = encodeLexeme(term);
    encoded.push(bytes);
    size += bytes.length + 1 + 2 + ats.length * 2;
  }
  const b = Buffer.allocUnsafe(4 + size);
  b.writeInt32BE(size, 0);
  b.writeInt32BE(encoded.length, 4);
  let o = 8;
  let i = 0;
  for (const ats of lexemes.values()) {
    const bytes = encoded[i++]!;
    b.set(bytes, o);
    o += bytes.length;
    b[o++] = 0;
    b[o++] = ats.length >> 8;
    b[o++] = ats.length & 0xff;
    for (const at of ats) {
      const word = weights[at & 3]! | (at >> 2);
      b[o++] = word >> 8;
      b[o++] = word & 0xff;
    }
  }
  return b;
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
