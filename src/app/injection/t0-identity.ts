/** T0 identity anchor: SOUL.md, self-concept, current goal, newest snapshot, top open threads, briefing headline. */
import { isSelfConceptField } from '../../core/types.js';
import type { AppContext } from '../app-context.js';
import { currentGoal } from '../continuity.js';
import type { BlockItem } from './block-budget.js';
import { oneLine, stripBracketTags } from './inject-text.js';
import { relativeTime, type LabelLanguage } from './relative-time.js';

// Values: what anchors identity is dropped last (DESIGN §4: the lowest-value items go first).
const VALUE = { soul: 100, concept: 95, goal: 93, checkpoint: 92, briefing: 90, snapshot: 85, thread: 70 } as const;

/** Builds the T0 items; `soul` is the text of SOUL.md when the caller found one. */
export async function identityItems(ctx: AppContext, soul: string | undefined, lang: LabelLanguage): Promise<BlockItem[]> {
  const now = ctx.clock.now();
  const items: BlockItem[] = [];
  if (soul && soul.trim()) items.push({ section: 'identity', text: soul.trim(), value: VALUE.soul });
  // Tideline's T0 shows the self-concept it was given; the night's self-image parts (`self_image.*`, same table) are
  // read with `self` / `memory_read_self_concept`, not injected.
  for (const c of (await ctx.scope.identity.selfConcept()).filter((r) => isSelfConceptField(r.field))) {
    items.push({ section: 'identity', text: `- ${c.field}: ${stripBracketTags(c.content)}`, value: VALUE.concept });
  }
  const { goal, checkpoint } = await currentGoal(ctx);
  if (goal) items.push({ section: 'goal', text: `Goal: ${oneLine(goal.text)} (set ${relativeTime(goal.updatedAt, now, lang)})`, value: VALUE.goal });
  if (checkpoint && (!goal || checkpoint.goalId === goal.id)) {
    items.push({ section: 'goal', text: `Checkpoint (${relativeTime(checkpoint.createdAt, now, lang)}): ${checkpoint.plan.trim()}`, value: VALUE.checkpoint });
  }
  const [snapshot] = await ctx.scope.identity.snapshots(1);
  if (snapshot) items.push({ section: 'state', text: `${stripBracketTags(snapshot.content)} (${relativeTime(snapshot.createdAt, now, lang)})`, value: VALUE.snapshot });
  const threads = await ctx.scope.identity.threads('open', ctx.config.injection.openThreads);
  threads.forEach((t, i) => {
    // Heavier threads first and kept longer; the rank keeps equal weights in list order.
    items.push({ section: 'threads', text: `- ${oneLine(stripBracketTags(t.content))} (w=${t.weight.toFixed(2)})`, value: VALUE.thread + t.weight - i * 0.001 });
  });
  const briefing = await ctx.scope.derived.latestBriefing();
  if (briefing) items.push({ section: 'briefing', text: `${briefing.headline} (${briefing.day}; call briefing for details)`, value: VALUE.briefing });
  return items;
}
