/** `know`: knowledge lookup by subject, query and kind; reliable and provisional entries only, never quarantined. */
import { z } from 'zod';
import { formatId, parseId } from '../core/ids.js';
import { label, parseInput } from '../core/schemas.js';
import { KNOWLEDGE_KINDS, type Knowledge, type KnowledgeKind } from '../core/types.js';
import { RECALLABLE } from '../retrieval/recall-pipeline.js';
import { strengthNow } from '../script/strength.js';
import type { AppContext } from './app-context.js';
import { recall } from './recall.js';
import { requireSpace } from './require-space.js';

/** `know` input: any of a free-text query, a subject and kinds; none lists the strongest live knowledge. */
export const knowInput = z.object({
  query: z.string().trim().min(1, 'must not be empty').max(10_000).optional(),
  subject: label.optional(),
  kinds: z.array(z.enum(KNOWLEDGE_KINDS)).min(1).optional(),
  limit: z.number().int().min(1).max(100).default(10),
});
/** Input of `know` as a caller writes it. */
export type KnowInput = z.input<typeof knowInput>;

/** One knowledge entry as `know` shows it, on every surface (fields snake_case, id as `k7`: docs/http.md). */
export interface KnownEntry {
  id: string;
  kind: KnowledgeKind;
  status: Knowledge['status'];
  subject: string | null;
  key: string | null;
  content: string;
  /** Strength decayed to now (0..1). */
  strength: number;
  occurrences: number;
  tags: string[];
  created_at: number;
  valid_from: number | null;
  valid_to: number | null;
}

function toEntry(k: Knowledge, now: number): KnownEntry {
  return {
    id: formatId('knowledge', k.id), kind: k.kind, status: k.status, subject: k.subject, key: k.key, content: k.content,
    strength: Math.round(strengthNow(k.strength, k.lastReinforcedAt, now) * 1000) / 1000, occurrences: k.occurrences,
    tags: k.tags, created_at: k.createdAt, valid_from: k.validFrom, valid_to: k.validTo,
  };
}

/**
 * Looks knowledge up. With a query it searches (hits are reinforced and logged like recall); without one it lists
 * the subject's or kind's live entries, reliable first, then by strength.
 */
export async function know(ctx: AppContext, raw: KnowInput = {}): Promise<KnownEntry[]> {
  const input = parseInput(knowInput, raw ?? {});
  await requireSpace(ctx);
  const now = ctx.clock.now();
  const sameSubject = (k: Knowledge) => !input.subject || (k.subject ?? '').toLowerCase() === input.subject.toLowerCase();
  if (input.query) {
    // Ask for more than `limit`: the subject filter runs after the search.
    const hits = await recall(ctx, { query: input.query, layers: ['knowledge'], kinds: input.kinds, limit: input.subject ? input.limit * 5 : input.limit });
    const rows = await ctx.scope.knowledge.getMany(hits.map((h) => parseId(h.id).id));
    const byId = new Map(rows.map((k) => [k.id, k]));
    return hits
      .map((h) => byId.get(parseId(h.id).id))
      .filter((k): k is Knowledge => k !== undefined && RECALLABLE.includes(k.status) && sameSubject(k))
      .slice(0, input.limit)
      .map((k) => toEntry(k, now));
  }
  const rows = await ctx.scope.knowledge.list({ kinds: input.kinds, statuses: RECALLABLE, limit: 500 });
  return rows
    .filter(sameSubject)
    .map((k) => toEntry(k, now))
    .sort((a, b) => Number(b.status === 'reliable') - Number(a.status === 'reliable') || b.strength - a.strength || b.created_at - a.created_at)
    .slice(0, input.limit);
}
