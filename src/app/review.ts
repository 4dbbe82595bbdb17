/**
 * `review`: the "Needs review" list — knowledge quarantined for contradicting reliable knowledge (SEEDS §3.4) and rows
 * the night flagged for personal data in clear (DESIGN §10) — and a person's verdict on one item.
 */
import { z } from 'zod';
import { TidepoolError } from '../core/errors.js';
import { formatId, parseId } from '../core/ids.js';
import { parseInput } from '../core/schemas.js';
import type { Knowledge } from '../core/types.js';
import { spaceTransaction, type AppContext } from './app-context.js';
import type { ScopedStore } from '../store/port.js';
import { requireSpace } from './require-space.js';
import { forget } from './forget.js';
import { dropPiiFlag, pendingPiiFlags } from '../sleep/pii-flags.js';

/** Why the night held an entry back, as it recorded it in `meta.quarantine`. */
interface Quarantine {
  conflictsWith?: number;
  supersedes?: number;
  key?: string | null;
  reason?: string;
}

/** One item waiting for review. */
export interface ReviewItem {
  id: string;
  /** A knowledge entry's kind, or the layer of a flagged episode or narrative. */
  kind: Knowledge['kind'] | 'episode' | 'narrative';
  content: string;
  reason: string;
  /** The kinds of personal data found in clear (email, phone, iban, card, address, name), for a flagged row. */
  personalData?: string[];
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

/**
 * What a verdict did: approval makes a quarantined entry reliable (and replaces what it contradicted), or keeps a
 * flagged row as it is; rejection forgets a quarantined entry, or erases a flagged row with every copy (`forget`).
 */
export type ReviewResult =
  | { kind: 'approved'; id: string; status: 'reliable' | 'kept'; replaced: string | null }
  | { kind: 'rejected'; id: string; status: 'forgotten' };

const PII_WORDS: Record<string, string> = {
  email: 'an e-mail address',
  phone: 'a phone number',
  iban: 'an IBAN',
  card: 'a card number',
  address: 'a postal address',
  name: 'the name of a private person',
};

/** Why a flagged row waits: the kinds of personal data in clear, in words. */
function piiReason(kinds: readonly string[]): string {
  return `holds ${kinds.map((k) => PII_WORDS[k] ?? k).join(', ')} in clear: keep it (approve) or forget it (reject)`;
}

function quarantineOf(k: Knowledge): Quarantine {
  const q = k.meta.quarantine;
  return typeof q === 'object' && q !== null ? (q as Quarantine) : {};
}

/** Quarantined entries, oldest first, each with the entry it clashes with. */
export async function listReview(ctx: AppContext): Promise<ReviewItem[]> {
  await requireSpace(ctx);
  const rows = (await ctx.scope.knowledge.list({ statuses: ['quarantined'], limit: 1_000 })).sort(
    (a, b) => a.createdAt - b.createdAt || a.id - b.id,
  );
  const others = await ctx.scope.knowledge.getMany(
    rows
      .map((k) => quarantineOf(k).supersedes ?? quarantineOf(k).conflictsWith)
      .filter((x): x is number => x !== undefined),
  );
  const byId = new Map(others.map((k) => [k.id, k]));
  const quarantined = rows.map((k) => {
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
  return [...quarantined, ...(await flaggedItems(ctx))].sort((a, b) => a.createdAt - b.createdAt);
}

/** The rows flagged for personal data that still exist, with their text as stored (the person decides on it). */
async function flaggedItems(ctx: AppContext): Promise<ReviewItem[]> {
  const out: ReviewItem[] = [];
  for (const f of await pendingPiiFlags(ctx.store, ctx.space)) {
    const row = await flaggedRow(ctx.scope, f.ref);
    if (row === undefined) continue; // forgotten since: nothing left to decide
    out.push({
      id: f.ref,
      kind: row.kind,
      content: row.content,
      reason: piiReason(f.kinds),
      personalData: f.kinds,
      against: null,
      createdAt: f.at,
    });
  }
  return out;
}

async function flaggedRow(
  scope: ScopedStore,
  ref: string,
): Promise<{ kind: ReviewItem['kind']; content: string } | undefined> {
  const { layer, id } = parseId(ref);
  if (layer === 'episode') {
    const e = (await scope.episodes.getMany([id]))[0];
    return e && { kind: 'episode', content: e.content };
  }
  if (layer === 'narrative') {
    const n = (await scope.narratives.getMany([id]))[0];
    return n && { kind: 'narrative', content: n.content };
  }
  const k = await scope.knowledge.get(id);
  return k && k.status !== 'forgotten' ? { kind: k.kind, content: k.content } : undefined;
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
  const flag = (await pendingPiiFlags(ctx.store, ctx.space)).find((f) => f.ref === formatId(layer, id));
  if (flag !== undefined) return decidePersonalData(ctx, flag.ref, input.verdict);
  if (layer !== 'knowledge')
    throw new TidepoolError('invalid_input', `id: review takes a knowledge id (k12), got "${input.id}"`, {
      field: 'id',
    });
  const now = ctx.clock.now();
  return spaceTransaction(ctx, async (scope): Promise<ReviewResult> => {
    const k = await scope.knowledge.get(id);
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
      await scope.knowledge.setStatus([k.id], 'forgotten', now);
      await scope.knowledge.update(k.id, { meta }, undefined, now);
      return { kind: 'rejected', id: formatId('knowledge', k.id), status: 'forgotten' };
    }
    const otherId = q.supersedes ?? q.conflictsWith;
    const other = otherId === undefined ? undefined : await scope.knowledge.get(otherId);
    const live = other !== undefined && (other.status === 'reliable' || other.status === 'provisional');
    const key = q.key ?? (live ? other.key : null);
    // The superseded entry keeps its key as history (`forget --key` reaches every version); the live key moves on.
    if (live) await scope.knowledge.supersede(other.id, k.id, now);
    if (key) {
      const holder = await scope.knowledge.getLiveByKey(key);
      if (holder && holder.id !== k.id)
        throw new TidepoolError(
          'conflict',
          `key "${key}" is held by ${formatId('knowledge', holder.id)}; review that entry first`,
          { field: 'id' },
        );
      await scope.knowledge.setKey(k.id, key, now);
    }
    await scope.knowledge.setStatus([k.id], 'reliable', now);
    await scope.knowledge.update(k.id, { meta }, undefined, now);
    return {
      kind: 'approved',
      id: formatId('knowledge', k.id),
      status: 'reliable',
      replaced: live ? formatId('knowledge', other.id) : null,
    };
  });
}

/**
 * A verdict on a row flagged for personal data: approve keeps the row as it is (the person wants it remembered);
 * reject erases it with every copy through `forget`, the one erasure path. Either way the flag leaves the queue.
 */
async function decidePersonalData(ctx: AppContext, ref: string, verdict: 'approve' | 'reject'): Promise<ReviewResult> {
  const now = ctx.clock.now();
  if (verdict === 'reject') {
    await forget(ctx, { id: ref });
    await ctx.store.transaction((tx) => dropPiiFlag(tx, ctx.space, [ref], now));
    return { kind: 'rejected', id: ref, status: 'forgotten' };
  }
  await ctx.store.transaction((tx) => dropPiiFlag(tx, ctx.space, [ref], now));
  return { kind: 'approved', id: ref, status: 'kept', replaced: null };
}
