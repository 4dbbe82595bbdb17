/** better-sqlite3 behind the async SqlDriver port: WAL, busy timeout, statement cache, serialised transactions. */
import Database from 'better-sqlite3';
import { storableParams, type RunResult, type SqlDriver, type SqlValue } from '../sql-driver.js';

/** Options of the SQLite connection. */
export interface SqliteDriverOptions {
  /** Milliseconds a writer waits for another process's lock (Tideline v2.4: 30,000). */
  busyTimeoutMs?: number;
  readonly?: boolean;
}

/**
 * One connection per process. better-sqlite3 is synchronous, but a transaction's callback is async, so other
 * callers must wait while one is open, or their statements would land inside it: `#gate` serialises them.
 */
export class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  readonly db: Database.Database;
  readonly path: string;
  #cache = new Map<string, Database.Statement>();
  #gate: Promise<void> = Promise.resolve();
  #inTx = false;

  constructor(path: string, opts: SqliteDriverOptions = {}) {
    this.path = path;
    this.db = new Database(path, { timeout: opts.busyTimeoutMs ?? 30_000, readonly: opts.readonly ?? false });
    if (!opts.readonly) {
      this.db.pragma('journal_mode = WAL');
      // FULL syncs the WAL on every commit, so an acknowledged write survives power loss too, not only a
      // process crash (DESIGN §10); batched ingest pays it once per batch.
      this.db.pragma('synchronous = FULL');
      // Deleted rows are overwritten with zeros, in their pages and in pages that fall free, so a forgotten text
      // leaves no bytes in the file (issue 22; its cost on ingest is in docs/RELIABILITY.md).
      this.db.pragma('secure_delete = ON');
    }
    this.db.pragma('foreign_keys = ON');
  }

  #stmt(sql: string): Database.Statement {
    let s = this.#cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      if (this.#cache.size > 500) this.#cache.clear();
      this.#cache.set(sql, s);
    }
    return s;
  }

  async #wait(): Promise<void> {
    if (!this.#inTx) return;
    await this.#gate;
  }

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    await this.#wait();
    return this.allSync<T>(sql, params);
  }

  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    await this.#wait();
    return this.getSync<T>(sql, params);
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<RunResult> {
    await this.#wait();
    return this.runSync(sql, params);
  }

  /** Synchronous forms, for hot loops inside a transaction (batched ingest). */
  allSync<T>(sql: string, params: readonly SqlValue[] = []): T[] {
    const s = this.#stmt(sql);
    const p = storableParams(params);
    return (s.reader ? s.all(...p) : (s.run(...p), [])) as T[];
  }

  getSync<T>(sql: string, params: readonly SqlValue[] = []): T | undefined {
    return this.#stmt(sql).get(...storableParams(params)) as T | undefined;
  }

  runSync(sql: string, params: readonly SqlValue[] = []): RunResult {
    const r = this.#stmt(sql).run(...storableParams(params));
    return { changes: r.changes };
  }

  async transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    // Wait for any open transaction of this process, then hold the gate until ours ends.
    while (this.#inTx) await this.#gate;
    let release!: () => void;
    this.#gate = new Promise<void>((r) => (release = r));
    this.#inTx = true;
    const tx = new TxView(this);
    try {
      // IMMEDIATE takes the write lock at once, so two processes never deadlock upgrading read locks.
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const out = await fn(tx);
        this.db.exec('COMMIT');
        return out;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw e;
      }
    } finally {
      this.#inTx = false;
      release();
    }
  }

  /**
   * Checkpoints the WAL into the database file and truncates it to zero bytes, once no transaction of this process
   * is open; retries while another process's reader keeps it busy. False when it stayed busy.
   */
  async checkpointTruncate(tries = 5): Promise<boolean> {
    for (let i = 0; i < tries; i++) {
      while (this.#inTx) await this.#gate;
      const r = this.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
      if ((r[0]?.busy ?? 0) === 0) return true;
      await new Promise((res) => setTimeout(res, 50 * (i + 1)));
    }
    return false;
  }

  async close(): Promise<void> {
    while (this.#inTx) await this.#gate;
    this.#cache.clear();
    if (this.db.open) this.db.close();
  }
}

/** The driver as seen inside a transaction: statements run at once, nested transactions join. */
class TxView implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  readonly #d: SqliteDriver;
  constructor(d: SqliteDriver) {
    this.#d = d;
  }
  get driver(): SqliteDriver {
    return this.#d;
  }
  async all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.#d.allSync<T>(sql, params);
  }
  async get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.#d.getSync<T>(sql, params);
  }
  async run(sql: string, params?: readonly SqlValue[]): Promise<RunResult> {
    return this.#d.runSync(sql, params);
  }
  async transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    return fn(this);
  }
  async close(): Promise<void> {}
}
