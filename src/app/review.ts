/** `review`: the "Needs review" list of quarantined knowledge, and a person's verdict on one entry (SEEDS §3.4). */
import { z } from 'zod';
import { TidepoolError } from '../core/errors.js';
import { formatId, parseId } from '../core/ids.js';
import { parseInput } from '../core/schemas.js';
import type { Knowledge } from '../core/types.js';
import type { AppContext } from './app-context.js';
import { requireSpace } from './require-space.js';

/** Why the night held an entry back, as it recorded it in `meta.quarantine`. */
interface Quarantine {
  conflictsWith?: number;
  supersedes?: number;
  key?: string | null;
  reason?: string;
}

/** One entry waiting for review. */
export interface ReviewItem {
  id: string;
  kind: Knowledge['kind'];
  content: string;
  reason: string;
  /** The reliable entry it contradicts or would replace. */
  against: { id: string; content: string; status: Knowledge['status'] } | null;
  createdAt: number;
}

/** A person's verdict on a quarantined entry. */
export const reviewVerdict = z.enum(['approve', 'reject']);

/** `review` verdict input. */
export const reviewInput = z.object({
  id: z.string().trim().min(1),
  verdict: reviewVerdict,
});
/** The body of `POST /v1/knowledge/:id/review` (REST and the dashboard): the verdict under its HTTP name. */
export const reviewBody = z.object({ decision: reviewVerdict }).strict();
/** Input of `review` as a caller writes it. */
export type ReviewInput = z.input<typeof reviewInput>;

/** What a verdict did: approval makes the entry reliable (and replaces what it contradicted), rejection forgets it. */
export type ReviewResult =
  | { kind: 'approved'; id: string; status: 'reliable'; replaced: string | null }
  | { kind: 'rejected'; id: string; status: 'forgotten' };

function quarantineOf(k: Knowledge): Quarantine {
  const q = k.meta.quarantine;
  return typeof q === 'object' && q !== null ? (q as Quarantine) : {};
}

/** Quarantined entries, oldest first, each with the entry it clashes with. */
export async function listReview(ctx: AppContext): Promise<ReviewItem[]> {
  await requireSpace(ctx);
  const rows = (await ctx.store.knowledge.list(ctx.space, { statuses: ['quarantined'], limit: 1_000 })).sort(
    (a, b) => a.createdAt - b.createdAt || a.id - b.id,
  );
  const others = await ctx.store.knowledge.getMany(
    ctx.space,
    rows
      .map((k) => quarantineOf(k).supersedes ?? quarantineOf(k).conflictsWith)
      .filter((x): x is number => x !== undefined),
  );
  const byId = new Map(others.map((k) => [k.id, k]));
  return rows.map((k) => {
    const q = quarantineOf(k);
    const other = byId.get(q.supersedes ?? q.conflictsWith ?? -1);
    return {
      id: formatId('knowledge', k.id),
      kind: k.kind,
      content: k.content,
      reason: q.reason ?? 'contradicts reliable knowledge',
      against: other
        ? { id: formatId('knowledge', other.id), content: other.content, status: other.status }
        : null,
      createdAt: k.createdAt,
    };
  });
}

/**
 * Applies a verdict — the one review path of every surface (CLI, MCP, REST, dashboard). approve: a person vouches
 * for the entry, so it becomes **reliable** at once, and the entry it contradicted (`conflictsWith`) or would replace
 * (`supersedes`) is superseded by it (kept as history), handing over its key. reject: the proposal is forgotten
 * (kept as history, never recalled). The verdict is stamped in `meta.review`; the lifecycle never forgets an
 * approved entry.
 */
export async function review(ctx: AppContext, raw: ReviewInput): Promise<ReviewResult> {
  const input = parseInput(reviewInput, raw);
  await requireSpace(ctx);
  const { layer, id } = parseId(input.id);
  if (layer !== 'knowledge')
    throw new TidepoolError('invalid_input', `id: review takes a knowledge id (k12), got "${input.id}"`, {
      field: 'id',
    });
  const now = ctx.clock.now();
  return ctx.store.transaction(async (tx): Promise<ReviewResult> => {
    const k = await tx.knowledge.get(ctx.space, id);
    if (!k)
      throw new TidepoolError('not_found', `no knowledge entry ${input.id} in space "${ctx.space}"`, {
        field: 'id',
      });
    if (k.status !== 'quarantined') {
      throw new TidepoolError(
        'conflict',
        `${input.id} is ${k.status}, not waiting for review (tidepool review lists what is)`,
        { field: 'id' },
      );
    }
    const q = quarantineOf(k);
    const meta = { ...k.meta, review: { verdict: input.verdict, at: now } };
    if (input.verdict === 'reject') {
      await tx.knowledge.setStatus(ctx.space, [k.id], 'forgotten', now);
      await tx.knowledge.update(ctx.space, k.id, { meta }, undefined, now);
      return { kind: 'rejected', id: formatId('knowledge', k.id), status: 'forgotten' };
    }
    const otherId = q.supersedes ?? q.conflictsWith;
    const other = otherId === undefined ? undefined : await tx.knowledge.get(ctx.space, otherId);
    const live = other !== undefined && (other.status === 'reliable' || other.status === 'provisional');
    const key = q.key ?? (live ? other.key : null);
    // The superseded entry keeps its key as history (`forget --key` reaches every version); the live key moves on.
    if (live) await tx.knowledge.supersede(ctx.space, other.id, k.id, now);
    if (key) {
      const holder = await tx.knowledge.getLiveByKey(ctx.space, key);
      if (holder && holder.id !== k.id)
        throw new TidepoolError(
          'conflict',
          `key "${key}" is held by ${formatId('knowledge', holder.id)}; review that entry first`,
          { field: 'id' },
        );
      await tx.sleep.setKnowledgeKey(ctx.space, k.id, key, now);
    }
    await tx.knowledge.setStatus(ctx.space, [k.id], 'reliable', now);
    await tx.knowledge.update(ctx.space, k.id, { meta }, undefined, now);
    return {
      kind: 'approved',
      id: formatId('knowledge', k.id),
      status: 'reliable',
      replaced: live ? formatId('knowledge', other.id) : null,
    };
  });
}
