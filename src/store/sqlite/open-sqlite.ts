/** Opens a SQLite memory file: connection, migrations, and the portable store on top. */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { StoreInfo } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { SqlStore, type EngineParts } from '../sql/sql-store.js';
import { SQLITE_MIGRATIONS } from './sqlite-migrations.js';
import { purgeSqlite } from './purge-sqlite.js';
import { SqliteDriver } from './sqlite-driver.js';
import { SqliteSearch } from './sqlite-search.js';
import { SqliteVectors } from './sqlite-vectors.js';
import { HnswIndexes, hnswLibrary } from './hnsw-index.js';

const require = createRequire(import.meta.url);

/** Options for opening a SQLite store. */
export interface OpenSqliteOptions {
  busyTimeoutMs?: number;
  /** A read-only connection to a file another connection has migrated (a reader thread of `serve --http`). */
  readonly?: boolean;
}

/**
 * The vector accelerators of one file's connection, loaded on the first vector operation that asks (a search, a write,
 * a purge, `info`), not at open: sqlite-vec (resolved, then loaded into the connection) and hnswlib-node cost ~11 ms
 * of every process's start here, and most commands (a prompt hook, a recall without an embedder) never touch a vector.
 */
class VectorAccelerators {
  readonly #driver: SqliteDriver;
  readonly #path: string;
  #vec: boolean | undefined;
  #ann: HnswIndexes | null | undefined;
  constructor(driver: SqliteDriver, path: string) {
    this.#driver = driver;
    this.#path = path;
  }

  /** Whether sqlite-vec is loaded into the connection: loaded on the first ask, and never asked again after a failure. */
  vec(): boolean {
    if (this.#vec === undefined) {
      try {
        (require('sqlite-vec') as { load(db: unknown): void }).load(this.#driver.db);
        this.#vec = true;
      } catch {
        // sqlite-vec is an accelerator; without it vectors use the exact in-process scan.
        this.#vec = false;
      }
    }
    return this.#vec;
  }

  /**
   * The file's HNSW indexes, once asked: hnswlib-node is optional, and without it (or sqlite-vec, or for `:memory:`,
   * which has no place for index files) the scan answers.
   */
  ann(): HnswIndexes | undefined {
    if (this.#ann === undefined) {
      const lib = this.vec() && this.#path !== ':memory:' ? hnswLibrary() : undefined;
      this.#ann = lib ? new HnswIndexes(lib, this.#path) : null;
    }
    return this.#ann ?? undefined;
  }

  /** The indexes if this process opened them (closing has nothing to write otherwise). */
  opened(): HnswIndexes | undefined {
    return this.#ann ?? undefined;
  }
}

/** Opens (creating if needed) the SQLite file at `path` (or `:memory:`) and migrates it to the newest schema. */
export async function openSqliteStore(path: string, opts: OpenSqliteOptions = {}): Promise<SqlStore> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const driver = new SqliteDriver(path, { busyTimeoutMs: opts.busyTimeoutMs, readonly: opts.readonly });
  if (!opts.readonly) await migrate(driver);
  const vectorState = { complete: new Set<string>() };
  const accel = new VectorAccelerators(driver, path);
  const parts: EngineParts = {
    engine: 'sqlite',
    makeSearch: (db) => new SqliteSearch(db),
    // The HNSW indexes serve the store's own connection only (a transaction's view sees uncommitted rows).
    makeVectors: (db: SqlDriver, space: string) =>
      new SqliteVectors(db, space, vectorState, { vec: () => accel.vec(), ann: () => (db === driver ? accel.ann() : undefined) }),
    columnsOf: async (db, table) =>
      (await db.all<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, [table])).map((r) => r.name),
    info: (db) => info(db, driver, accel.vec()),
    purge: async (db, layers) => {
      const r = await purgeSqlite(driver, db, layers);
      // Every copy: index files a process before this one wrote are purged too, so the indexes are asked for here.
      await accel.ann()?.purge(driver);
      return r;
    },
    beforeClose: async () => accel.opened()?.close(driver),
  };
  return new SqlStore(driver, parts);
}

/** Applies pending migrations inside one IMMEDIATE transaction, so two processes starting at once agree. */
export async function migrate(driver: SqliteDriver): Promise<number> {
  driver.db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  return driver.transaction(async (tx) => {
    const row = await tx.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
    let current = row?.v ?? 0;
    for (const m of SQLITE_MIGRATIONS) {
      if (m.version <= current) continue;
      driver.db.exec(m.sql);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, Date.now()]);
      current = m.version;
    }
    return current;
  });
}

async function info(db: SqlDriver, driver: SqliteDriver, vec: boolean): Promise<StoreInfo> {
  const v = await db.get<{ v: string }>('SELECT sqlite_version() AS v');
  const schema = await db.get<{ v: number }>('SELECT MAX(version) AS v FROM schema_migrations');
  const integrity = await db.all<{ integrity_check: string }>('PRAGMA integrity_check');
  const versions: Record<string, string> = { sqlite: v?.v ?? '?' };
  if (vec) versions['sqlite-vec'] = (await db.get<{ v: string }>('SELECT vec_version() AS v'))?.v ?? '?';
  let fts5 = true;
  try {
    await db.get("SELECT 1 FROM episodes_fts WHERE episodes_fts MATCH 'x' LIMIT 1");
  } catch {
    fts5 = false;
  }
  return {
    engine: 'sqlite',
    location: driver.path,
    schemaVersion: schema?.v ?? 0,
    versions,
    features: {
      fts5,
      trigram: fts5,
      sqliteVec: vec,
      wal: String(driver.db.pragma('journal_mode', { simple: true })) === 'wal',
    },
    integrity: integrity.map((r) => r.integrity_check).join('; '),
  };
}
