/** Embeds freshly written items after their transaction; a down embedder leaves them marked for later, and says so. */
import type { Layer } from '../core/types.js';
import { embedNew, type EmbedOutcome } from '../sleep/embed-new.js';
import type { AppContext } from './app-context.js';
import { noteWarning } from './warnings.js';

/**
 * Embeds `items` of `layer` and stores the vectors through the one embedding loop (sleep/embed-new.ts); a failure
 * is a warning (log and doctor) and the outcome says how many were left for later.
 */
export async function embedItems(
  ctx: AppContext,
  layer: Layer,
  items: ReadonlyArray<{ id: number; text: string }>,
): Promise<EmbedOutcome> {
  const e = ctx.embedder;
  if (!e || items.length === 0) return { embedded: 0, failed: 0 };
  const out = await embedNew(
    { store: ctx.store, embedder: e, space: ctx.space, now: () => ctx.clock.now(), maxChars: ctx.config.embedder.maxChars },
    items.map((i) => ({ layer, id: i.id, text: i.text })),
  );
  if (out.failed > 0) {
    noteWarning(ctx, 'embed_failed', `embedder ${e.model} unavailable, ${out.failed} ${layer} item(s) marked for later embedding: ${out.error ?? ''}`);
  }
  return out;
}

/** Embeds items that were marked pending (Layer-0 tracks C/D); returns the count embedded per layer. */
export async function embedPending(ctx: AppContext, limit = 1000): Promise<Record<Layer, number>> {
  const out: Record<Layer, number> = { episode: 0, narrative: 0, knowledge: 0 };
  if (!ctx.embedder) return out;
  for (const layer of ['episode', 'narrative', 'knowledge'] as const) {
    const items = await ctx.scope.vectors.pending(layer, limit);
    out[layer] = (await embedItems(ctx, layer, items)).embedded;
  }
  return out;
}
