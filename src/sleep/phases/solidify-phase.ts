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
  type TurnPrompt,
} from '../prompts/solidify-prompt.js';
import { clip, roleLabel } from '../prompts/prompt.js';
import type { Episode, Knowledge } from '../../core/types.js';
import { combineDeltas } from '../night-log.js';
import { foldReason, LIBRARIAN_EPISODE_CHARS, nearestEntries, packetEntry, proposalsOutcome } from './librarian-phase.js';
import type { EmbedItem, Phase } from './phase.js';

/** Tags considered so the model reuses them (SEEDS §1.8 tag hygiene); the prompt shows at most 40. */
const KNOWN_TAGS = 40;
/** Tags tonight's turns mention, shown at most. */
const TAGS_SHOWN = 20;

/** The chunks of a unit as the prompt shows them, personal data replaced. */
export async function solidifyChunks(
  night: NightContext,
  chunks: readonly number[][],
  redact: (s: string) => string,
): Promise<SolidifyChunk[]> {
  const episodes = await night.scope.episodes.getMany(chunks.flat());
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
  const counts = await store.forSpace(space).narratives.tagCounts();
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, KNOWN_TAGS)
    .map(([t]) => t);
}

/**
 * Tags worth showing with `chunks`: those tonight's turns mention (a word of the tag, any case), most used first; a
 * tag the turns never mention is rarely the one to reuse, and a long list would be paid for every call (SEEDS §1.8
 * tag hygiene).
 */
export function tagsFor(tags: readonly string[], chunks: readonly SolidifyChunk[]): string[] {
  const wordsOf = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const words = new Set(chunks.flatMap((c) => c.turns.flatMap((t) => wordsOf(t.text))));
  return tags.filter((t) => wordsOf(t).some((w) => words.has(w))).slice(0, TAGS_SHOWN);
}

/** The prompt of one batch and the entries it showed (the proposals' scope); planning prices the same prompt. */
export async function solidifyPrompt(
  night: NightContext,
  chunkIds: readonly number[][],
  redact: (s: string) => string,
  loose: readonly number[] = [],
): Promise<{ prompt: TurnPrompt; chunks: SolidifyChunk[]; episodes: Episode[]; shown: Knowledge[] }> {
  const chunks = await solidifyChunks(night, chunkIds, redact);
  const episodes = (await night.scope.episodes.getMany([...chunkIds.flat(), ...loose])).sort(
    (a, b) => a.occurredAt - b.occurredAt || a.id - b.id,
  );
  const [rest] = loose.length > 0 ? await solidifyChunks(night, [[...loose]], redact) : [];
  const byTime = new Map(episodes.map((e) => [formatId('episode', e.id), e.occurredAt]));
  const shown = await nearestEntries(night, episodes);
  const tags = tagsFor((await knownTags(night.store, night.space)).map(redact), chunks);
  const nearest = shown.map(packetEntry).map((k) => ({
    ...k,
    key: k.key ? redact(k.key) : null,
    content: clip(redact(k.content), LIBRARIAN_EPISODE_CHARS),
  }));
  const other = rest === undefined ? undefined : { ...rest, turns: [...rest.turns].sort((a, b) => (byTime.get(a.id) ?? 0) - (byTime.get(b.id) ?? 0)) };
  const prompt = buildSolidifyPrompt(
    { chunks, knownTags: tags, nearest, ...(other ? { other: other.turns } : {}) },
    { language: night.config.language },
  );
  return { prompt, chunks, episodes, shown };
}

/**
 * Solidifies one planned batch of chunks, reading its turns once: the narratives, and the librarian's proposals for
 * the same turns (checked and applied as the librarian's are), so the batch's episodes are consolidated here.
 */
export const solidifyPhase: Phase = async (night, unit) => {
  if (unit.payload.waits !== undefined) return { delta: { steps: [{ step: 'solidify', ran: false, reason: unit.payload.waits }] } };
  if (unit.payload.deferred === true) return { delta: { deferred: 1 } };
  if (night.model === undefined) return {};
  const redact = (s: string) => night.redactor.redact(s);
  const { prompt, chunks, episodes, shown } = await solidifyPrompt(night, unit.payload.chunks ?? [], redact, unit.payload.loose);
  const r = await night.ask(prompt, solidifyResponseSchema);
  if (r.kind !== 'ok') return { delta: NightContext.missed('solidify', r) };
  const { narratives, dropped } = acceptSolidified(r.value, chunks);
  const knowledge = proposalsOutcome(night, r.value.proposals, prompt.refs, episodes, shown);
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
    proposals: { narratives: ready, knowledge: knowledge.proposals },
    delta: {
      ...knowledge.delta,
      droppedItems: r.dropped + dropped,
      steps: [{ step: 'solidify', ran: true, reason: foldReason(prompt.fold) }],
    },
    apply: async (tx) => {
      const embed: EmbedItem[] = [];
      for (const n of ready) embed.push(await insertNarrative(night, tx, n));
      const applied = await knowledge.apply(tx);
      return {
        delta: combineDeltas(applied.delta, { counts: { narratives: ready.length } }),
        embed: [...embed, ...(applied.embed ?? [])],
      };
    },
  };
};
