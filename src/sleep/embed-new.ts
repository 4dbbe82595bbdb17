/** Embeds what a night unit wrote, after its transaction; an embedder that fails leaves the rows marked for later. */

import type { NightContext } from './night-context.js';
import type { EmbedItem } from './phases/phase.js';

/** Texts per embedder call. */
const BATCH = 64;

/**
 * Stores a vector for each item when the space has an embedder. A failure is not the night's failure: the rows
 * keep `embed_pending` and `embedPending` (app) or the next write catches up, as for every other write.
 */
export async function embedNew(night: NightContext, items: readonly EmbedItem[]): Promise<number> {
  const e = night.embedder;
  if (e === undefined || items.length === 0 || night.dryRun) return 0;
  let done = 0;
  for (let i = 0; i < items.length; i += BATCH) {
    const batch = items.slice(i, i + BATCH);
    let vectors: Float32Array[];
    try {
      vectors = await e.embed(batch.map((b) => b.text));
    } catch {
      return done;
    }
    await night.store.transaction(async (tx) => {
      for (const [j, item] of batch.entries()) {
        const v = vectors[j];
        if (v !== undefined) await tx.forSpace(night.space).vectors.put(item.layer, item.id, e.model, v, night.asOf);
      }
      for (const layer of new Set(batch.map((b) => b.layer))) {
        await tx.forSpace(night.space).vectors.clearPending(
          layer,
          batch.filter((b) => b.layer === layer).map((b) => b.id),
        );
      }
    });
    done += batch.length;
  }
  return done;
}
