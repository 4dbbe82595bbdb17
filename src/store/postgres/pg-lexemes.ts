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

/**
 * The tsvector literal of weighted fields. Positions run on from field to field with one left out between them, so
 * a phrase never spans two fields (FTS5 numbers each column's tokens apart).
 */
export function tsvectorLiteral(fields: ReadonlyArray<readonly [text: string, weight: 'A' | 'B' | 'C']>): string {
  // Per lexeme, in first-seen order: its positions, each with its field's index in the low two bits (one map
  // lookup per token; the text is written once at the end).
  if (fields.length > 4) throw new Error(`tsvectorLiteral: at most 4 fields, got ${fields.length}`);
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
        else if (seen.length < MAX_POSITIONS) seen.push(at);
      }
    }
    position++;
  }
  let out = '';
  for (const [term, ats] of lexemes) {
    out += `${out === '' ? '' : ' '}${quoteLexeme(term)}:`;
    for (let i = 0; i < ats.length; i++) out += `${i === 0 ? '' : ','}${ats[i]! >> 2}${fields[ats[i]! & 3]![1]}`;
  }
  return out;
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
