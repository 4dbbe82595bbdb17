/** `journal lint`: reads the workspace and runs the pure lint rules over it (SEEDS §2.7). */
import type { z } from 'zod';
import { parseInput } from '../core/schemas.js';
import { findDuplicateDays } from './day-mover.js';
import { loadUsage, openWorkspace, type JournalContext } from './journal-context.js';
import { expectedIndexes, readDayTexts } from './journal-indexing.js';
import { JournalRootInput } from './journal-inputs.js';
import { lintJournal, type LintFile, type LintIssue, type LintKind } from './lint-rules.js';

/** Lint findings with counts per kind; `ok` when nothing is a warning or an error. */
export interface JournalLintReport {
  root: string;
  ok: boolean;
  counts: Partial<Record<LintKind, number>>;
  issues: LintIssue[];
}

/** Lints the workspace's memory folder. Reads only; the first-use bootstrap may still lay out the skeleton. */
export async function lintWorkspace(
  ctx: JournalContext,
  raw: z.input<typeof JournalRootInput>,
): Promise<JournalLintReport> {
  const input = parseInput(JournalRootInput, raw);
  const ws = await openWorkspace(ctx, input.root, { bootstrap: true });
  const { dir } = ws;
  const days = await readDayTexts(dir);
  const { book, corrupt } = await loadUsage(dir);
  const files: LintFile[] = [];
  for (const [file, role] of [
    ['MEMORY.md', 'memory'],
    ['TODO.md', 'todo'],
    ['archive/hot/INDEX.md', 'index'],
    ['archive/cold/INDEX.md', 'index'],
  ] as const) {
    const text = await dir.readText(file);
    if (text !== undefined) files.push({ file, role, text });
  }
  const entries = await dir.listDays();
  for (const e of entries) {
    const text = await dir.readText(e.file);
    if (text !== undefined) files.push({ file: e.file, role: 'day', text });
  }
  const expected = expectedIndexes(days, book);
  const datesOf = (tier: 'hot' | 'cold') => days.filter((d) => d.location === tier).map((d) => d.date);
  const issues = lintJournal({
    files,
    indexes: {
      hot: {
        expected: expected.hot,
        actual: await dir.readText('archive/hot/INDEX.md'),
        dates: datesOf('hot'),
      },
      cold: {
        expected: expected.cold,
        actual: await dir.readText('archive/cold/INDEX.md'),
        dates: datesOf('cold'),
      },
    },
    paths: await dir.walk(),
    duplicateDays: await findDuplicateDays(dir, entries),
    legacyDates: entries.filter((e) => e.location === 'legacy').map((e) => e.date),
    sectionWarn: ws.config.sectionWarn,
    configWarnings: ws.configWarnings,
    usageCorrupt: corrupt,
  });
  const counts: Partial<Record<LintKind, number>> = {};
  for (const i of issues) counts[i.kind] = (counts[i.kind] ?? 0) + 1;
  return { root: dir.root, ok: issues.every((i) => i.severity === 'info'), counts, issues };
}
