/** `memory/.usage.json`: lookup days per file, counted once per day, plus pins (SEEDS §2.6 "被查按天算"). */
import { z } from 'zod';

/** Usage of one file, keyed in the book by file name (`2026-10-29.md`, `MEMORY.md`), so it survives tier moves. */
export interface UsageEntry {
  /** Days with at least one lookup since `since` (the tide rules compare this with promoteHits/coldPromoteHits). */
  hits: number;
  /** First day the current count covers: the first lookup, or the day the count was last reset. */
  since: string;
  /** Days with a lookup over the file's whole life; never reset. */
  total: number;
  /** Last day with a lookup. */
  lastHit?: string;
  /** Day the file was pinned to the hot tier; absent when not pinned. */
  pinned?: string;
}

/** The whole `.usage.json`. */
export interface UsageBook {
  version: 1;
  files: Record<string, UsageEntry>;
}

const DateStr = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const EntrySchema = z.object({
  hits: z.int().min(0),
  since: DateStr,
  total: z.int().min(0),
  lastHit: DateStr.optional(),
  pinned: DateStr.optional(),
});
const BookSchema = z.object({ version: z.literal(1), files: z.record(z.string(), EntrySchema) });

/** An empty book. */
export function emptyUsageBook(): UsageBook {
  return { version: 1, files: {} };
}

/** Parses `.usage.json`; `corrupt` is true when the text exists but is not a valid book (the caller keeps a copy). */
export function parseUsageBook(text: string | undefined): { book: UsageBook; corrupt: boolean } {
  if (text === undefined) return { book: emptyUsageBook(), corrupt: false };
  try {
    const r = BookSchema.safeParse(JSON.parse(text));
    if (r.success) return { book: r.data as UsageBook, corrupt: false };
  } catch {
    // fall through: invalid JSON is the same case as an invalid shape
  }
  return { book: emptyUsageBook(), corrupt: true };
}

/** Renders the book with files in name order, so the file diffs cleanly. */
export function renderUsageBook(book: UsageBook): string {
  const files: Record<string, UsageEntry> = {};
  for (const name of Object.keys(book.files).sort()) files[name] = book.files[name]!;
  return `${JSON.stringify({ version: 1, files }, null, 2)}\n`;
}

/**
 * Counts one lookup today for each named file: a file already looked up today is not counted again
 * (SEEDS §2.6: five searches in a day count once). Returns a new book and the names counted now.
 */
export function recordLookups(
  book: UsageBook,
  names: readonly string[],
  today: string,
): { book: UsageBook; counted: string[] } {
  const files = { ...book.files };
  const counted: string[] = [];
  for (const name of new Set(names)) {
    const prev = files[name];
    if (prev?.lastHit === today) continue;
    const lastHit = prev?.lastHit !== undefined && prev.lastHit > today ? prev.lastHit : today;
    files[name] = prev
      ? { ...prev, hits: prev.hits + 1, total: prev.total + 1, lastHit }
      : { hits: 1, since: today, total: 1, lastHit: today };
    counted.push(name);
  }
  return { book: { version: 1, files }, counted };
}

/** The usage key of a day file. */
export function dayKey(date: string): string {
  return `${date}.md`;
}
