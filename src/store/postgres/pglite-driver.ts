/** PGlite (PostgreSQL compiled to WebAssembly, in-process) behind the SqlDriver port, for tests and laptops. */
import type { Extensions, PGlite, Transaction } from '@electric-sql/pglite';
import { loadOptional } from '../../core/load-optional.js';
import type { RunResult, SqlValue } from '../sql-driver.js';
import type { PgFamilyDriver } from './pg-driver.js';
import { pgParams, toPositional } from './positional-params.js';

const INT8 = 20;

/**
 * One embedded PostgreSQL per process (a data directory must not be opened by two processes). PGlite runs one
 * statement at a time and its `transaction` excludes every other caller, like the SQLite driver's gate.
 */
export class PgliteDriver implements PgFamilyDriver {
  readonly dialect = 'postgres' as const;
  readonly db: PGlite;
  readonly extensions: readonly string[];

  private constructor(db: PGlite, extensions: readonly string[]) {
    this.db = db;
    this.extensions = extensions;
  }

  /** Starts PGlite on `dataDir` (in memory when undefined) with pg_trgm and, when installed, pgvector. */
  static async open(dataDir: string | undefined): Promise<PgliteDriver> {
    const { PGlite } = await loadOptional('@electric-sql/pglite', 'a pglite:// database', () => import('@electric-sql/pglite'));
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const extensions: Extensions = { pg_trgm };
    try {
      extensions.vector = (await import('@electric-sql/pglite-pgvector')).vector;
    } catch {
      // pgvector for PGlite is an optional package: without it vectors use the exact scan.
    }
    const db = await PGlite.create({
      ...(dataDir ? { dataDir } : {}),
      extensions,
      // BIGINT ids and epoch-ms times as numbers, like the pg driver (they stay below 2^53).
      parsers: { [INT8]: (v: string) => Number(v) },
    });
    return new PgliteDriver(db, Object.keys(extensions));
  }

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return (await this.db.query<T>(toPositional(sql), pgParams(params))).rows;
  }

  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<RunResult> {
    return { changes: (await this.db.query(toPositional(sql), pgParams(params))).affectedRows ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  transaction<T>(fn: (tx: PgFamilyDriver) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const out = await fn(new PgliteTx(tx));
      // PGlite ignores its COMMIT's answer: after a statement failed and the caller went on, the server ends the
      // transaction and COMMIT rolls it back, which PGlite would report as committed. A statement fails in that state
      // ("current transaction is aborted"), and the transaction with it.
      await tx.query('SELECT 1');
      return out;
    });
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}

/** PGlite inside a transaction; nested transactions join. */
class PgliteTx implements PgFamilyDriver {
  readonly dialect = 'postgres' as const;
  readonly #tx: Transaction;
  constructor(tx: Transaction) {
    this.#tx = tx;
  }
  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return (await this.#tx.query<T>(toPositional(sql), pgParams(params))).rows;
  }
  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<RunResult> {
    return { changes: (await this.#tx.query(toPositional(sql), pgParams(params))).affectedRows ?? 0 };
  }
  async exec(sql: string): Promise<void> {
    await this.#tx.exec(sql);
  }
  transaction<T>(fn: (tx: PgFamilyDriver) => Promise<T>): Promise<T> {
    return fn(this);
  }
  async close(): Promise<void> {}
}
