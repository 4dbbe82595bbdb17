/**
 * Crash-safe moves of day files between tiers. A move gives the file its new name first (hard link, never
 * overwriting) and then removes the old one, so at every instant the bytes exist at least once; a crash between the
 * two steps leaves two identical names, which `repairDuplicates` reduces to one on the next run (SEEDS §2.6).
 */
import type { MoveStep } from './journal-context.js';
import { dayFilePath, type DayEntry, type MemoryDir } from './memory-dir.js';
import type { DayLocation, Tier } from './tide-policy.js';

/** How a move ended: `deduplicated` means the target already held the same bytes; `conflict` that it held others. */
export type MoveOutcome = 'moved' | 'deduplicated' | 'conflict' | 'missing';

/** Moves the day file of `date` from `from` to `to` without changing a byte and without overwriting anything. */
export async function moveDay(
  dir: MemoryDir,
  date: string,
  from: DayLocation,
  to: Tier,
  onStep?: (step: MoveStep, date: string) => void,
): Promise<MoveOutcome> {
  const src = dayFilePath(from, date);
  const dst = dayFilePath(to, date);
  const linked = await dir.linkNoClobber(src, dst);
  if (linked === 'missing') return 'missing';
  if (linked === 'exists') {
    const [a, b] = await Promise.all([dir.readBytes(src), dir.readBytes(dst)]);
    if (!a || !b || !a.equals(b)) return 'conflict';
  }
  onStep?.('copied', date);
  await dir.remove(src);
  onStep?.('removed', date);
  return linked === 'linked' ? 'moved' : 'deduplicated';
}

/** A date found in more than one place. */
export interface DuplicateDay {
  date: string;
  locations: DayLocation[];
  /** True when every copy has the same bytes. */
  identical: boolean;
}

// Which copy stays: hot is read every session; a tier copy beats a legacy one, the migration having reached it.
const KEEP_ORDER: readonly DayLocation[] = ['hot', 'cold', 'legacy'];

/** Dates present in two or more places among `entries`, with whether their bytes agree. */
export async function findDuplicateDays(
  dir: MemoryDir,
  entries: readonly DayEntry[],
): Promise<DuplicateDay[]> {
  const byDate = new Map<string, DayEntry[]>();
  for (const e of entries) byDate.set(e.date, [...(byDate.get(e.date) ?? []), e]);
  const out: DuplicateDay[] = [];
  for (const [date, list] of byDate) {
    if (list.length < 2) continue;
    const bytes = await Promise.all(list.map((e) => dir.readBytes(e.file)));
    const identical = bytes.every((b) => b !== undefined && bytes[0] !== undefined && b.equals(bytes[0]));
    const locations = list
      .map((e) => e.location)
      .sort((a, b) => KEEP_ORDER.indexOf(a) - KEEP_ORDER.indexOf(b));
    out.push({ date, locations, identical });
  }
  return out;
}

/** Where a duplicate would be kept. */
export function keptLocation(d: DuplicateDay): DayLocation {
  return d.locations[0]!;
}

/** Removes the extra names of identical duplicates (an interrupted move); copies that differ are never touched. */
export async function repairDuplicates(
  dir: MemoryDir,
  dups: readonly DuplicateDay[],
): Promise<{ date: string; kept: DayLocation; removed: DayLocation[] }[]> {
  const out: { date: string; kept: DayLocation; removed: DayLocation[] }[] = [];
  for (const d of dups) {
    if (!d.identical) continue;
    const kept = keptLocation(d);
    const removed = d.locations.filter((l) => l !== kept);
    // Re-check right before removing: only a byte-identical twin of the kept file may go.
    const keep = await dir.readBytes(dayFilePath(kept, d.date));
    for (const l of removed) {
      const other = await dir.readBytes(dayFilePath(l, d.date));
      if (keep && other && keep.equals(other)) await dir.remove(dayFilePath(l, d.date));
    }
    out.push({ date: d.date, kept, removed });
  }
  return out;
}
