/** The tend: repair, migrate, plan the tide, write usage, move, archive the cold overflow, re-index (SEEDS §2.6). */
import { findDuplicateDays, keptLocation, moveDay, repairDuplicates, type MoveOutcome } from './day-mover.js';
import type { AgentsHintKind } from './agents-hint.js';
import {
  journalToday,
  loadUsage,
  openWorkspace,
  saveUsage,
  syncHint,
  type JournalContext,
  type Workspace,
} from './journal-context.js';
import { refreshIndexes, type IndexRefresh } from './journal-indexing.js';
import { dayFilePath } from './memory-dir.js';
import { planTide, type DayFile, type DayLocation, type TideMove, type TidePlan } from './tide-policy.js';
import { renderUsageBook } from './usage-book.js';

/** What a tend did, or with `dryRun` would do. JSON-able. */
export interface TendReport {
  root: string;
  today: string;
  dryRun: boolean;
  /** Legacy `memory/YYYY-MM-DD.md` files moved into the tiers. */
  migrated: string[];
  moves: (TideMove & { outcome?: MoveOutcome })[];
  pinned: TidePlan['pinned'];
  unpinned: TidePlan['unpinned'];
  /** Cold overflow handed to the archive database and removed from the folder. */
  archived: TidePlan['archived'];
  /** Identical copies of one day left by an interrupted move, reduced to one. */
  repaired: { date: string; kept: DayLocation; removed: DayLocation[] }[];
  /** Days with two different copies: left alone for a human. */
  conflicts: { date: string; locations: DayLocation[] }[];
  /** Day files per place after the tend. */
  tiers: Record<DayLocation, number>;
  indexes?: IndexRefresh;
  hint?: AgentsHintKind;
  /** Files the first-use bootstrap created. */
  created: string[];
  warnings: string[];
}

/** Runs one tend of the workspace at `root`; `now` overrides the clock (the scheduler passes its tick time). */
export async function tendWorkspace(
  ctx: JournalContext,
  input: { root: string; dryRun: boolean },
  now?: number,
): Promise<TendReport> {
  const today = journalToday(ctx, now);
  const ws = await openWorkspace(ctx, input.root, { bootstrap: !input.dryRun });
  if (input.dryRun) return runTend(ctx, ws, today, true);
  return ctx.locks.run(ws.dir.path, () => runTend(ctx, ws, today, false));
}

async function runTend(
  ctx: JournalContext,
  ws: Workspace,
  today: string,
  dryRun: boolean,
): Promise<TendReport> {
  const { dir } = ws;
  const warnings = [...ws.configWarnings];
  if (dryRun && !(await dir.exists()))
    warnings.push('memory/ does not exist yet; a real tend would create it');
  if (!dryRun) await dir.removeStrayTemps();
  const entries = await dir.listDays();
  const dups = await findDuplicateDays(dir, entries);
  const repaired = dryRun
    ? dups
        .filter((d) => d.identical)
        .map((d) => ({
          date: d.date,
          kept: keptLocation(d),
          removed: d.locations.filter((l) => l !== keptLocation(d)),
        }))
    : await repairDuplicates(dir, dups);
  const conflicts = dups.filter((d) => !d.identical).map((d) => ({ date: d.date, locations: d.locations }));
  const dupOf = new Map(dups.map((d) => [d.date, d]));
  const files: DayFile[] = [];
  for (const e of entries) {
    const d = dupOf.get(e.date);
    if (d && (files.some((f) => f.date === e.date) || (d.identical && keptLocation(d) !== e.location)))
      continue;
    files.push({
      date: e.date,
      location: d ? keptLocation(d) : e.location,
      ...(d && !d.identical ? { frozen: true } : {}),
    });
  }

  const { book, corrupt } = await loadUsage(dir);
  if (corrupt)
    warnings.push(
      '.usage.json was not valid: lookups restart from zero (the bad file is kept as .usage.json.corrupt)',
    );
  const plan = planTide(files, book, ws.config, today);
  warnings.push(...plan.warnings);
  const report: TendReport = {
    root: dir.root,
    today,
    dryRun,
    migrated: plan.migrated,
    moves: plan.moves,
    pinned: plan.pinned,
    unpinned: plan.unpinned,
    archived: plan.archived,
    repaired,
    conflicts,
    tiers: { hot: 0, cold: 0, legacy: 0 },
    created: ws.created,
    warnings,
  };
  for (const p of plan.placement) report.tiers[p.location]++;
  if (dryRun) return report;

  // Usage first: if the moves below are cut short, the next tend replans from pins and resets already recorded
  // and reaches the same placement, whereas moves without their usage would lose the reset of the hit counters.
  if (corrupt || renderUsageBook(plan.usage) !== renderUsageBook(book))
    await saveUsage(dir, plan.usage, corrupt);
  report.moves = [];
  for (const m of plan.moves) {
    const outcome = await moveDay(dir, m.date, m.from, m.to, ctx.onMoveStep);
    report.moves.push({ ...m, outcome });
    if (outcome === 'conflict') {
      report.conflicts.push({ date: m.date, locations: [m.from, m.to] });
      warnings.push(
        `${m.date}: ${dayFilePath(m.to, m.date)} already exists with other content; left both in place`,
      );
    }
  }
  for (const a of plan.archived) {
    const rel = dayFilePath(a.from, a.date);
    const content = await dir.readText(rel);
    if (content === undefined) continue;
    // The archive database gets its copy before the folder lets go of it (DESIGN §7: never destroyed).
    await ctx.host.archiveDay(dir.root, a.date, content);
    await dir.remove(rel);
  }
  report.indexes = await refreshIndexes(ctx, ws, plan.usage);
  report.tiers = report.indexes.days;
  report.hint = (await syncHint(ctx, ws)).kind;
  await ctx.host.setTendState(dir.root, today);
  return report;
}
