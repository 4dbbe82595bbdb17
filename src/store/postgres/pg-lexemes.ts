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
  // Per lexeme, in first-seen order: its positions as tsvector text ("1A,5C") and how many (one map entry, one
  // lookup per token; the text grows in place rather than through a second map).
  const lexemes = new Map<string, { at: string; n: number }>();
  let position = 0;
  for (const [text, weight] of fields) {
    // Line by line: a newline always separates tokens, and a context field repeats the lines of earlier turns,
    // whose terms fts5Terms remembers.
    for (const line of text.split('\n')) {
      for (const term of fts5Terms(line)) {
        position++;
        if (term.length * 3 > MAX_LEXEME_BYTES && Buffer.byteLength(term) > MAX_LEXEME_BYTES) continue;
        const seen = lexemes.get(term);
        if (seen === undefined) lexemes.set(term, { at: (position > MAX_POSITION ? MAX_POSITION : position) + weight, n: 1 });
        else if (seen.n < MAX_POSITIONS) {
          seen.at += `,${position > MAX_POSITION ? MAX_POSITION : position}${weight}`;
          seen.n++;
        }
      }
    }
    position++;
  }
  const parts: string[] = [];
  for (const [term, { at }] of lexemes) parts.push(`${quoteLexeme(term)}:${at}`);
  return parts.join(' ');
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
