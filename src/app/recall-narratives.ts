/** `memory_recall` (Tideline): the newest narratives, optionally of one type or carrying any of some tags. */
import { z } from 'zod';
import { formatId } from '../core/ids.js';
import { label, parseInput } from '../core/schemas.js';
import type { Narrative } from '../core/types.js';
import type { AppContext } from './app-context.js';
import { noteHits } from './recall.js';
import { requireSpace } from './require-space.js';

/** Tideline's parameters (SEEDS §1.4): limit 10, narrative_type, tags (match any). */
export const recallNarrativesInput = z.object({
  limit: z.number().int().min(1).max(200).default(10),
  narrative_type: z.enum(['gesture', 'context', 'moment', 'self_reflection', 'general']).optional(),
  tags: z.array(label).max(50).optional(),
});

/** Lists narratives newest first; each one returned is logged as browsing attention (`recall`, sim 0). */
export async function recallNarratives(ctx: AppContext, raw: unknown = {}): Promise<Narrative[]> {
  const input = parseInput(recallNarrativesInput, raw ?? {});
  await requireSpace(ctx);
  const rows = await ctx.scope.narratives.list({ limit: input.limit, ntype: input.narrative_type, tags: input.tags });
  if (rows.length > 0) await noteHits(ctx, rows.map((n) => ({ id: formatId('narrative', n.id), score: 0 })), 'recall', null, ctx.clock.now());
  return rows;
}
