/** `journal add`: appends a timed section `## 【14:30 what was done】` to a day; credentials are refused (SEEDS §2.3). */
import type { z } from 'zod';
import { TidepoolError } from '../core/errors.js';
import { parseInput } from '../core/schemas.js';
import {
  appendSection,
  formatSectionHeading,
  hasTopLevelHeading,
  parseDayFile,
  parseHeadingTime,
} from './day-file.js';
import { journalToday, loadUsage, openWorkspace, type JournalContext } from './journal-context.js';
import { timeInZone } from './journal-date.js';
import { refreshIndexes } from './journal-indexing.js';
import { JournalAddInput } from './journal-inputs.js';
import { dayFilePath } from './memory-dir.js';
import type { DayLocation } from './tide-policy.js';

/** The section was appended, or the same heading with the same content was already there (a retried call). */
export type JournalAddResult =
  | {
      kind: 'added';
      date: string;
      location: DayLocation;
      file: string;
      heading: string;
      line: number;
      createdFile: boolean;
    }
  | { kind: 'duplicate'; date: string; location: DayLocation; file: string; heading: string; line: number };

/** Appends a section; the day file is created in hot when the day has none yet. */
export async function addSection(
  ctx: JournalContext,
  raw: z.input<typeof JournalAddInput>,
): Promise<JournalAddResult> {
  const input = parseInput(JournalAddInput, raw);
  if (/[\r\n]/.test(input.heading))
    throw new TidepoolError('invalid_input', 'heading: must be one line', { field: 'heading' });
  if (hasTopLevelHeading(input.content)) {
    throw new TidepoolError(
      'invalid_input',
      'content: use ### or deeper headings inside a section; # and ## would split the day file',
      { field: 'content' },
    );
  }
  const found = ctx.detectSecrets(`${input.heading}\n${input.content}`);
  if (found.length > 0) {
    const kinds = [...new Set(found.map((f) => f.kind))];
    throw new TidepoolError(
      'secret_refused',
      `the section looks like it holds a credential (${kinds.join(', ')}); memory never stores credentials: remove it and add again`,
      {
        field: 'content',
        details: { kinds },
      },
    );
  }
  const now = ctx.clock.now();
  const date = input.date ?? journalToday(ctx, now);
  const stripped = input.heading.replace(/^#+\s*/, '');
  const parsed = parseHeadingTime(stripped);
  const headingLine =
    parsed.time !== undefined
      ? `## ${stripped}`
      : formatSectionHeading(input.time ?? timeInZone(now, ctx.timeZone), stripped);
  const ws = await openWorkspace(ctx, input.root, { bootstrap: true });

  return ctx.locks.run(ws.dir.path, async () => {
    let location: DayLocation = 'hot';
    let existing: string | undefined;
    for (const l of ['hot', 'cold', 'legacy'] as const) {
      existing = await ws.dir.readText(dayFilePath(l, date));
      if (existing !== undefined) {
        location = l;
        break;
      }
    }
    const file = dayFilePath(location, date);
    const heading = headingLine.slice(3);
    const body = input.content.replace(/\r\n/g, '\n').trim();
    const same =
      existing === undefined
        ? undefined
        : parseDayFile(existing).sections.find((s) => s.heading === heading && s.body === body);
    if (same) return { kind: 'duplicate', date, location, file, heading, line: same.line };
    const next = appendSection(existing, date, headingLine, body);
    await ws.dir.writeAtomic(file, next.text);
    await refreshIndexes(ctx, ws, (await loadUsage(ws.dir)).book);
    return {
      kind: 'added',
      date,
      location,
      file,
      heading,
      line: next.line,
      createdFile: existing === undefined,
    };
  });
}
