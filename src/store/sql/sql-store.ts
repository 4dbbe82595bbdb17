/** The portable Store: every area written once over a SqlDriver, plus the engine's search index. */
import type { Layer } from '../../core/types.js';
import type { PurgeResult, ScopedStore, Store, StoreInfo, SearchIndex } from '../port.js';
import { runsTogether, type SqlDriver } from '../sql-driver.js';
import { AttentionSql } from './attention-sql.js';
import { ContinuitySql } from './continuity-sql.js';
import { DerivedSql } from './derived-sql.js';
import { EpisodeSql } from './episode-sql.js';
import { IdentitySql } from './identity-sql.js';
import { JobSql, type JobClaimHooks } from './job-sql.js';
import { JournalSql } from './journal-sql.js';
import { KnowledgeSql } from './knowledge-sql.js';
import { NarrativeSql } from './narrative-sql.js';
import { RowSql } from './row-sql.js';
import { ScopedSearch } from './scoped-search.js';
import { SleepRunSql } from './sleep-runs-sql.js';
import { SpaceSql } from './space-sql.js';
import { StateSql } from './state-sql.js';
import { TokenSql } from './token-sql.js';
import { VectorSql } from './vector-sql.js';

/** What an engine adapter supplies to the portable store. */
export interface EngineParts {
  engine: 'sqlite' | 'postgres';
  makeSearch(db: SqlDriver): SearchIndex;
  columnsOf(db: SqlDriver, table: string): Promise<string[]>;
  info(db: SqlDriver): Promise<StoreInfo>;
  /** An engine's own vector store (an ANN index); the portable exact scan otherwise. */
  makeVectors?(db: SqlDriver, space: string): VectorSql;
  /** Engine additions to job claims (PostgreSQL: a non-blocking advisory lock). */
  jobHooks?: JobClaimHooks;
  /** What the engine's files keep of deleted rows, removed (Store.purge); run on the connection, never in a transaction. */
  purge(db: SqlDriver, layers: readonly Layer[] | 'all'): Promise<{ complete: boolean }>;
  /** What the engine keeps beside the connection, written out before it closes (SQLite: HNSW index files). */
  beforeClose?(): Promise<void>;
}

/** A Store bound to one driver (the connection, or one open transaction). */
export class SqlStore implements Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly db: SqlDriver;
  readonly search: SearchIndex;
  readonly spaces: SpaceSql;
  readonly rows: RowSql;
  readonly jobs: JobSql;
  readonly tokens: TokenSql;
  readonly #parts: EngineParts;
  readonly #inTx: boolean;
  readonly #scoped = new Map<string, SqlScope>();

  constructor(db: SqlDriver, parts: EngineParts, inTx = false) {
    this.#inTx = inTx;
    this.engine = parts.engine;
    this.db = db;
    this.#parts = parts;
    this.search = parts.makeSearch(db);
    this.spaces = new SpaceSql(db);
    this.rows = new RowSql(db, this.search, (t) => parts.columnsOf(db, t));
    this.jobs = new JobSql(db, parts.jobHooks);
    this.tokens = new TokenSql(db);
  }

  get pooled(): boolean {
    return runsTogether(this.db);
  }

  /** The entity ports bound to `space`, made once per space for this store (or transaction). */
  forSpace(space: string): SqlScope {
    let s = this.#scoped.get(space);
    if (!s) {
      s = new SqlScope(this.db, space, this.search, this.#parts);
      this.#scoped.set(space, s);
    }
    return s;
  }

  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return this.db.transaction((txDb) => fn(new SqlStore(txDb, this.#parts, true)));
  }

  async purge(layers: readonly Layer[] | 'all'): Promise<PurgeResult> {
    if (this.#inTx) throw new Error('purge runs after the transaction that deleted, not inside it');
    const t = performance.now();
    const { complete } = await this.#parts.purge(this.db, layers);
    return { complete, ms: Math.round(performance.now() - t) };
  }

  info(): Promise<StoreInfo> {
    return this.#parts.info(this.db);
  }

  async close(): Promise<void> {
    if (!this.#inTx) await this.#parts.beforeClose?.();
    return this.db.close();
  }
}

/** The entity ports of one space over one driver: each SQL class takes the space once, in its constructor. */
export class SqlScope implements ScopedStore {
  readonly space: string;
  readonly episodes: EpisodeSql;
  readonly narratives: NarrativeSql;
  readonly knowledge: KnowledgeSql;
  readonly identity: IdentitySql;
  readonly attention: AttentionSql;
  readonly vectors: VectorSql;
  readonly search: ScopedSearch;
  readonly derived: DerivedSql;
  readonly continuity: ContinuitySql;
  readonly journal: JournalSql;
  readonly sleepRuns: SleepRunSql;
  readonly state: StateSql;

  constructor(db: SqlDriver, space: string, search: SearchIndex, parts: EngineParts) {
    this.space = space;
    this.episodes = new EpisodeSql(db, space, search);
    this.narratives = new NarrativeSql(db, space, search);
    this.knowledge = new KnowledgeSql(db, space, search);
    this.identity = new IdentitySql(db, space);
    this.attention = new AttentionSql(db, space);
    this.vectors = parts.makeVectors?.(db, space) ?? new VectorSql(db, space);
    this.search = new ScopedSearch(search, space);
    this.derived = new DerivedSql(db, space);
    this.continuity = new ContinuitySql(db, space);
    this.journal = new JournalSql(db, space);
    this.sleepRuns = new SleepRunSql(db, space);
    this.state = new StateSql(db, space);
  }
}
