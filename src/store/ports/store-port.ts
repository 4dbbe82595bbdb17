/** The whole store, declared once: the entity ports, the cross-space areas, transactions and engine upkeep. */
import type { Layer } from '../../core/types.js';
import type { AttentionStore } from './attention-port.js';
import type { ContinuityStore } from './continuity-port.js';
import type { DerivedStore } from './derived-port.js';
import type { EpisodeStore } from './episodes-port.js';
import type { IdentityStore } from './identity-port.js';
import type { JobClaims } from './jobs-port.js';
import type { JournalStore } from './journal-rows-port.js';
import type { KnowledgeStore } from './knowledge-port.js';
import type { NarrativeStore } from './narratives-port.js';
import type { RowStore } from './rows-port.js';
import type { SearchUpkeep, SpaceSearch } from './search-port.js';
import type { SleepRunStore } from './sleep-runs-port.js';
import type { SpaceStore } from './spaces-port.js';
import type { StateStore } from './state-port.js';
import type { TokenStore } from './tokens-port.js';
import type { VectorStore } from './vectors-port.js';

/** Facts about the engine for `doctor`. */
export interface StoreInfo {
  engine: 'sqlite' | 'postgres';
  location: string;
  schemaVersion: number;
  versions: Record<string, string>;
  features: Record<string, boolean>;
  integrity: string;
}

/** What {@link Store.purge} could do. */
export interface PurgeResult {
  /** False when part of it could not finish now (a SQLite reader kept the WAL busy); the next purge retries it. */
  complete: boolean;
  /** Milliseconds it took. */
  ms: number;
}

/** The entity ports of one space: every read and write stays inside it (issue 19: no query scopes itself by hand). */
export interface ScopedStore {
  readonly space: string;
  readonly episodes: EpisodeStore;
  readonly narratives: NarrativeStore;
  readonly knowledge: KnowledgeStore;
  readonly identity: IdentityStore;
  readonly attention: AttentionStore;
  readonly vectors: VectorStore;
  readonly search: SpaceSearch;
  readonly derived: DerivedStore;
  readonly continuity: ContinuityStore;
  readonly journal: JournalStore;
  readonly sleepRuns: SleepRunStore;
  readonly state: StateStore;
}

/**
 * The whole store. App code reaches a space's rows only through {@link Store.forSpace}; what spans spaces stays
 * here: the space registry, API tokens, row dump/load/erase for export and restore, job leases, index upkeep.
 */
export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Statements outside a transaction may run on several connections at once (a node-postgres pool; not SQLite,
   * PGlite or a transaction): a recall then keeps its own to two at once (`withStatementShare`).
   */
  readonly pooled?: boolean;
  /** The entity ports bound to `space` (of this store, or of the transaction this store is bound to). */
  forSpace(space: string): ScopedStore;
  readonly spaces: SpaceStore;
  readonly tokens: TokenStore;
  readonly rows: RowStore;
  readonly jobs: JobClaims;
  /** Index upkeep that is not scoped to a space (a search reads through `forSpace(space).search`). */
  readonly search: SearchUpkeep;
  /** Runs `fn` with a store bound to one write transaction: all or nothing. */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /**
   * Erasure to the byte (issue 22): after rows were deleted, removes what the engine's files still keep of them.
   * SQLite rewrites the touched full-text indexes (FTS5 keeps deleted tokens in its segments until they merge) and
   * checkpoints and truncates the WAL (deleted pages are zeroed by `secure_delete`); PostgreSQL vacuums the touched
   * tables. `layers` names the item layers that lost rows, `'all'` every table (a space was erased). Call it on the
   * store, never inside a transaction, after the delete committed.
   */
  purge(layers: readonly Layer[] | 'all'): Promise<PurgeResult>;
  info(): Promise<StoreInfo>;
  close(): Promise<void>;
}
