/** The tide: which day files stay hot, sink cold, float back, get pinned or leave for the archive (SEEDS §2.6). */
import { daysBetween } from './journal-date.js';
import type { TideConfig } from './tide-config.js';
import { dayKey, type UsageBook, type UsageEntry } from './usage-book.js';

/** A tier folder under `memory/archive/`. */
export type Tier = 'hot' | 'cold';
/** Where a day file lies: a tier, or `legacy` directly in `memory/` (the pre-tier layout). */
export type DayLocation = Tier | 'legacy';

/** One day file as the policy sees it. */
export interface DayFile {
  date: string;
  location: DayLocation;
  /** Left exactly where it is and out of every rule, e.g. a date with two different copies. */
  frozen?: boolean;
}

/** Why a file moves. */
export type MoveReason = 'recent' | 'pinned' | 'promoted' | 'unused' | 'over_hot_max';

/** A planned move. A move from `legacy` is the migration (SEEDS §2.3). */
export interface TideMove {
  date: string;
  from: DayLocation;
  to: Tier;
  reason: MoveReason;
}

/** A file pinned by this pass: `hot_hits` kept hot by promoteHits, `cold_hits` floated back by coldPromoteHits. */
export interface TidePin {
  date: string;
  reason: 'hot_hits' | 'cold_hits';
  hits: number;
}

/** The outcome of one tide pass, computed without touching a file. */
export interface TidePlan {
  today: string;
  /** Legacy files found in `memory/`; each also has a move. */
  migrated: string[];
  moves: TideMove[];
  pinned: TidePin[];
  unpinned: { date: string; idleDays: number }[];
  /** Oldest cold files over coldMaxFiles, leaving the folder for the archive database. */
  archived: { date: string; from: DayLocation }[];
  /** Final place of every file that stays in the folder (frozen files stay where they are). */
  placement: { date: string; location: DayLocation }[];
  /** The usage book after pins, unpins, counter resets and removal of files that are gone. */
  usage: UsageBook;
  warnings: string[];
}

interface Decision {
  file: DayFile;
  tier: Tier;
  reason: MoveReason;
}

/**
 * Plans one pass. Order (SEEDS §2.6 suggestion): unpin lapsed pins → hot rules (with the legacy files, which
 * count as hot) → cold promotions → hotMaxFiles → coldMaxFiles. Hit counters reset whenever a file changes tier or
 * is unpinned, so "looked up N times" always means N days since the file entered its present state.
 */
export function planTide(
  files: readonly DayFile[],
  usage: UsageBook,
  config: TideConfig,
  today: string,
): TidePlan {
  const entries: Record<string, UsageEntry> = { ...usage.files };
  const entry = (date: string) => entries[dayKey(date)];
  const reset = (date: string) => {
    const e = entry(date);
    if (e) entries[dayKey(date)] = { ...e, hits: 0, since: today };
  };
  const plan: TidePlan = {
    today,
    migrated: [],
    moves: [],
    pinned: [],
    unpinned: [],
    archived: [],
    placement: [],
    usage,
    warnings: [],
  };
  const live = [...files].filter((f) => !f.frozen).sort((a, b) => a.date.localeCompare(b.date));

  for (const f of live) {
    const e = entry(f.date);
    if (!e?.pinned) continue;
    const last = e.lastHit !== undefined && e.lastHit > e.pinned ? e.lastHit : e.pinned;
    const idleDays = daysBetween(last, today);
    // "pinMaxDays 天没再被查": idle for more than pinMaxDays whole days, like hotKeepDays' "≤ 7 stays" (SEEDS §2.6).
    if (idleDays > config.pinMaxDays) {
      const { pinned: _drop, ...rest } = e;
      entries[dayKey(f.date)] = { ...rest, hits: 0, since: today };
      plan.unpinned.push({ date: f.date, idleDays });
    }
  }

  const decisions: Decision[] = live.map((file) => {
    const e = entry(file.date);
    const hits = e?.hits ?? 0;
    if (daysBetween(file.date, today) <= config.hotKeepDays) return { file, tier: 'hot', reason: 'recent' };
    if (e?.pinned) return { file, tier: 'hot', reason: 'pinned' };
    const threshold = file.location === 'cold' ? config.coldPromoteHits : config.promoteHits;
    if (hits >= threshold) {
      entries[dayKey(file.date)] = { ...e!, pinned: today };
      plan.pinned.push({
        date: file.date,
        reason: file.location === 'cold' ? 'cold_hits' : 'hot_hits',
        hits,
      });
      return { file, tier: 'hot', reason: file.location === 'cold' ? 'promoted' : 'pinned' };
    }
    return { file, tier: 'cold', reason: 'unused' };
  });

  // hotMaxFiles 0 = no limit; over it the oldest unpinned sink, even recent ones: a cap the user chose (SEEDS §2.4).
  if (config.hotMaxFiles > 0) {
    const hot = decisions.filter((d) => d.tier === 'hot');
    let excess = hot.length - config.hotMaxFiles;
    for (const d of hot) {
      if (excess <= 0) break;
      if (entry(d.file.date)?.pinned) continue;
      d.tier = 'cold';
      d.reason = 'over_hot_max';
      excess--;
    }
    if (excess > 0)
      plan.warnings.push(
        `hot tier keeps ${excess} file(s) over hotMaxFiles ${config.hotMaxFiles}: they are pinned`,
      );
  }

  const archivedDates = new Set<string>();
  // coldMaxFiles 0 is read as "no limit" like hotMaxFiles, so a zero never empties the cold tier by surprise.
  if (config.coldMaxFiles > 0) {
    const cold = decisions.filter((d) => d.tier === 'cold');
    for (const d of cold.slice(0, Math.max(0, cold.length - config.coldMaxFiles))) {
      archivedDates.add(d.file.date);
      plan.archived.push({ date: d.file.date, from: d.file.location });
      delete entries[dayKey(d.file.date)];
    }
  }

  for (const d of decisions) {
    if (d.file.location === 'legacy') plan.migrated.push(d.file.date);
    if (archivedDates.has(d.file.date)) continue;
    plan.placement.push({ date: d.file.date, location: d.tier });
    if (d.file.location === d.tier) continue;
    plan.moves.push({ date: d.file.date, from: d.file.location, to: d.tier, reason: d.reason });
    // Migration into hot is not a change of tier: legacy files were the hot layer of the old layout.
    if (!(d.file.location === 'legacy' && d.tier === 'hot')) reset(d.file.date);
  }
  for (const f of files.filter((x) => x.frozen)) plan.placement.push({ date: f.date, location: f.location });

  const present = new Set(files.map((f) => dayKey(f.date)));
  for (const key of Object.keys(entries)) {
    if (/^\d{4}-\d{2}-\d{2}\.md$/.test(key) && !present.has(key)) delete entries[key];
  }
  plan.usage = { version: 1, files: entries };
  return plan;
}
