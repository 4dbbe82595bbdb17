// `?` → `$n` rewriting: placeholders renumbered in order, quoted text, identifiers and comments left alone.
import { describe, expect, it } from 'vitest';
import { pgParams, positionalCache, toPositional } from './positional-params.js';

describe('toPositional', () => {
  it.each([
    ['SELECT * FROM t WHERE a = ? AND b IN (?, ?)', 'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)'],
    ["SELECT '?' AS q, ? AS p", "SELECT '?' AS q, $1 AS p"],
    ["SELECT 'it''s ?' , ?", "SELECT 'it''s ?' , $1"],
    ['SELECT "odd?col" FROM t WHERE x = ?', 'SELECT "odd?col" FROM t WHERE x = $1'],
    ['SELECT 1 -- why?\nWHERE a = ?', 'SELECT 1 -- why?\nWHERE a = $1'],
    ['SELECT /* ? */ ?', 'SELECT /* ? */ $1'],
    ['SELECT $f$ body ? $f$, ?', 'SELECT $f$ body ? $f$, $1'],
    ['SELECT $$ ? $$, ?', 'SELECT $$ ? $$, $1'],
    ["x ILIKE ? ESCAPE '\\' AND y = ?", "x ILIKE $1 ESCAPE '\\' AND y = $2"],
  ])('rewrites %j', (input, expected) => {
    expect(toPositional(input)).toBe(expected);
  });

  it("rewrites long one-off statements (a long prompt's ranking) without keeping them", () => {
    const before = positionalCache();
    for (let q = 0; q < 50; q++) {
      const sql = `SELECT ${Array.from({ length: 400 }, (_, i) => `${q}.${i} * ? AS f${i}`).join(', ')}`;
      const out = toPositional(sql);
      expect(out.startsWith(`SELECT ${q}.0 * $1 AS f0, ${q}.1 * $2 AS f1`)).toBe(true);
      expect(out.endsWith(`$400 AS f399`)).toBe(true);
    }
    const after = positionalCache();
    expect(after.chars - before.chars).toBeLessThan(100_000);
    // A short template is still remembered (unless that insert found the cache full and started it over).
    toPositional('SELECT ? AS remembered_template');
    expect([after.entries + 1, 1]).toContain(positionalCache().entries);
  });

  it('passes bigint parameters as exact text and keeps the rest', () => {
    const bytes = new Uint8Array([1, 2]);
    expect(pgParams([1n << 60n, 1.5, 'x', null, bytes])).toEqual(['1152921504606846976', 1.5, 'x', null, bytes]);
  });
});
