/** `journal stats`: days per tier, lookups per file, pins, the archive and the last tend (SEEDS §2.5). */
import type { z } from 'zod';
import { parseInput } from '../core/schemas.js';
import { journalToday, loadUsage, openWorkspace, type JournalContext } from './journal-context.js';
import { daysBetween } from './journal-date.js';
import { JournalRootInput } from './journal-inputs.js';
import type { TideConfig } from './tide-config.js';
import type { DayLocation } from './tide-policy.js';
import { dayKey, type UsageEntry } from './usage-book.js';

/** Usage of one file as stats shows it. */
export interface FileStats {
  file: string;
  date?: string;
  location: DayLocation | 'core';
  ageDays?: number;
  /** Lookup days since the counter last reset (what the tide rules compare). */
  hits: number;
  /** Lookup days over the file's life. */
  totalHits: number;
  lastHit?: string;
  pinned?: string;
}

/** The workspace at a glance. */
export interface JournalStats {
  root: string;
  today: string;
  tiers: Record<DayLocation, number>;
  pins: number;
  /** Days held by the archive database (cold overflow). */
  archived: number;
  lastTended?: string;
  files: FileStats[];
  config: TideConfig;
}

function usageOf(e: UsageEntry | undefined): Pick<FileStats, 'hits' | 'totalHits' | 'lastHit' | 'pinned'> {
  return {
    hits: e?.hits ?? 0,
    totalHits: e?.total ?? 0,
    ...(e?.lastHit !== undefined ? { lastHit: e.lastHit } : {}),
    ...(e?.pinned !== undefined ? { pinned: e.pinned } : {}),
  };
}

/** Collects stats; reads only. Day files are listed newest first after MEMORY.md and TODO.md. */
export async function journalStats(
  ctx: JournalContext,
  raw: z.input<typeof JournalRootInput>,
): Promise<JournalStats> {
  const input = parseInput(JournalRootInput, raw);
  const ws = await openWorkspace(ctx, input.root, { bootstrap: true });
  const today = journalToday(ctx);
  const { book } = await loadUsage(ws.dir);
  const files: FileStats[] = ['MEMORY.md', 'TODO.md'].map((file) => ({
    file,
    location: 'core' as const,
    ...usageOf(book.files[file]),
  }));
  const tiers: Record<DayLocation, number> = { hot: 0, cold: 0, legacy: 0 };
  const days = (await ws.dir.listDays()).sort((a, b) => b.date.localeCompare(a.date));
  for (const d of days) {
    tiers[d.location]++;
    files.push({
      file: d.file,
      date: d.date,
      location: d.location,
      ageDays: daysBetween(d.date, today),
      ...usageOf(book.files[dayKey(d.date)]),
    });
  }
  const lastTended = await ctx.host.getTendState(ws.dir.root);
  return {
    root: ws.dir.root,
    today,
    tiers,
    pins: files.filter((f) => f.pinned !== undefined).length,
    archived: (await ctx.host.listArchivedDays(ws.dir.root)).length,
    ...(lastTended !== undefined ? { lastTended } : {}),
    files,
    config: { ...ws.config },
  };
}
