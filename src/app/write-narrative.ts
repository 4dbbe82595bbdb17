/** `memory_write`: a structured narrative with Tideline's scoring, recurrence propagation and anti-inflation. */
import { knownPersonsOf } from '../core/config.js';
import { formatId } from '../core/ids.js';
import { narrativeInput, parseInput, type NarrativeInput } from '../core/schemas.js';
import type { NarrativeKind } from '../core/types.js';
import { ANTI_INFLATION, antiInflate, computeWeight, recurrenceFromFrequency, rescoredWeight } from '../script/weight-policy.js';
import type { NarrativeStore } from '../store/port.js';
import { spaceTransaction, type AppContext } from './app-context.js';
import { embedItems } from './embed-items.js';
import { refuseSecretsIn } from './guard-secrets.js';
import { narrativeIndexText } from './index-text.js';

/** What `memory_write` stored. */
export interface WriteNarrativeResult {
  id: string;
  weight: number;
  recurrence: number;
  tags: string[];
  relatedEntities: string[];
  /** Older narratives whose recurrence rose because they share a tag. */
  propagated: number;
  /** True when write-time anti-inflation rescaled the newest weights. */
  rescaled: boolean;
}

/** Writes one narrative. */
export async function writeNarrative(ctx: AppContext, raw: NarrativeInput): Promise<WriteNarrativeResult> {
  const input = parseInput(narrativeInput, raw);
  const clean = (s: string | undefined) => (s && s.trim().length > 0 ? s.trim() : null);
  const gesture = clean(input.gesture);
  const context = clean(input.context);
  const moment = clean(input.moment);
  const direction = clean(input.cognition_direction);
  // Every field the narrative stores, tags and entity names included (the error names the field).
  refuseSecretsIn({ ...input });
  // SEEDS §1.4: content = non-empty fields joined by " | ", else the legacy content, else the gesture.
  const joined = [gesture, context, moment, direction].filter((s): s is string => s !== null).join(' | ');
  const content = joined || clean(input.content) || '';
  const tags = [...new Set(input.tags.map((t) => t.trim()))];
  const persons = new Set(knownPersonsOf(ctx.config));
  const fromTags = tags.filter((t) => persons.has(t));
  const related = fromTags.length > 0 ? fromTags : (input.related_entities ?? []);
  const kind: NarrativeKind = input.kind ?? (input.narrative_type === 'self_reflection' ? 'self_reflection' : 'narrative');
  const now = ctx.clock.now();
  const createdAt = input.at ?? now;

  const out = await spaceTransaction(ctx, async (scope, tx) => {
    await tx.spaces.ensure(ctx.space, now);
    const freq = tags.length > 0 ? await scope.narratives.countSharingTags(tags) : undefined;
    const recurrence = recurrenceFromFrequency(freq);
    // SEEDS §1.8: a dream's importance is fixed at 1.
    const importance = kind === 'dream' ? 1 : (input.importance ?? 3);
    const scores = { importance, emotional: input.emotional ?? 3, recurrence, unresolved: input.unresolved ?? 3 };
    const weight = computeWeight(scores);
    const id = await scope.narratives.insert({
      kind, ntype: input.narrative_type, content, gesture, context, moment, cognitionDirection: direction, tags,
      entitiesRole: clean(input.entities_role), relatedEntities: related,
      sourceLinks: (input.source_links ?? []).map(Number), ...scores, weight, createdAt, embedPending: true,
      index: narrativeIndexText({ content, gesture, context, moment, cognitionDirection: direction, tags }),
    });
    const propagated = await propagateRecurrence(scope.narratives, tags, id);
    const rescaled = await applyAntiInflation(scope.narratives, ANTI_INFLATION.writeWindow);
    const stored = await scope.narratives.get(id);
    return { id, weight: stored?.weight ?? weight, recurrence, propagated, rescaled };
  });
  await embedItems(ctx, 'narrative', [{ id: out.id, text: content }]);
  return {
    id: formatId('narrative', out.id), weight: out.weight, recurrence: out.recurrence, tags, relatedEntities: related,
    propagated: out.propagated, rescaled: out.rescaled,
  };
}

/**
 * Recomputes recurrence of older narratives sharing a tag with the new one, with the same mapping as write time
 * (BUG T-2 fixed): a narrative's frequency is the most other narratives any one of its tags is shared with.
 */
export async function propagateRecurrence(narratives: NarrativeStore, tags: readonly string[], newId: number): Promise<number> {
  if (tags.length === 0) return 0;
  const siblings = (await narratives.withAnyTag(tags)).filter((s) => s.id !== newId);
  if (siblings.length === 0) return 0;
  const counts = await narratives.tagCounts([...new Set(siblings.flatMap((s) => s.tags))]);
  const rows = await narratives.getMany(siblings.map((s) => s.id));
  const changes: Array<{ id: number; recurrence: number; weight: number }> = [];
  for (const n of rows) {
    const f = Math.max(0, ...n.tags.map((t) => (counts.get(t) ?? 1) - 1));
    const recurrence = recurrenceFromFrequency(f);
    if (recurrence === n.recurrence) continue;
    const weight = rescoredWeight(n.weight, n, { ...n, recurrence });
    changes.push({ id: n.id, recurrence, weight });
  }
  await narratives.writeScores(changes);
  return changes.length;
}

/** Rescales the newest `window` weights when their average exceeds Tideline's 0.7 (SEEDS §1.5.1); true when it did. */
export async function applyAntiInflation(narratives: NarrativeStore, window: number): Promise<boolean> {
  const newest = await narratives.newestWeights(window);
  const scaled = antiInflate(newest.map((r) => r.weight));
  if (!scaled) return false;
  await narratives.writeScores(newest.map((r, i) => ({ id: r.id, weight: scaled[i]! })));
  return true;
}
