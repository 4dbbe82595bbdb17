/** Knowledge browsing for the dashboard: every status (quarantined included), by kind, paged. */
import { z } from 'zod';
import { formatId } from '../core/ids.js';
import { parseInput } from '../core/schemas.js';
import { KNOWLEDGE_KINDS, KNOWLEDGE_STATUSES, type KnowledgeKind, type KnowledgeStatus } from '../core/types.js';
import type { AppContext } from './app-context.js';

/** Browse input: optional kind and status filters, paging. */
export const browseKnowledgeInput = z.object({
  kind: z.enum(KNOWLEDGE_KINDS).optional(),
  status: z.enum(KNOWLEDGE_STATUSES).optional(),
  limit: z.number().int().min(1).max(500).default(50),
  offset: z.number().int().min(0).default(0),
});

/** One row of the browser. */
export interface BrowsedKnowledge {
  id: string;
  kind: KnowledgeKind;
  status: KnowledgeStatus;
  subject: string | null;
  key: string | null;
  content: string;
  occurrences: number;
  createdAt: number;
  /** Why a quarantined entry waits (from the sleep's quarantine note). */
  reason: string | null;
}

/** Lists knowledge with the filters; `counts` gives the number of entries per status (for the tabs). */
export async function browseKnowledge(ctx: AppContext, raw: unknown = {}): Promise<{ items: BrowsedKnowledge[]; counts: Record<string, number> }> {
  const input = parseInput(browseKnowledgeInput, raw ?? {});
  const rows = await ctx.scope.knowledge.list({
    ...(input.kind ? { kinds: [input.kind] } : {}),
    ...(input.status ? { statuses: [input.status] } : {}),
    limit: input.limit,
    offset: input.offset,
  });
  const counts: Record<string, number> = {};
  for (const s of KNOWLEDGE_STATUSES) counts[s] = await ctx.scope.knowledge.count([s]);
  const items = rows.map((k) => {
    const q = k.meta.quarantine as { reason?: unknown } | undefined;
    return {
      id: formatId('knowledge', k.id), kind: k.kind, status: k.status, subject: k.subject, key: k.key, content: k.content,
      occurrences: k.occurrences, createdAt: k.createdAt, reason: typeof q?.reason === 'string' ? q.reason : null,
    };
  });
  return { items, counts };
}
