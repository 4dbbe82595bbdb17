/** Self-image (SEEDS §3.5): what the agent works on, how the user wants things done, where it gets stuck. */

import { strengthNow } from '../../script/strength.js';
import { LIVE_STATUSES } from '../knowledge-writes.js';
import { NightContext } from '../night-context.js';
import {
  buildSelfImagePrompt,
  selfImageDue,
  selfImageResponseSchema,
  SELF_IMAGE_MAX_ENTRIES,
} from '../prompts/self-image-prompt.js';
import type { Phase } from './phase.js';

/** Field prefix under which the parts are stored in `self_concept` (read back by app/read-derived `readSelf`). */
export const SELF_IMAGE_FIELD_PREFIX = 'self_image.';

/**
 * Written once there are ≥ 5 live entries, and rewritten only on a night that changed knowledge (new, updated,
 * merged or promoted entries) or while none exists: an unchanged memory gets no new self-image for tokens.
 */
export const selfImagePhase: Phase = async (night) => {
  if (night.model === undefined) return {};
  const { store, space, asOf } = night;
  if (!selfImageDue(await store.knowledge.count(space, LIVE_STATUSES))) return {};
  const log = night.progress();
  const changed = log.created.length + log.superseded.length + log.promoted.length + log.counts.merged > 0;
  const existing = (await store.identity.selfConcept(space)).some((s) =>
    s.field.startsWith(SELF_IMAGE_FIELD_PREFIX),
  );
  if (existing && !changed) return {};
  const entries = (await store.knowledge.list(space, { statuses: LIVE_STATUSES, limit: 500 }))
    .map((k) => ({ k, s: strengthNow(k.strength, k.lastReinforcedAt, asOf) }))
    .sort((a, b) => b.s - a.s || a.k.id - b.k.id)
    .slice(0, SELF_IMAGE_MAX_ENTRIES)
    .map(({ k }) => ({ kind: k.kind, content: night.redactor.redact(k.content) }));
  const r = await night.ask(
    buildSelfImagePrompt({ knowledge: entries }, { language: night.config.language }),
    selfImageResponseSchema,
  );
  if (r.kind !== 'ok') return { delta: NightContext.missed('self_image', r) };
  const image = { works_on: r.value.works_on, user_wants: r.value.user_wants, stuck_on: r.value.stuck_on };
  return {
    proposals: image,
    apply: async (tx) => {
      for (const [part, text] of Object.entries(image)) {
        // The self-image shares the self_concept table under its own prefix; the domain type lists Tideline's fields only.
        await tx.identity.upsertSelfConcept(
          space,
          `${SELF_IMAGE_FIELD_PREFIX}${part}` as never,
          night.redactor.restore(text),
          asOf,
        );
      }
      return { delta: { selfImageUpdated: true } };
    },
  };
};
