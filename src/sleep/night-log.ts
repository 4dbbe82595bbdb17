/** A night's log as the fold of what each applied unit recorded, so a resumed night reports what the whole night did. */

import type { Knowledge } from '../core/types.js';
import { emptyNightLog, type BriefItem, type NightLog } from '../script/briefing-render.js';

/** What one unit adds to the night's log; every field is optional. */
export interface NightDelta {
  episodes?: number;
  created?: BriefItem[];
  reinforced?: BriefItem[];
  forgotten?: BriefItem[];
  promoted?: BriefItem[];
  superseded?: NightLog['superseded'];
  quarantined?: NightLog['quarantined'];
  openProblems?: BriefItem[];
  ideas?: NightLog['ideas'];
  gaps?: NightLog['gaps'];
  recipes?: NightLog['recipes'];
  pii?: Partial<NightLog['pii']>;
  piiFlags?: NightLog['piiFlags'];
  counts?: Partial<NightLog['counts']>;
  selfImageUpdated?: boolean;
  skipped?: NightLog['skipped'];
  steps?: NightLog['steps'];
  rejected?: number;
  droppedItems?: number;
  deferred?: number;
  /** Tokens spent per step by this unit (input + output). */
  tokens?: Record<string, number>;
}

/** One delta holding everything `parts` hold (lists joined, numbers summed), in order. */
export function combineDeltas(...parts: ReadonlyArray<NightDelta | undefined>): NightDelta {
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [k, v] of Object.entries(part ?? {})) {
      const prev = out[k];
      if (Array.isArray(v)) out[k] = [...((prev as unknown[] | undefined) ?? []), ...v];
      else if (typeof v === 'number') out[k] = ((prev as number | undefined) ?? 0) + v;
      else if (typeof v === 'boolean') out[k] = (prev as boolean | undefined) === true || v;
      else if (typeof v === 'object' && v !== null) {
        const sum: Record<string, number> = { ...((prev as Record<string, number> | undefined) ?? {}) };
        for (const [kk, n] of Object.entries(v as Record<string, number>)) sum[kk] = (sum[kk] ?? 0) + n;
        out[k] = sum;
      }
    }
  }
  return out as NightDelta;
}

/** A knowledge entry as the briefing names it. */
export function briefItem(k: Pick<Knowledge, 'id' | 'kind' | 'content'>): BriefItem {
  return { id: k.id, kind: k.kind, content: k.content };
}

/** Adds `d` to `log` in place and returns it. */
export function addDelta(log: NightLog, d: NightDelta): NightLog {
  log.episodes += d.episodes ?? 0;
  log.created.push(...(d.created ?? []));
  log.reinforced.push(...(d.reinforced ?? []));
  log.forgotten.push(...(d.forgotten ?? []));
  log.promoted.push(...(d.promoted ?? []));
  log.superseded.push(...(d.superseded ?? []));
  log.quarantined.push(...(d.quarantined ?? []));
  log.openProblems.push(...(d.openProblems ?? []));
  log.ideas.push(...(d.ideas ?? []));
  log.gaps.push(...(d.gaps ?? []));
  log.recipes.push(...(d.recipes ?? []));
  log.pii.names += d.pii?.names ?? 0;
  log.pii.replacements += d.pii?.replacements ?? 0;
  log.pii.overLimit += d.pii?.overLimit ?? 0;
  for (const f of d.piiFlags ?? []) {
    const same = log.piiFlags.find((x) => x.ref === f.ref);
    if (same === undefined) log.piiFlags.push({ ref: f.ref, kinds: [...f.kinds] });
    else same.kinds = [...new Set([...same.kinds, ...f.kinds])];
  }
  for (const [k, v] of Object.entries(d.counts ?? {}) as Array<[keyof NightLog['counts'], number]>)
    log.counts[k] += v;
  log.selfImageUpdated ||= d.selfImageUpdated ?? false;
  log.skipped.push(...(d.skipped ?? []));
  log.steps.push(...(d.steps ?? []));
  log.rejected += d.rejected ?? 0;
  log.droppedItems += d.droppedItems ?? 0;
  log.deferred += d.deferred ?? 0;
  for (const [step, n] of Object.entries(d.tokens ?? {})) {
    log.tokens.byStep[step] = (log.tokens.byStep[step] ?? 0) + n;
    log.tokens.used += n;
  }
  return log;
}

