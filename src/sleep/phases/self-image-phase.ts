/** Self-image (SEEDS §3.5): what the agent works on, how the user wants things done, where it gets stuck. */

import { SELF_IMAGE_PREFIX } from '../../core/types.js';
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


/** The `job_state` key holding the ids of the entries the last self-image was written from. */
const SHOWN_KEY = 'sleep:self_image';
/** New entries among the strongest 20 it reads before the self-image is written again: half of what it reads. */
export const SELF_IMAGE_REWRITE_NEW = SELF_IMAGE_MAX_ENTRIES / 2;

/**
 * Written once there are ≥ 5 live entries, and rewritten only when 10 of the (up to 20) strongest entries it would
 * be written from are not among those the last one was written from: a self-image is what the agent mainly works on,
 * which a night or two of new facts rarely moves, and each rewrite costs a call. The decision is in the night log.
 */
export const selfImagePhase: Phase = async (night) => {
  if (night.model === undefined) return {};
  const { store, space, asOf } = night;
  if (!selfImageDue(await store.forSpace(space).knowledge.count(LIVE_STATUSES))) return {};
  const strongest = (await store.forSpace(space).knowledge.list({ statuses: LIVE_STATUSES, limit: 500 }))
    .map((k) => ({ k, s: strengthNow(k.strength, k.lastReinforcedAt, asOf) }))
    .sort((a, b) => b.s - a.s || a.k.id - b.k.id)
    .slice(0, SELF_IMAGE_MAX_ENTRIES)
    .map(({ k }) => k);
  const existing = (await store.forSpace(space).identity.selfConcept()).some((s) =>
    s.field.startsWith(SELF_IMAGE_PREFIX),
  );
  const before = new Set(shownIds(await store.forSpace(space).state.get(SHOWN_KEY)));
  const fresh = strongest.filter((k) => !before.has(k.id)).length;
  if (existing && fresh < SELF_IMAGE_REWRITE_NEW) {
    const reason = `${fresh} of the ${strongest.length} strongest entries are new since the last self-image (< ${SELF_IMAGE_REWRITE_NEW})`;
    return { delta: { steps: [{ step: 'self_image', ran: false, reason }] } };
  }
  const steps = [{ step: 'self_image', ran: true, reason: existing ? `${fresh} of the ${strongest.length} strongest entries are new` : 'no self-image yet' }];
  const entries = strongest.map((k) => ({ kind: k.kind, content: night.redactor.redact(k.content) }));
  const r = await night.ask(
    buildSelfImagePrompt({ knowledge: entries }, { language: night.config.language }),
    selfImageResponseSchema,
  );
  if (r.kind !== 'ok') return { delta: { steps, ...NightContext.missed('self_image', r) } };
  const image = { works_on: r.value.works_on, user_wants: r.value.user_wants, stuck_on: r.value.stuck_on };
  return {
    proposals: image,
    delta: { steps },
    apply: async (tx) => {
      for (const [part, text] of Object.entries(image)) {
        // The self-image shares the self_concept table under its own prefix (core/types `SelfImageField`).
        await tx.forSpace(space).identity.upsertSelfConcept(
          `${SELF_IMAGE_PREFIX}${part}`,
          night.redactor.restore(text),
          asOf,
        );
      }
      await tx.forSpace(space).state.put(SHOWN_KEY, { ids: strongest.map((k) => k.id) }, asOf);
      return { delta: { selfImageUpdated: true } };
    },
  };
};

function shownIds(state: unknown): number[] {
  const ids = (state as { ids?: unknown } | undefined)?.ids;
  return Array.isArray(ids) ? ids.filter((x): x is number => typeof x === 'number') : [];
}
