/**
 * Review of quarantined knowledge (the briefing's "Needs review"): approve makes the entry reliable and, when it was
 * held back from replacing a reliable entry, supersedes that one and takes its key; reject forgets it (SEEDS §3.4).
 */
import { z } from 'zod';
import { TidepoolError } from '../core/errors.js';
import { formatId, parseId } from '../core/ids.js';
import { parseInput } from '../core/schemas.js';
import type { AppContext } from './app-context.js';

/** `review` input: a knowledge id (`k7`) and the decision. */
export const reviewInput = z.object({ id: z.string().min(1), decision: z.enum(['approve', 'reject']) }).strict();

/** What a review did. */
export interface ReviewResult {
  id: string;
  status: 'reliable' | 'forgotten';
  /** The entry an approval superseded, when there was one. */
  superseded?: string;
}

/** Approves or rejects one quarantined entry; anything not quarantined is `conflict`, an unknown id `not_found`. */
export async function reviewKnowledge(ctx: AppContext, raw: unknown): Promise<ReviewResult> {
  const input = parseInput(reviewInput, raw);
  const { layer, id } = parseId(input.id);
  if (layer !== 'knowledge') throw new TidepoolError('invalid_input', 'id must name a knowledge entry (k…)', { field: 'id' });
  const now = ctx.clock.now();
  return ctx.store.transaction(async (tx) => {
    const k = await tx.knowledge.get(ctx.space, id);
    if (!k) throw new TidepoolError('not_found', `no knowledge entry ${input.id}`, { field: 'id' });
    if (k.status !== 'quarantined') throw new TidepoolError('conflict', `${input.id} is ${k.status}, not waiting for review`, { field: 'id' });
    if (input.decision === 'reject') {
      await tx.knowledge.setStatus(ctx.space, [id], 'forgotten', now);
      return { id: input.id, status: 'forgotten' as const };
    }
    await tx.knowledge.setStatus(ctx.space, [id], 'reliable', now);
    const q = (k.meta.quarantine ?? {}) as { supersedes?: unknown; key?: unknown };
    const old = typeof q.supersedes === 'number' ? await tx.knowledge.get(ctx.space, q.supersedes) : undefined;
    if (!old || old.status === 'superseded' || old.status === 'forgotten') return { id: input.id, status: 'reliable' as const };
    await tx.knowledge.supersede(ctx.space, old.id, id, now);
    const key = typeof q.key === 'string' ? q.key : old.key;
    if (key) {
      await tx.sleep.setKnowledgeKey(ctx.space, old.id, null, now);
      await tx.sleep.setKnowledgeKey(ctx.space, id, key, now);
    }
    return { id: input.id, status: 'reliable' as const, superseded: formatId('knowledge', old.id) };
  });
}
