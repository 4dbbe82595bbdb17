/** Text every engine can store: lone surrogates and NUL are bound as U+FFFD by both adapters. */
import { describe, expect, it } from 'vitest';
import { pgParams } from './postgres/positional-params.js';
import { storableParams } from './sql-driver.js';

describe('storableParams', () => {
  it('replaces NUL and lone surrogates in strings, keeps pairs, other types and the array when nothing changes', () => {
    const bytes = new Uint8Array([0, 0xd8]);
    const clean: readonly (string | number | null | Uint8Array)[] = ['plain', '😀', 1, null, bytes];
    expect(storableParams(clean)).toBe(clean);
    expect(storableParams(['a\u0000b', '\ud800', 'x\udfffy', '\udc00\ud800', '😀\u0000', 7, bytes])).toEqual([
      'a\ufffdb', '\ufffd', 'x\ufffdy', '\ufffd\ufffd', '😀\ufffd', 7, bytes,
    ]);
  });

  it('is applied to the parameters of both PostgreSQL drivers', () => {
    // Found by fuzz-mcp: PGlite refused "a\0b" with `invalid byte sequence for encoding "UTF8": 0x00`.
    expect(pgParams(['a\u0000b', 'x\ud800', 1n])).toEqual(['a\ufffdb', 'x\ufffd', '1']);
  });
});
