/** The deterministic knowledge and episode lifecycle of a night; runs with model `none` too (SEEDS §3.4, DESIGN §6). */

import { DAY_MS } from '../core/clock.js';

/** The knowledge fields the lifecycle looks at. */
export interface LifecycleKnowledge {
  id: number;
  kind?: string;
  status: 'provisional' | 'reliable' | 'quarantined' | 'superseded' | 'forgotten';
  occurrences: number;
  createdAt: number;
  strength: number;
  lastReinforcedAt: number;
  durable: boolean;
  /** Times it reached the agent: recall and search hits, context and prefetch injections (the attention log). */
  uses?: number;
  /** A person approved it in review. */
  approved?: boolean;
}

/** The episode fields retention looks at; pass live (not yet archived) episodes. */
export interface LifecycleEpisode {
  id: number;
  createdAt: number;
  consolidatedAt: number | null;
  durable: boolean;
}

/** Thresholds (SEEDS §3.4); all ages are measured from `createdAt` (knowledge, episodes) or `consolidatedAt`. */
export const LIFECYCLE = {
  /** provisional → reliable at ≥ 3 occurrences … */
  promoteOccurrences: 3,
  /** … and an age of at least 7 days: `now - createdAt >= 7 × 86 400 000`. */
  promoteAgeDays: 7,
  /** Provisional seen fewer than 2 times ({@link timesSeen}) … */
  forgetBelowOccurrences: 2,
  /** … is forgotten *after* 21 days: `now - createdAt > 21 × 86 400 000` (exactly 21 days is kept). */
  forgetAfterDays: 21,
  /** Consolidated episodes are archived once `now - consolidatedAt >= 14 days`. */
  archiveAfterDays: 14,
  /** Non-durable episodes leave the live memory once `now - createdAt >= 30 days`. */
  dropAfterDays: 30,
} as const;

/** Knowledge transitions of one night. */
export interface KnowledgePlan {
  promote: number[];
  forget: number[];
}

/**
 * How often an entry has been seen (DESIGN §6): its occurrences (the librarian finding it again, `remember` storing
 * it again, merges, a `confirm`) plus every time it reached the agent (recall hits, injections). A reinforcement the
 * log does not show (its strength stamped after its creation) counts once.
 */
export function timesSeen(k: Pick<LifecycleKnowledge, 'occurrences' | 'uses' | 'createdAt' | 'lastReinforcedAt'>): number {
  const uses = k.uses ?? 0;
  return k.occurrences + (uses > 0 ? uses : k.lastReinforcedAt > k.createdAt ? 1 : 0);
}

/**
 * Whether the 21-day rule may forget an entry: never what a person approved, what is durable, or an open problem
 * (it is still unresolved, however rarely it comes up); otherwise when seen fewer than 2 times.
 */
export function mayForget(k: LifecycleKnowledge): boolean {
  if (k.durable || k.approved === true || k.kind === 'open_problem') return false;
  return timesSeen(k) < LIFECYCLE.forgetBelowOccurrences;
}

/**
 * Decides promotions and forgetting. Only `provisional` entries move: promoted at ≥ 3 occurrences AND ≥ 7 days of
 * age; forgotten when {@link mayForget} (seen < 2 times; not approved, durable or an open problem) AND older than 21
 * days. Reliable entries are never forgotten by this rule. The two sets are disjoint (an entry with ≥ 3
 * occurrences is seen ≥ 3 times). Quarantine is decided by the contradiction policy, not here; strength decay
 * needs no transition because it is computed at read time (`strengthAt`).
 */
export function planKnowledgeLifecycle(rows: readonly LifecycleKnowledge[], now: number): KnowledgePlan {
  const promote: number[] = [];
  const forget: number[] = [];
  for (const k of rows) {
    if (k.status !== 'provisional') continue;
    const age = now - k.createdAt;
    if (k.occurrences >= LIFECYCLE.promoteOccurrences && age >= LIFECYCLE.promoteAgeDays * DAY_MS)
      promote.push(k.id);
    else if (age > LIFECYCLE.forgetAfterDays * DAY_MS && mayForget(k)) {
      forget.push(k.id);
    }
  }
  return { promote, forget };
}

/** Episode retention of one night. */
export interface EpisodePlan {
  archive: number[];
  drop: number[];
}

/**
 * Decides which live episodes move on: `drop` = non-durable and ≥ 30 days old (they leave the live memory; what
 * `remember` and import stored is durable and stays); `archive` = consolidated ≥ 14 days ago and not dropped.
 * The sets are disjoint, drop winning. Whether a dropped episode is deleted or kept in the cold archive is the
 * store's choice (DESIGN §1: "never silently lost").
 */
export function planEpisodeRetention(episodes: readonly LifecycleEpisode[], now: number): EpisodePlan {
  const archive: number[] = [];
  const drop: number[] = [];
  for (const e of episodes) {
    if (!e.durable && now - e.createdAt >= LIFECYCLE.dropAfterDays * DAY_MS) drop.push(e.id);
    else if (e.consolidatedAt !== null && now - e.consolidatedAt >= LIFECYCLE.archiveAfterDays * DAY_MS)
      archive.push(e.id);
  }
  return { archive, drop };
}