/** Folds unit deltas into one log and settles it: one line per entry and no entry both new and reinforced. */
export function foldNight(base: NightLog, deltas: readonly NightDelta[]): NightLog {
  const log = deltas.reduce(addDelta, base);
  return settle(log);
}

/**
 * Merges the logs of several runs of one UTC day (a manual run after the nightly one) into the day's log: the
 * briefing is one per day, so its headline counts what every night of that day did.
 */
export function mergeNightLogs(logs: readonly NightLog[]): NightLog {
  const [first, ...rest] = logs;
  if (first === undefined) throw new RangeError('mergeNightLogs needs at least one log');
  const merged: NightLog = structuredClone(first);
  for (const l of rest) {
    addDelta(merged, { ...l, tokens: l.tokens.byStep });
    merged.startedAt = Math.min(merged.startedAt, l.startedAt);
    merged.finishedAt = Math.max(merged.finishedAt, l.finishedAt);
    merged.tokens.budget += l.tokens.budget;
    merged.selfImageUpdated ||= l.selfImageUpdated;
    if (l.model !== merged.model) merged.model = l.model === 'none' ? merged.model : l.model;
  }
  // Ideas and gaps describe the latest state, not a sum: keep the newest night's.
  const last = logs[logs.length - 1]!;
  merged.ideas = [...last.ideas];
  merged.gaps = [...last.gaps];
  merged.openProblems = [...last.openProblems];
  return settle(merged);
}

/** Reads a log back from JSON (a run row), filling what an older shape lacks. */
export function logFromJson(value: unknown, space: string): NightLog | undefined {
  if (typeof value !== 'object' || value === null || !('created' in value)) return undefined;
  const base = emptyNightLog(space, 0, 'none', 0);
  const v = value as Partial<NightLog>;
  return {
    ...base,
    ...v,
    counts: { ...base.counts, ...v.counts },
    pii: { ...base.pii, ...v.pii },
    tokens: { ...base.tokens, ...v.tokens },
  };
}

/**
 * The log with `scrub` applied to every text it carries: the night maps every known placeholder back to its value,
 * so no placeholder (from a model's answer or an older night) reaches the briefing.
 */
export function scrubLog(log: NightLog, scrub: (text: string) => string): NightLog {
  const item = (i: BriefItem): BriefItem => ({ ...i, content: scrub(i.content) });
  return {
    ...log,
    created: log.created.map(item),
    reinforced: log.reinforced.map(item),
    forgotten: log.forgotten.map(item),
    promoted: log.promoted.map(item),
    superseded: log.superseded.map((s) => ({ old: item(s.old), by: item(s.by) })),
    quarantined: log.quarantined.map((q) => ({
      ...q,
      entry: item(q.entry),
      conflictsWith: item(q.conflictsWith),
    })),
    openProblems: log.openProblems.map(item),
    ideas: log.ideas.map((i) => ({ problem: scrub(i.problem), nextStep: scrub(i.nextStep) })),
    gaps: log.gaps.map((g) => ({ ...g, topic: scrub(g.topic) })),
    skipped: log.skipped.map((x) => ({ ...x, reason: scrub(x.reason) })),
  };
}

function settle(log: NightLog): NightLog {
  const unique = (items: BriefItem[]) => {
    const seen = new Set<number>();
    return items.filter((i) => !seen.has(i.id) && seen.add(i.id));
  };
  log.created = unique(log.created);
  const created = new Set(log.created.map((c) => c.id));
  log.reinforced = unique(log.reinforced).filter((r) => !created.has(r.id));
  log.forgotten = unique(log.forgotten);
  log.promoted = unique(log.promoted);
  return log;
}
