/** `journal read`: one whole day file (default today), from whichever tier holds it; a read counts a lookup. */
import type { z } from 'zod';
import { parseInput } from '../core/schemas.js';
import { parseDayFile } from './day-file.js';
import { countLookups, journalToday, openWorkspace, type JournalContext } from './journal-context.js';
import { JournalReadInput } from './journal-inputs.js';
import { dayFilePath } from './memory-dir.js';
import type { DayLocation } from './tide-policy.js';
import { dayKey } from './usage-book.js';

/** A day that exists, or the date that does not. */
export type JournalReadResult =
  | {
      kind: 'found';
      date: string;
      location: DayLocation;
      file: string;
      content: string;
      sections: { line: number; heading: string }[];
      /** True when this read was the file's first lookup today. */
      counted: boolean;
    }
  | { kind: 'missing'; date: string };

/** Reads a day: hot first, then cold, then a legacy file. */
export async function readDay(
  ctx: JournalContext,
  raw: z.input<typeof JournalReadInput>,
): Promise<JournalReadResult> {
  const input = parseInput(JournalReadInput, raw);
  const today = journalToday(ctx);
  const date = input.date ?? today;
  const ws = await openWorkspace(ctx, input.root, { bootstrap: true });
  for (const location of ['hot', 'cold', 'legacy'] as const) {
    const file = dayFilePath(location, date);
    const content = await ws.dir.readText(file);
    if (content === undefined) continue;
    const counted = (await countLookups(ctx, ws, [dayKey(date)], today)).length > 0;
    const sections = parseDayFile(content).sections.map((s) => ({ line: s.line, heading: s.heading }));
    return { kind: 'found', date, location, file, content, sections, counted };
  }
  return { kind: 'missing', date };
}
