/** Symbolic dream (SEEDS §1.8 layer 3): 3-5 symbols of the day → a dream narrative with importance fixed at 1, tag `dream`. */

import { formatId, parseId } from '../../core/ids.js';
import { insertNarrative } from '../narrative-writes.js';
import { NightContext } from '../night-context.js';
import type { NightDelta } from '../night-log.js';
import type { Narrative } from '../../core/types.js';
import {
  buildDreamPrompt,
  dreamRecords,
  dreamResponseSchema,
  type DreamInput,
} from '../prompts/dream-prompt.js';
import type { Phase } from './phase.js';

/** Today's memories shown, heaviest first. */
const MEMORIES_SHOWN = 12;

/** Dreams once over today's memories; nothing happened today, nothing to dream. */
/** A dream works on what stirred or stays open: a memory of tonight with this emotional or unresolved score. */
export const DREAM_MIN_SCORE = 3;

/** Whether tonight has something to dream about, and why (a night of calm, settled memories has none). */
export function dreamReason(today: ReadonlyArray<Pick<Narrative, 'emotional' | 'unresolved'>>): { ran: boolean; reason: string } {
  if (today.length === 0) return { ran: false, reason: 'no new memories' };
  const stirring = today.filter((n) => Math.max(n.emotional, n.unresolved) >= DREAM_MIN_SCORE).length;
  return stirring > 0
    ? { ran: true, reason: `${stirring} of ${today.length} new memories are emotional or unresolved (${DREAM_MIN_SCORE}+)` }
    : { ran: false, reason: `quiet night: ${today.length} calm, settled memories (emotional and unresolved < ${DREAM_MIN_SCORE})` };
}

export const dreamPhase: Phase = async (night) => {
  if (night.model === undefined) return {};
  const today = (
    await night.scope.narratives.list({ since: night.since, limit: 200, kind: 'narrative' })
  )
    .sort((a, b) => b.weight - a.weight || a.id - b.id)
    .slice(0, MEMORIES_SHOWN);
  const why = dreamReason(today);
  const steps: NightDelta['steps'] = [{ step: 'dream', ...why }];
  if (!why.ran) return { delta: { steps } };
  const r = (s: string) => night.redactor.redact(s);
  const input: DreamInput = {
    memories: today.map((n) => ({
      id: formatId('narrative', n.id),
      gesture: r(n.gesture ?? n.content),
      tags: n.tags.map(r),
    })),
  };
  const answer = await night.ask(
    buildDreamPrompt(input, { language: night.config.language }),
    dreamResponseSchema,
  );
  if (answer.kind !== 'ok') return { delta: { steps, ...NightContext.missed('dream', answer) } };
  const rec = dreamRecords(answer.value, input, night.config.language);
  const restore = (s: string) => night.redactor.restore(s);
  return {
    proposals: rec,
    delta: { steps, droppedItems: answer.dropped },
    apply: async (tx) => {
      const sources = rec.dream.relatedNarratives.map((i) => parseId(i).id);
      const links = (await tx.forSpace(night.space).narratives.getMany(sources)).flatMap((n) => n.sourceLinks);
      const dream = await insertNarrative(night, tx, {
        kind: 'dream',
        gesture: restore(rec.dream.gesture),
        context: restore(rec.dream.context),
        moment: restore(rec.dream.moment),
        tags: rec.dream.tags,
        sourceLinks: [...new Set(links)],
        importance: 1,
        emotional: rec.dream.emotional,
        unresolved: rec.dream.unresolved,
      });
      const reflection = await insertNarrative(night, tx, {
        kind: 'self_reflection',
        gesture: restore(rec.reflection.gesture),
        tags: rec.reflection.tags,
        importance: 2,
        emotional: rec.dream.emotional,
        unresolved: rec.dream.unresolved,
      });
      // The memories the dream drew on were "lit" by it (SEEDS §1.7 attention source `dream`).
      await tx.forSpace(night.space).attention.log(
        sources.map((id) => ({
          layer: 'narrative' as const,
          itemId: id,
          sim: 0,
          cluster: null,
          source: 'dream',
          session: null,
          at: night.asOf,
        })),
      );
      return { delta: { counts: { dreams: 1 } }, embed: [dream, reflection] };
    },
  };
};
