/** L0 solidify: a batch of the scan's conversation chunks → 0-3 narratives each, linked to their episodes (SEEDS §1.8). */

import { formatId, parseId } from '../../core/ids.js';
import type { Store } from '../../store/port.js';
import { NightContext } from '../night-context.js';
import { insertNarrative } from '../narrative-writes.js';
import {
  acceptSolidified,
  buildSolidifyPrompt,
  solidifyResponseSchema,
  type SolidifyChunk,
} from '../prompts/solidify-prompt.js';
import { roleLabel } from '../prompts/prompt.js';
import type { EmbedItem, Phase } from './phase.js';

/** Tags shown so the model reuses them (SEEDS §1.8 tag hygiene); the prompt shows at most 40. */
const KNOWN_TAGS = 40;

/** The chunks of a unit as the prompt shows them, personal data replaced. */
export async function solidifyChunks(
  night: NightContext,
  chunks: readonly number[][],
  redact: (s: string) => string,
): Promise<SolidifyChunk[]> {
  const episodes = await night.store.episodes.getMany(night.space, chunks.flat());
  const byId = new Map(episodes.map((e) => [e.id, e]));
  return chunks.map((ids, i) => ({
    id: `c${i + 1}`,
    turns: ids.flatMap((id) => {
      const e = byId.get(id);
      return e === undefined
        ? []
        : [
            {
              id: formatId('episode', e.id),
              at: e.occurredAt,
              speaker: e.speaker === null ? null : redact(e.speaker),
              role: roleLabel(e),
              text: redact(e.content),
            },
          ];
    }),
  }));
}

/** The space's most used tags, most used first. */
export async function knownTags(store: Store, space: string): Promise<string[]> {
  const counts = await store.narratives.tagCounts(space);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, KNOWN_TAGS)
    .map(([t]) => t);
}

/** Solidifies one planned batch of chunks. */
export const solidifyPhase: Phase = async (night, unit) => {
  if (unit.payload.deferred === true) return { delta: { deferred: 1 } };
  if (night.model === undefined) return {};
  const redact = (s: string) => night.redactor.redact(s);
  const chunks = await solidifyChunks(night, unit.payload.chunks ?? [], redact);
  const tags = (await knownTags(night.store, night.space)).map(redact);
  const prompt = buildSolidifyPrompt({ chunks, knownTags: tags }, { language: night.config.language });
  const r = await night.ask(prompt, solidifyResponseSchema);
  if (r.kind !== 'ok') return { delta: NightContext.missed('solidify', r) };
  const { narratives, dropped } = acceptSolidified(r.value, chunks);
  const restore = (s: string | undefined) => (s === undefined ? undefined : night.redactor.restore(s));
  const ready = narratives.map((n) => ({
    kind: 'narrative' as const,
    gesture: restore(n.gesture)!,
    context: restore(n.context),
    moment: restore(n.moment),
    cognitionDirection: restore(n.cognition_direction),
    entitiesRole: restore(n.entities_role),
    tags: n.tags.map((t) => night.redactor.restore(t)),
    sourceLinks: n.sourceLinks.map((s) => parseId(s).id),
    importance: n.importance,
    emotional: n.emotional,
    unresolved: n.unresolved,
  }));
  return {
    proposals: ready,
    delta: { droppedItems: r.dropped + dropped },
    apply: async (tx) => {
      const embed: EmbedItem[] = [];
      for (const n of ready) embed.push(await insertNarrative(night, tx, n));
      return { delta: { counts: { narratives: ready.length } }, embed };
    },
  };
};
