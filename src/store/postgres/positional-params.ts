/** Rewrites the portable `?` placeholders as PostgreSQL's `$1, $2, …`, leaving quoted text and comments alone. */
import { storableParams, type SqlValue } from '../sql-driver.js';

const cache = new Map<string, string>();
/**
 * Longer statements are rewritten each time, not remembered: they are the rankings of long prompts, a text of their own
 * per query (~35 kB for a 200-word Chinese prompt), which 2,000 entries would have held at ~140 MB. A rewrite is one
 * pass over the text.
 */
const CACHED_UP_TO = 4096;

/**
 * `?` → `$n` in order of appearance. A `?` inside '…' strings, "…" identifiers, $tag$…$tag$ bodies and
 * comments is kept as written, so user-visible text in a statement never shifts the numbering.
 */
export function toPositional(sql: string): string {
  const hit = cache.get(sql);
  if (hit !== undefined) return hit;
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const end = skipQuoted(sql, i);
    if (end > i) {
      out += sql.slice(i, end);
      i = end;
    } else if (c === '?') {
      out += `$${++n}`;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  // Statements come from a few fixed templates (IN lists vary in length), so the cache stays small; cap it anyway.
  if (sql.length > CACHED_UP_TO) return out;
  if (cache.size > 2000) cache.clear();
  cache.set(sql, out);
  return out;
}

/** Statements remembered by `toPositional` and their characters (keys and rewrites): its memory, for tests. */
export function positionalCache(): { entries: number; chars: number } {
  let chars = 0;
  for (const [k, v] of cache) chars += k.length + v.length;
  return { entries: cache.size, chars };
}

/** The index just past a quoted or commented span starting at `i`, or `i` when none starts there. */
function skipQuoted(sql: string, i: number): number {
  const c = sql[i];
  if (c === "'" || c === '"') {
    let j = i + 1;
    for (;;) {
      const k = sql.indexOf(c, j);
      if (k < 0) return sql.length;
      if (sql[k + 1] === c) j = k + 2; // doubled quote is an escaped quote
      else return k + 1;
    }
  }
  if (c === '-' && sql[i + 1] === '-') {
    const k = sql.indexOf('\n', i);
    return k < 0 ? sql.length : k + 1;
  }
  if (c === '/' && sql[i + 1] === '*') {
    const k = sql.indexOf('*/', i + 2);
    return k < 0 ? sql.length : k + 2;
  }
  if (c === '$') {
    const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
    if (m && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? '')) {
      const k = sql.indexOf(m[0], i + m[0].length);
      return k < 0 ? sql.length : k + m[0].length;
    }
  }
  return i;
}

/** Parameters as both PostgreSQL drivers take them: bigint as text (exact), text storable (no NUL), the rest unchanged. */
export function pgParams(params: readonly SqlValue[]): unknown[] {
  return storableParams(params).map((p) => (typeof p === 'bigint' ? p.toString() : p));
}
