/** What every use case receives: the store, its view bound to the space, the configuration, the clock, the embedder. */
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Embedder } from '../core/embedder.js';
import type { Warn } from '../core/warning.js';
import type { ScopedStore, Store } from '../store/port.js';
import type { RecallHit } from '../core/types.js';
import type { RecallRequest } from '../retrieval/recall-pipeline.js';

/** Dependencies of the use cases, assembled by boot/: everything but the space binding. */
export interface AppDeps {
  /** The whole store: what spans spaces (registry, tokens, export rows, transactions). A space's rows: `scope`. */
  readonly store: Store;
  readonly config: Config;
  readonly clock: Clock;
  readonly embedder: Embedder | undefined;
  /** Diagnostics sink (stderr in the CLI); never receives memory content. */
  readonly warn: (message: string) => void;
  /** Other threads that answer recall's reads (`tidepool serve --http`); absent, recall reads on this thread. */
  readonly readers?: RecallReaders;
}

/** What every use case receives: the dependencies bound to one space by {@link bindSpace}. */
export interface AppContext extends AppDeps {
  /** The space every call works in. */
  readonly space: string;
  /**
   * The space's ports, bound once (`store.forSpace(space)`, STYLE §10 "scope once"): use cases read and write their
   * space through it, so none names a space by hand. A transaction's is bound by {@link spaceTransaction}.
   */
  readonly scope: ScopedStore;
}

/**
 * The one way to make a context: binds `deps` to `space`. A context copied with another space (`{ ...ctx, space }`)
 * would keep the old scope, so every change of space goes through here (the facade's constructor, the scheduler).
 * @example const other = bindSpace(ctx, 'team')
 */
export function bindSpace(deps: AppDeps, space: string): AppContext {
  return { ...deps, space, scope: deps.store.forSpace(space) };
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

/**
 * Runs `fn` in one write transaction of the context's store, with the transaction bound to the context's space once:
 * `scope` is `tx.forSpace(ctx.space)`, what `ctx.scope` is outside; `tx` is the unbound transaction, for what spans
 * spaces (the space registry, row erasure) and for helpers that take a store.
 * @example await spaceTransaction(ctx, (scope) => scope.derived.replaceTopicClusters(clusters))
 */
export function spaceTransaction<T>(ctx: AppContext, fn: (scope: ScopedStore, tx: Store) => Promise<T>): Promise<T> {
  return ctx.store.transaction((tx) => fn(tx.forSpace(ctx.space), tx));
}
