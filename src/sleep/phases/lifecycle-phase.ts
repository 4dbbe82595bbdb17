/** The deterministic lifecycle (SEEDS §3.4): promote, forget, archive and drop; it runs with model `none` too. */

import { DAY_MS } from '../../core/clock.js';
import { LIFECYCLE, planEpisodeRetention, planKnowledgeLifecycle } from '../../script/lifecycle-policy.js';
import { briefItem } from '../night-log.js';
import type { Phase } from './phase.js';

/** Rows one night looks at; a larger backlog is worked through over the next nights. */
const MAX_ROWS = 100_000;

/**
 * Provisional knowledge becomes reliable (≥ 3 occurrences, ≥ 7 days) or is forgotten (seen < 2 times, > 21 days,
 * never approved or open problems; status `forgotten`, kept as history, out of recall). Consolidated episodes older than 14 days move to the
 * archive; non-durable ones older than 30 days leave the live memory — into the archive as well, so nothing is
 * silently lost (DESIGN §1) and timeline still reads them. Strength needs no step: it decays at read time.
 */
export const lifecyclePhase: Phase = async (night) => {
  const { store, space, asOf } = night;
  const provisional = await store.forSpace(space).knowledge.list({ statuses: ['provisional'], limit: MAX_ROWS });
  // Being seen counts what reached the agent too (recall hits, injections), and a person's approval protects.
  const uses = await store.forSpace(space).attention.seenCounts('knowledge', provisional.map((k) => k.id));
  const plan = planKnowledgeLifecycle(
    provisional.map((k) => ({ ...k, uses: uses.get(k.id) ?? 0, approved: approvedInReview(k.meta) })),
    asOf,
  );
  const byId = new Map(provisional.map((k) => [k.id, k]));
  const candidates = await store.forSpace(space).episodes.retentionCandidates({
    consolidatedBefore: asOf - LIFECYCLE.archiveAfterDays * DAY_MS,
    createdBefore: asOf - LIFECYCLE.dropAfterDays * DAY_MS,
    limit: MAX_ROWS,
  });
  const retention = planEpisodeRetention(candidates, asOf);
  return {
    proposals: {
      promote: plan.promote,
      forget: plan.forget,
      archive: retention.archive.length,
      drop: retention.drop.length,
    },
    apply: async (tx) => {
      await tx.forSpace(space).knowledge.setStatus(plan.promote, 'reliable', asOf);
      await tx.forSpace(space).knowledge.setStatus(plan.forget, 'forgotten', asOf);
      const archived = await tx.forSpace(space).episodes.markArchived(retention.archive, asOf);
      const dropped = await tx.forSpace(space).episodes.markArchived(retention.drop, asOf);
      return {
        delta: {
          promoted: plan.promote.map((id) => briefItem(byId.get(id)!)),
          forgotten: plan.forget.map((id) => briefItem(byId.get(id)!)),
          counts: { archived, dropped },
        },
      };
    },
  };
};

/** Whether a person approved the entry in review (`meta.review`, written by app/review.ts). */
function approvedInReview(meta: Record<string, unknown>): boolean {
  const r = meta.review;
  return typeof r === 'object' && r !== null && (r as { verdict?: unknown }).verdict === 'approve';
}
