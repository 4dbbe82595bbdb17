/** What every use case receives: the store, the configuration, the clock, the embedder and the space. */
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Embedder } from '../core/embedder.js';
import type { Warn } from '../core/warning.js';
import type { Store } from '../store/port.js';
import type { RecallHit } from '../core/types.js';
import type { RecallRequest } from '../retrieval/recall-pipeline.js';

/** Dependencies of the use cases, assembled by boot/. */
export interface AppContext {
  readonly store: Store;
  readonly config: Config;
  readonly clock: Clock;
  readonly embedder: Embedder | undefined;
  /** The space every call works in. */
  readonly space: string;
  /** Diagnostics sink (stderr in the CLI); never receives memory content. */
  readonly warn: (message: string) => void;
  /** Other threads that answer recall's reads (`tidepool serve --http`); absent, recall reads on this thread. */
  readonly readers?: RecallReaders;
}

/**
 * Runs recall's read part (`runRecall`, no side effects) on other threads, each with its own read-only connection
 * (boot/reader-pool.ts). The hits' reinforcement and attention log stay on the caller's thread, the single writer.
 */
export interface RecallReaders {
  /**
   * The same hits `runRecall` would give for this request at `now`; the query is embedded by `embedder` first, and
   * `warn` is told when that fails (the hits then come from words only).
   */
  recall(space: string, req: RecallRequest, now: number, embedder: Embedder | undefined, warn?: Warn): Promise<RecallHit[]>;
}
