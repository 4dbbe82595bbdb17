/** Embeds freshly written items after their transaction; a down embedder leaves them marked for later. */
import type { Layer } from '../core/types.js';
import type { AppContext } from './app-context.js';

/** Embeds `items` of `layer` and stores the vectors; returns how many were embedded (0 when it failed). */
export async function embedItems(
  ctx: AppContext,
  layer: Layer,
  items: ReadonlyArray<{ id: number; text: string }>,
): Promise<number> {
  const e = ctx.embedder;
  if (!e || items.length === 0) return 0;
  const cut = ctx.config.embedder.maxChars;
  let done = 0;
  for (let i = 0; i < items.length; i += 64) {
    const batch = items.slice(i, i + 64);
    let vectors: Float32Array[];
    try {
      vectors = await e.embed(batch.map((b) => b.text.slice(0, cut)));
    } catch (err) {
      // Trigger: embedder down. Why: a write must never fail for it (issue #2). Outcome: rows stay embed_pending.
      ctx.warn(`embedder ${e.model} unavailable, ${items.length - done} item(s) marked for later embedding: ${String(err)}`);
      return done;
    }
    const now = ctx.clock.now();
    await ctx.store.transaction(async (tx) => {
      for (let j = 0; j < batch.length; j++) {
        const v = vectors[j];
        if (v) await tx.forSpace(ctx.space).vectors.put(layer, batch[j]!.id, e.model, v, now);
      }
      await tx.forSpace(ctx.space).vectors.clearPending(layer, batch.map((b) => b.id));
    });
    done += batch.length;
  }
  return done;
}

/** Embeds items that were marked pending (Layer-0 tracks C/D); returns the count per layer. */
export async function embedPending(ctx: AppContext, limit = 1000): Promise<Record<Layer, number>> {
  const out: Record<Layer, number> = { episode: 0, narrative: 0, knowledge: 0 };
  if (!ctx.embedder) return out;
  for (const layer of ['episode', 'narrative', 'knowledge'] as const) {
    const items = await ctx.store.forSpace(ctx.space).vectors.pending(layer, limit);
    out[layer] = await embedItems(ctx, layer, items);
  }
  return out;
}
