/** Stored vectors, one per item and model. */
import type { Layer } from '../../core/types.js';

/** How a vector search may trade exactness for speed. */
export interface NearestOptions {
  /** SQLite: sets larger than this use the binary pre-selection (absent: always exact; 0: always binary). */
  quantizeAbove?: number;
  /**
   * SQLite with hnswlib-node installed: sets of at least this many vectors are searched through an HNSW graph whose
   * candidates the exact cosine re-scores (absent: the exact scan). PostgreSQL uses pgvector's HNSW when it has it.
   */
  indexAbove?: number;
}

/** Stored vectors, one per item and model. */
export interface VectorStore {
  put(layer: Layer, itemId: number, model: string, vector: Float32Array, at: number): Promise<void>;
  /**
   * Cosine top-k over the space's vectors of `model` in `layer`: exact, or through an engine's index (pgvector HNSW;
   * SQLite's opt-in binary pre-selection with exact re-scoring past `opts.quantizeAbove` vectors).
   */
  nearest(
    layer: Layer,
    model: string,
    query: Float32Array,
    k: number,
    opts?: NearestOptions,
  ): Promise<Array<{ id: number; score: number }>>;
  /** Items marked for later embedding (the embedder was down). */
  pending(layer: Layer, limit: number): Promise<Array<{ id: number; text: string }>>;
  clearPending(layer: Layer, ids: readonly number[]): Promise<void>;
  count(model?: string): Promise<number>;
  /** Models and dimensions of the space's narrative vectors, most vectors first. */
  narrativeModels(): Promise<Array<{ model: string; dim: number; count: number }>>;
  /** Narrative vectors of one model and dimension, ascending narrative id. */
  narrativeVectors(model: string, dim: number): Promise<Array<{ id: number; vector: Float32Array }>>;
  /** How many items of a layer wait for an embedding, and the first `limit` ids. */
  pendingEmbeddings(layer: Layer, limit: number): Promise<{ count: number; ids: number[] }>;
}
