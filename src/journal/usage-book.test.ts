import { describe, expect, it } from 'vitest';
import { emptyUsageBook, parseUsageBook, recordLookups, renderUsageBook } from './usage-book.js';

describe('usage book', () => {
  it('counts a file once per day however many lookups the day has', () => {
    let book = emptyUsageBook();
    for (let i = 0; i < 5; i++) book = recordLookups(book, ['2026-10-01.md'], '2026-11-01').book;
    expect(book.files['2026-10-01.md']).toEqual({
      hits: 1,
      since: '2026-11-01',
      total: 1,
      lastHit: '2026-11-01',
    });
    const next = recordLookups(book, ['2026-10-01.md', '2026-10-01.md', 'MEMORY.md'], '2026-11-02');
    expect(next.counted).toEqual(['2026-10-01.md', 'MEMORY.md']);
    expect(next.book.files['2026-10-01.md']).toMatchObject({ hits: 2, total: 2, lastHit: '2026-11-02' });
  });

  it('does not mutate the book it is given', () => {
    const book = emptyUsageBook();
    recordLookups(book, ['a.md'], '2026-11-01');
    expect(book.files).toEqual({});
  });

  it('round-trips through its JSON text and flags a corrupt file', () => {
    const book = recordLookups(emptyUsageBook(), ['b.md', 'a.md'], '2026-11-01').book;
    const text = renderUsageBook(book);
    expect(Object.keys(JSON.parse(text).files)).toEqual(['a.md', 'b.md']);
    expect(parseUsageBook(text)).toEqual({ book, corrupt: false });
    expect(parseUsageBook('{"version":1,"files":{"x":{"hits":-1}}}').corrupt).toBe(true);
    expect(parseUsageBook('nope').corrupt).toBe(true);
    expect(parseUsageBook(undefined)).toEqual({ book: emptyUsageBook(), corrupt: false });
  });
});
