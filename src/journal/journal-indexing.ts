/** Rebuilds the two INDEX.md files and hands every section to the host as journal episodes (SEEDS §2.5, DESIGN §1.6). */
import { createHash } from 'node:crypto';
import { parseDayFile, visibleText } from './day-file.js';
import type { JournalContext, Workspace } from './journal-context.js';
import { zonedEpoch } from './journal-date.js';
import type { JournalSection } from './journal-port.js';
import type { DayEntry, MemoryDir } from './memory-dir.js';
import type { Tier } from './tide-policy.js';
import { renderTierIndex, type IndexDay } from './tier-index.js';
import { dayKey, type UsageBook } from './usage-book.js';

/** A day file with its text. */
export interface DayText extends DayEntry {
  text: string;
}

const PREFERENCE = { hot: 0, cold: 1, legacy: 2 } as const;

/** Reads every day file; a date present in two places appears once, hot before cold before legacy. */
export async function readDayTexts(dir: MemoryDir): Promise<DayText[]> {
  const entries = (await dir.listDays()).sort(
    (a, b) => a.date.localeCompare(b.date) || PREFERENCE[a.location] - PREFERENCE[b.location],
  );
  const out: DayText[] = [];
  for (const e of entries) {
    if (out.at(-1)?.date === e.date) continue;
    const text = await dir.readText(e.file);
    if (text !== undefined) out.push({ ...e, text });
  }
  return out;
}

/** The INDEX.md text each tier should have now. */
export function expectedIndexes(days: readonly DayText[], usage: UsageBook): Record<Tier, string> {
  const of = (tier: Tier): IndexDay[] =>
    days
      .filter((d) => d.location === tier)
      .map((d) => ({
        date: d.date,
        sections: parseDayFile(d.text).sections.map((s) => s.heading),
        pinned: usage.files[dayKey(d.date)]?.pinned !== undefined,
      }));
  return { hot: renderTierIndex('hot', of('hot')), cold: renderTierIndex('cold', of('cold')) };
}

/** Sections of the day files and MEMORY.md as journal episodes; skeleton sections holding only comments are left out. */
export function collectSections(
  days: readonly DayText[],
  memoryText: string | undefined,
  timeZone: string,
): JournalSection[] {
  const out: JournalSection[] = [];
  const add = (file: string, name: string, tier: JournalSection['tier'], text: string, date?: string) => {
    const seen = new Map<string, number>();
    for (const s of parseDayFile(text).sections) {
      const body = visibleText(s.body);
      if (body === '') continue;
      const n = (seen.get(s.heading) ?? 0) + 1;
      seen.set(s.heading, n);
      out.push({
        file,
        tier,
        ...(date !== undefined ? { date } : {}),
        heading: s.heading,
        ...(s.time !== undefined ? { time: s.time } : {}),
        title: s.title,
        line: s.line,
        text: body,
        ...(date !== undefined ? { occurredAt: zonedEpoch(date, s.time ?? '00:00', timeZone) } : {}),
        key: `${name}#${s.heading}${n > 1 ? `#${n}` : ''}`,
        sha256: createHash('sha256').update(`${s.heading}\n${body}`).digest('hex'),
      });
    }
  };
  if (memoryText !== undefined) add('MEMORY.md', 'MEMORY.md', 'core', memoryText);
  for (const d of days) add(d.file, dayKey(d.date), d.location, d.text, d.date);
  return out;
}

/** Result of an index rebuild. */
export interface IndexRefresh {
  hot: 'written' | 'unchanged';
  cold: 'written' | 'unchanged';
  days: Record<Tier | 'legacy', number>;
  sections: number;
}

/** Writes each INDEX.md that differs from what it should be and re-indexes all sections in the host. Hold the lock. */
export async function refreshIndexes(
  ctx: JournalContext,
  ws: Workspace,
  usage: UsageBook,
): Promise<IndexRefresh> {
  const days = await readDayTexts(ws.dir);
  const expected = expectedIndexes(days, usage);
  const result: IndexRefresh = {
    hot: 'unchanged',
    cold: 'unchanged',
    days: { hot: 0, cold: 0, legacy: 0 },
    sections: 0,
  };
  for (const d of days) result.days[d.location]++;
  for (const tier of ['hot', 'cold'] as const) {
    const rel = `archive/${tier}/INDEX.md`;
    if ((await ws.dir.readText(rel)) === expected[tier]) continue;
    await ws.dir.writeAtomic(rel, expected[tier]);
    result[tier] = 'written';
  }
  const sections = collectSections(days, await ws.dir.readText('MEMORY.md'), ctx.timeZone);
  await ctx.host.indexSections(ws.dir.root, sections);
  result.sections = sections.length;
  return result;
}
