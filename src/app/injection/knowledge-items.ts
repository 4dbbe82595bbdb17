/** What the memory knows about working with this user, for the session-start block: preferences and facts, open problems, review. */
import type { Knowledge } from '../../core/types.js';
import { strengthNow } from '../../script/strength.js';
import type { AppContext } from '../app-context.js';
import { listReview } from '../review.js';
import type { BlockItem } from './block-budget.js';
import { clipAtBoundary, oneLine } from './inject-text.js';
import { relativeTime, type LabelLanguage } from './relative-time.js';

// Values: below identity, goal and threads (T0), above the pool, bridge and map. Within a band an entry's value grows
// with its strength now (decayed since it was last used) and its occurrences, so stale entries are dropped first.
const VALUE = { preference: 74, fact: 72, problem: 71, reviewCount: 69, reviewItem: 66, provisional: 56 } as const;
// Entries read per kind; the budget decides how many are shown.
const READ = 200;
const LINE_CHARS = 240;
const REVIEW_SHOWN = 3;
// Kinds that describe how to work with the user and the world they work in (recipes have their own way in).
const KNOWN_KINDS = ['preference', 'fact', 'procedure', 'entity', 'concept'] as const;

/** 0..1: strength decayed to `now`, with a little for repetition (capped at 5 occurrences). */
export function useScore(k: Pick<Knowledge, 'strength' | 'lastReinforcedAt' | 'occurrences'>, now: number): number {
  return 0.8 * strengthNow(k.strength, k.lastReinforcedAt, now) + 0.2 * Math.min(1, k.occurrences / 5);
}

/**
 * The knowledge items of the block: preferences and facts the user stored or the nights made reliable (provisional
 * ones that no one stored on purpose come last), open problems, and what waits in Needs review (the count and the
 * oldest few, each with the entry it clashes with). Ranked by strength and use; shown lines name kind and age.
 */
export async function knowledgeItems(ctx: AppContext, lang: LabelLanguage): Promise<BlockItem[]> {
  const now = ctx.clock.now();
  const items: BlockItem[] = [];
  const known = await ctx.scope.knowledge.list({ kinds: KNOWN_KINDS, statuses: ['reliable', 'provisional'], limit: READ });
  for (const k of known) {
    if (k.validTo !== null && k.validTo <= now) continue;
    const chosen = k.status === 'reliable' || k.durable;
    const base = !chosen ? VALUE.provisional : k.kind === 'preference' ? VALUE.preference : VALUE.fact;
    items.push({ section: 'knows', text: line(k, now, lang), value: base + useScore(k, now), ref: { layer: 'knowledge', id: k.id } });
  }
  const problems = await ctx.scope.knowledge.list({ kinds: ['open_problem'], statuses: ['reliable', 'provisional'], limit: READ });
  for (const k of problems) {
    items.push({ section: 'problems', text: line(k, now, lang), value: VALUE.problem + useScore(k, now), ref: { layer: 'knowledge', id: k.id } });
  }
  const review = await listReview(ctx);
  if (review.length > 0) {
    const n = review.length;
    items.push({ section: 'review', text: `${n} ${n === 1 ? 'entry waits' : 'entries wait'} for a person's verdict (call review).`, value: VALUE.reviewCount });
    review.slice(0, REVIEW_SHOWN).forEach((r, i) => {
      const against = r.against ? ` — clashes with ${r.against.id}: ${clipAtBoundary(oneLine(r.against.content), 120)}` : ` — ${r.reason}`;
      items.push({ section: 'review', text: `- ${r.id}: ${clipAtBoundary(oneLine(r.content), 160)}${against}`, value: VALUE.reviewItem - i * 0.01 });
    });
  }
  // Strongest first within each section (fitBlock keeps the order of a section and drops its tail first).
  return items.sort((a, b) => b.value - a.value);
}

function line(k: Knowledge, now: number, lang: LabelLanguage): string {
  const status = k.status === 'reliable' ? 'reliable ' : '';
  const kind = k.kind === 'open_problem' ? '' : `${status}${k.kind}, `;
  return `- ${clipAtBoundary(oneLine(k.content), LINE_CHARS)} (${kind}${relativeTime(k.updatedAt, now, lang)})`;
}
