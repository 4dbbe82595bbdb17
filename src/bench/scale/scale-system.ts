// The contract of a system measured by the scale benchmark (Tidepool's store and the in-memory peers).
import type { ScaleItem } from './synthetic-episodes.js';

/** One fresh instance of a system, measured at one corpus size. */
export interface ScaleSystem {
  /** Adds many episodes in one call (the import path). */
  ingestBatch(items: readonly ScaleItem[]): Promise<void>;
  /** Adds one episode (the per-turn capture path). */
  ingestOne(item: ScaleItem): Promise<void>;
  /** Lexical recall; the result is only counted when it is an array (mean hits per query). */
  search(query: string, k: number): Promise<unknown>;
  /**
   * The source item ids (`ScaleItem.id`) of a `search` result, read outside the timer; without it the result must
   * already be an array of item ids. Used for known-item recall: is the episode a query was drawn from in the top k?
   */
  itemIds?(result: unknown): Promise<string[]>;
  /** Hybrid recall with the query's generated 384-d embedding (computed outside the timer). */
  searchHybrid?(query: string, embedding: Float32Array, k: number): Promise<unknown>;
  /**
   * The store's vector KNN alone, exact scan against the fast path (SQLite: binary pre-selection + exact re-scoring)
   * for the same query vectors: the fast path's recall@k of the exact top-k, and both latencies.
   */
  vectorAgreement?(queries: readonly Float32Array[], k: number): Promise<VectorAgreement>;
  /** Readies the vector path before hybrid queries are timed (SQLite: builds the HNSW graph); the runner times it. */
  prepareHybrid?(): Promise<void>;
  /**
   * The same agreement on `count` dense, clustered, unit-length 384-d vectors (scale/clustered-vectors.ts) stored
   * beside the episodes' under a model of their own, with the seconds the fast path took to get ready (graph build).
   */
  clusteredAgreement?(count: number, queries: number, k: number): Promise<VectorAgreement & { readySeconds: number }>;
  /** Bytes on disk (database file + WAL) or, for an in-memory peer, its serialised index. */
  dbSizeBytes?(): number | undefined | Promise<number | undefined>;
  close(): Promise<void>;
}

/** How to make a system, and what the runner must know about it before it runs. */
export interface ScaleSystemFactory {
  /** Row name: `tidepool`, `minisearch`, `orama` … */
  readonly name: string;
  /** True when items must carry embeddings and `searchHybrid` is measured. */
  readonly hybrid: boolean;
  /** `disk`: dbSizeBytes is a file size; `memory`: the whole index lives on the JS heap. */
  readonly storage: 'disk' | 'memory';
  /**
   * Where a child process finds this factory: its module's `import.meta.url` and export name. With
   * it, each run gets a process of its own (true peak RSS, crashes contained); without, runs share
   * the benchmark's process. With `args`, the export is a function that makes the factory from them (JSON values
   * only: they cross the process boundary), e.g. a database URL.
   */
  readonly ref?: { readonly module: string; readonly exportName: string; readonly args?: readonly unknown[] };
  create(): Promise<ScaleSystem>;
}

/** What {@link ScaleSystem.vectorAgreement} measured. */
export interface VectorAgreement {
  /** Share of the exact top-k the fast path also returned, averaged over queries. */
  recall: number;
  exactMs: number[];
  fastMs: number[];
}
