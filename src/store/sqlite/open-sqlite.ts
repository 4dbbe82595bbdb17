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

/** Opens (creating if needed) the SQLite file at `path` (or `:memory:`) and migrates it to the newest schema. */
export async function openSqliteStore(path: string, opts: OpenSqliteOptions = {}): Promise<SqlStore> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const driver = new SqliteDriver(path, { busyTimeoutMs: opts.busyTimeoutMs, readonly: opts.readonly });
  let vec = false;
  try {
    (require('sqlite-vec') as { load(db: unknown): void }).load(driver.db);
    vec = true;
  } catch {
    // sqlite-vec is an accelerator; without it vectors use the exact in-process scan.
  }
  if (!opts.readonly) await migrate(driver);
  const vectorState = { complete: new Set<string>() };
  // hnswlib-node is optional: without it (or for `:memory:`, which has no place for index files) the scan answers.
  const hnsw = vec && path !== ':memory:' ? hnswLibrary() : undefined;
  const ann = hnsw ? new HnswIndexes(hnsw, path) : undefined;
  const parts: EngineParts = {
    engine: 'sqlite',
    makeSearch: (db) => new SqliteSearch(db),
    ...(vec ? { makeVectors: (db: SqlDriver, space: string) => new SqliteVectors(db, space, vectorState, db === driver ? ann : undefined) } : {}),
    columnsOf: async (db, table) =>
      (await db.all<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, [table])).map((r) => r.name),
    info: (db) => info(db, driver, vec),
    purge: async (db, layers) => {
      const r = await purgeSqlite(driver, db, layers);
      await ann?.purge(driver);
      return r;
    },
    beforeClose: async () => ann?.close(driver),
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
