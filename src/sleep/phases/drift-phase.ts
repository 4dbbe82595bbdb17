/** Night drift (SEEDS §1.8 layer 2): from one heavy memory of today to unrelated terrain, looking for a hidden link. */

import { WEIGHT_GATES } from '../../core/weight-scale.js';
import { formatId } from '../../core/ids.js';
import type { Narrative } from '../../core/types.js';
import { parseEntitiesRole } from '../../script/entity-graph.js';
import { randomInt, sampleIndices } from '../../script/seeded-rng.js';
import { computeWeight } from '../../script/weight-policy.js';
import { embedQuery } from '../knowledge-writes.js';
import { insertNarrative } from '../narrative-writes.js';
import { NightContext } from '../night-context.js';
import {
  acceptDrift,
  buildDriftPrompt,
  driftResponseSchema,
  type DriftMemory,
} from '../prompts/drift-prompt.js';
import type { Phase } from './phase.js';

/** "A random high-weight memory of today" (SEEDS §1.8 names no number): core/weight-scale `WEIGHT_GATES.heavy`. */
const HEAVY = WEIGHT_GATES.heavy;
/** Older memories the drift may wander to. */
const TERRAIN = 300;

/** Entities a narrative names: related entities and the `entities_role` parts. */
function entitiesOf(n: Narrative): Set<string> {
  return new Set(
    [...n.relatedEntities, ...parseEntitiesRole(n.entitiesRole).map((m) => m.entity)].map((e) =>
      e.toLowerCase(),
    ),
  );
}

/**
 * The far memories: older narratives sharing no tag with the seed, reached through embeddings (the nearest of
 * those, the surprising neighbours), shared people, and topic (a seeded draw from the rest). At most 5.
 */
export async function farMemories(
  night: NightContext,
  seed: Narrative,
): Promise<Array<Narrative & { via: NonNullable<DriftMemory['via']> }>> {
  const tags = new Set(seed.tags.map((t) => t.toLowerCase()));
  const older = (await night.scope.narratives.list({ limit: TERRAIN, kind: 'narrative' }))
    .filter((n) => n.createdAt < night.since && !n.tags.some((t) => tags.has(t.toLowerCase())))
    .sort((a, b) => a.id - b.id);
  const out: Array<Narrative & { via: NonNullable<DriftMemory['via']> }> = [];
  const taken = new Set<number>();
  const take = (n: Narrative, via: NonNullable<DriftMemory['via']>) => (
    taken.add(n.id),
    out.push({ ...n, via })
  );
  const vector = await embedQuery(night, seed.content);
  if (vector !== undefined && night.embedder !== undefined) {
    const byId = new Map(older.map((n) => [n.id, n]));
    const near = await night.scope.vectors.nearest(
      'narrative',
      night.embedder.model,
      vector,
      40,
    );
    for (const h of near.filter((x) => byId.has(x.id)).slice(0, 2)) take(byId.get(h.id)!, 'embedding');
  }
  const people = entitiesOf(seed);
  const shared = older.find((n) => !taken.has(n.id) && [...entitiesOf(n)].some((e) => people.has(e)));
  if (shared !== undefined) take(shared, 'entity');
  const rest = older.filter((n) => !taken.has(n.id));
  for (const i of sampleIndices(night.rngFor('drift:far'), rest.length, 5 - out.length))
    take(rest[i]!, 'topic');
  return out;
}

/** Drifts once, from a seeded pick among today's heavy memories. */
export const driftPhase: Phase = async (night) => {
  if (night.model === undefined) return {};
  const today = (
    await night.scope.narratives.list({ since: night.since, limit: 200, kind: 'narrative' })
  ).filter((n) => n.weight >= HEAVY);
  if (today.length === 0) return {};
  const sorted = today.sort((a, b) => a.id - b.id);
  const seed = sorted[randomInt(night.rngFor('drift:seed'), sorted.length)]!;
  const far = await farMemories(night, seed);
  if (far.length === 0) return {};
  const r = (s: string) => night.redactor.redact(s);
  const show = (n: Narrative, via?: DriftMemory['via']): DriftMemory => ({
    id: formatId('narrative', n.id),
    gesture: r(n.gesture ?? n.content),
    tags: n.tags.map(r),
    ...(via ? { via } : {}),
  });
  const input = { seed: show(seed), far: far.map((n) => show(n, n.via)) };
  const answer = await night.ask(
    buildDriftPrompt(input, { language: night.config.language }),
    driftResponseSchema,
  );
  if (answer.kind !== 'ok') return { delta: NightContext.missed('drift', answer) };
  const { value, dropped } = acceptDrift(answer.value, input);
  const restore = (s: string) => night.redactor.restore(s);
  return {
    proposals: value,
    delta: { droppedItems: answer.dropped + dropped },
    apply: async (tx) => {
      const embed = [];
      if (value.connection !== null) {
        embed.push(
          await insertNarrative(night, tx, {
            kind: 'self_reflection',
            gesture: restore(value.connection.insight),
            context: `drift from ${input.seed.id} to ${value.connection.to}`,
            tags: ['drift'],
            importance: 2,
            emotional: 2,
            unresolved: 3,
          }),
        );
      }
      if (value.thread !== null) {
        const s = {
          importance: value.thread.importance,
          emotional: value.thread.emotional,
          recurrence: 1,
          unresolved: value.thread.unresolved,
        };
        await tx.forSpace(night.space).identity.insertThread({
          content: restore(value.thread.content),
          ...s,
          weight: computeWeight(s),
          status: 'open',
          createdAt: night.asOf,
        });
      }
      return { delta: {}, embed };
    },
  };
};
