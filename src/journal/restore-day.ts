/** `journal restore-day`: brings a day that left for the archive database back into the hot tier, pinned. */
import type { z } from 'zod';
import { parseInput } from '../core/schemas.js';
import { journalToday, loadUsage, openWorkspace, saveUsage, type JournalContext } from './journal-context.js';
import { refreshIndexes } from './journal-indexing.js';
import { JournalRestoreInput } from './journal-inputs.js';
import { dayFilePath } from './memory-dir.js';
import type { DayLocation } from './tide-policy.js';
import { dayKey, recordLookups } from './usage-book.js';

/** Restored, already in the folder, or not in the archive. */
export type JournalRestoreResult =
  | { kind: 'restored'; date: string; file: string; bytes: number }
  | { kind: 'exists'; date: string; location: DayLocation; file: string }
  | { kind: 'not_found'; date: string };

/**
 * Restores an archived day into `archive/hot/`, pinned today with today's lookup counted: someone wanted it back, so
 * it gets a full pinMaxDays before it may sink again (otherwise, being old, it would be archived on the next tend).
 */
export async function restoreDay(
  ctx: JournalContext,
  raw: z.input<typeof JournalRestoreInput>,
): Promise<JournalRestoreResult> {
  const { root, date } = parseInput(JournalRestoreInput, raw);
  const ws = await openWorkspace(ctx, root, { bootstrap: true });
  const today = journalToday(ctx);
  return ctx.locks.run(ws.dir.path, async () => {
    for (const location of ['hot', 'cold', 'legacy'] as const) {
      const file = dayFilePath(location, date);
      if ((await ws.dir.readBytes(file)) !== undefined) return { kind: 'exists', date, location, file };
    }
    const content = await ctx.host.restoreDay(ws.dir.root, date);
    if (content === undefined) return { kind: 'not_found', date };
    const file = dayFilePath('hot', date);
    await ws.dir.writeAtomic(file, content);
    const { book, corrupt } = await loadUsage(ws.dir);
    const next = recordLookups(book, [dayKey(date)], today).book;
    next.files[dayKey(date)] = { ...next.files[dayKey(date)]!, hits: 0, since: today, pinned: today };
    await saveUsage(ws.dir, next, corrupt);
    await refreshIndexes(ctx, ws, next);
    return { kind: 'restored', date, file, bytes: Buffer.byteLength(content) };
  });
}
