/** Narratives the night writes (solidified memories, conflicts, drift insights, dreams), scored like `memory_write`. */

import type { NarrativeKind } from '../core/types.js';
import { computeWeight, recurrenceFromFrequency } from '../script/weight-policy.js';
import type { Store } from '../store/port.js';
import type { NightContext } from './night-context.js';
import type { EmbedItem } from './phases/phase.js';

/** The fields of a narrative the night writes. */
export interface NightNarrative {
  kind: NarrativeKind;
  gesture: string;
  context?: string | null | undefined;
  moment?: string | null | undefined;
  cognitionDirection?: string | null | undefined;
  entitiesRole?: string | null | undefined;
  tags: readonly string[];
  sourceLinks?: readonly number[];
  importance: number;
  emotional: number;
  unresolved: number;
  /** `extractive`: drawn by a night without a model from its source turns (see `searchable`). */
  ntype?: string;
  /**
   * False for a narrative that only quotes turns which are searchable themselves: it gets no search-index text, so
   * recall finds the turns, not copies that would crowd them out (topics, graph, pool and vectors still use it).
   */
  searchable?: boolean;
}

/**
 * Inserts a narrative at the night's time. content = the non-empty fields joined by " | " (SEEDS §1.4); recurrence
 * from tag frequency with the one mapping of weight-policy (the model never scores it); a dream's importance is
 * fixed at 1 (SEEDS §1.8); related entities are the tags that name known persons (SEEDS §1.2).
 */
export async function insertNarrative(night: NightContext, tx: Store, n: NightNarrative): Promise<EmbedItem> {
  const clean = (s: string | null | undefined) =>
    s !== null && s !== undefined && s.trim() !== '' ? s.trim() : null;
  const gesture = clean(n.gesture);
  const context = clean(n.context);
  const moment = clean(n.moment);
  const direction = clean(n.cognitionDirection);
  const content = [gesture, context, moment, direction].filter((s): s is string => s !== null).join(' | ');
  const tags = [...new Set(n.tags.map((t) => t.trim()).filter(Boolean))];
  const freq = tags.length > 0 ? await tx.forSpace(night.space).narratives.countSharingTags(tags) : undefined;
  const importance = n.kind === 'dream' ? 1 : n.importance;
  const scores = {
    importance,
    emotional: n.emotional,
    recurrence: recurrenceFromFrequency(freq),
    unresolved: n.unresolved,
  };
  const persons = new Set(night.config.relatedPersons);
  const id = await tx.forSpace(night.space).narratives.insert({
    kind: n.kind,
    ntype: n.ntype ?? (n.kind === 'narrative' ? 'general' : n.kind),
    content,
    gesture,
    context,
    moment,
    cognitionDirection: direction,
    tags,
    entitiesRole: clean(n.entitiesRole),
    relatedEntities: tags.filter((t) => persons.has(t)),
    sourceLinks: [...(n.sourceLinks ?? [])],
    ...scores,
    weight: computeWeight(scores),
    createdAt: night.asOf,
    embedPending: true,
    index: n.searchable === false ? { body: '', extra: '', raw: '' } : night.indexes.narrative({
      content,
      gesture,
      context,
      moment,
      cognitionDirection: direction,
      tags,
    }),
  });
  return { layer: 'narrative', id, text: content };
}
