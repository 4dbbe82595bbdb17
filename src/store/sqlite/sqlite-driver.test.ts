/** The SQLite driver binds storable text only: a lone surrogate or NUL is stored as one U+FFFD, as on Postgres. */
import { describe, expect, it } from 'vitest';
import { SqliteDriver } from './sqlite-driver.js';

describe('SqliteDriver text binding', () => {
  it('stores a lone surrogate as one U+FFFD (valid UTF-8) and finds it again by the same string', async () => {
    const d = new SqliteDriver(':memory:');
    try {
      await d.run('CREATE TABLE t (x TEXT)');
      // Found by fuzz-mcp: remember({ text: '\ud800' }) read back as three U+FFFD from the bytes ED A0 80.
      for (const s of ['\ud800', 'a\udfffb', '\udc00\ud800', 'x\udbff']) await d.run('INSERT INTO t (x) VALUES (?)', [s]);
      await d.run('INSERT INTO t (x) VALUES (?)', ['😀 pair kept']);
      const rows = await d.all<{ x: string; h: string }>('SELECT x, hex(x) AS h FROM t');
      expect(rows.map((r) => r.x)).toEqual(['\ufffd', 'a\ufffdb', '\ufffd\ufffd', 'x\ufffd', '😀 pair kept']);
      expect(rows[0]!.h).toBe('EFBFBD');
      expect(await d.get('SELECT x FROM t WHERE x = ?', ['a\udfffb'])).toEqual({ x: 'a\ufffdb' });
    } finally {
      await d.close();
    }
  });

  it('searches FTS5 with a NUL in the query instead of failing with "unterminated string"', async () => {
    const d = new SqliteDriver(':memory:');
    try {
      // Found by fuzz-mcp: context_search({ query: 'a\u0000b' }) answered Error (internal): unterminated string.
      await d.run('CREATE VIRTUAL TABLE f USING fts5(body)');
      await d.run('INSERT INTO f (rowid, body) VALUES (1, ?)', ['a\u0000b c']);
      expect(await d.all('SELECT rowid AS id FROM f WHERE f MATCH ?', ['"a\u0000b"'])).toEqual([{ id: 1 }]);
      expect(await d.get('SELECT body FROM f WHERE rowid = 1')).toEqual({ body: 'a\ufffdb c' });
    } finally {
      await d.close();
    }
  });
});
