/** The one embedding loop: vectors for freshly written rows, after their transaction; a failure is reported, not thrown. */
import type { Embedder } from '../core/embedder.js';
import type { Layer } from '../core/types.js';
import type { Store } from '../store/port.js';

/** A row to embed. */
export interface EmbedRow {
  layer: Layer;
  id: number;
  text: string;
}

/** Where the vectors go. */
export interface EmbedDeps {
  store: Store;
  embedder: Embedder;
  space: string;
  /** The time stored with each vector. */
  now: () => number;
  /** Text past this many characters is not sent (config `embedder.maxChars`); all of it when absent. */
  maxChars?: number;
}

/** What happened: rows embedded, rows left marked `embed_pending`, and the first error when some were left. */
export interface EmbedOutcome {
  embedded: number;
  failed: number;
  error?: string;
}

/** Texts per embedder call. */
const BATCH = 64;

/**
 * Stores a vector for each row, `BATCH` texts per call. A failing embedder never fails the write that called it
 * (issue #2): the rows keep `embed_pending` for `embedPending` or the next write, and the outcome says how many
 * and why, for the caller to warn (issue #19: failures speak).
 */
export async function embedNew(deps: EmbedDeps, rows: readonly EmbedRow[]): Promise<EmbedOutcome> {
  const { store, embedder: e, space } = deps;
  let embedded = 0;
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    let vectors: Float32Array[];
    try {
      vectors = await e.embed(batch.map((b) => (deps.maxChars === undefined ? b.text : b.text.slice(0, deps.maxChars))));
    } catch (err) {
      return { embedded, failed: rows.length - embedded, error: err instanceof Error ? err.message : String(err) };
    }
    const now = deps.now();
    await store.transaction(async (tx) => {
      for (const [j, row] of batch.entries()) {
        const v = vectors[j];
        if (v !== undefined) await tx.forSpace(space).vectors.put(row.layer, row.id, e.model, v, now);
      }
      for (const layer of new Set(batch.map((b) => b.layer))) {
        await tx.forSpace(space).vectors.clearPending(layer, batch.filter((b) => b.layer === layer).map((b) => b.id));
      }
    });
    embedded += batch.length;
  }
  return { embedded, failed: 0 };
}
