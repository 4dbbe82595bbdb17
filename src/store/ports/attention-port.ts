/** The attention log. */
import type { Layer } from '../../core/types.js';

/** One attention-log entry. */
export interface AttentionEntry {
  layer: Layer;
  itemId: number;
  sim: number;
  cluster: string | null;
  source: string;
  session: string | null;
  at: number;
}

/** The attention log and its per-cluster stats. */
export interface AttentionStore {
  log(entries: readonly AttentionEntry[]): Promise<void>;
  since(from: number): Promise<AttentionEntry[]>;
  /**
   * How often each of `ids` (of `layer`) reached the agent: recall and search hits, context and prefetch injections
   * (the night's dream reads do not count). Ids never seen are absent.
   */
  seenCounts(layer: Layer, ids: readonly number[]): Promise<Map<number, number>>;
  /** Ids already injected into `session` (prefetch never repeats them). */
  injectedInSession(session: string): Promise<Array<{ layer: Layer; itemId: number }>>;
}
