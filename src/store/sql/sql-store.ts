/** The portable Store: every area written once over a SqlDriver, plus the engine's search index. */
import type { Layer } from '../../core/types.js';
import type { PurgeResult, Store, StoreInfo, SearchIndex } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
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
  makeVectors?(db: SqlDriver): VectorSql;
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
  readonly episodes: EpisodeSql;
  readonly narratives: NarrativeSql;
  readonly knowledge: KnowledgeSql;
  readonly identity: IdentitySql;
  readonly attention: AttentionSql;
  readonly vectors: VectorSql;
  readonly rows: RowSql;
  readonly jobs: JobSql;
  readonly derived: DerivedSql;
  readonly continuity: ContinuitySql;
  readonly journal: JournalSql;
  readonly sleepRuns: SleepRunSql;
  readonly state: StateSql;
  readonly tokens: TokenSql;
  readonly #parts: EngineParts;
  readonly #inTx: boolean;

  constructor(db: SqlDriver, parts: EngineParts, inTx = false) {
    this.#inTx = inTx;
    this.engine = parts.engine;
    this.db = db;
    this.#parts = parts;
    this.search = parts.makeSearch(db);
    this.spaces = new SpaceSql(db);
    this.episodes = new EpisodeSql(db, this.search);
    this.narratives = new NarrativeSql(db, this.search);
    this.knowledge = new KnowledgeSql(db, this.search);
    this.identity = new IdentitySql(db);
    this.attention = new AttentionSql(db);
    this.vectors = parts.makeVectors?.(db) ?? new VectorSql(db);
    this.rows = new RowSql(db, this.search, (t) => parts.columnsOf(db, t));
    this.jobs = new JobSql(db, parts.jobHooks);
    this.derived = new DerivedSql(db);
    this.continuity = new ContinuitySql(db);
    this.journal = new JournalSql(db);
    this.sleepRuns = new SleepRunSql(db);
    this.state = new StateSql(db);
    this.tokens = new TokenSql(db);
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
