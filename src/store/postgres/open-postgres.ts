/** Opens a PostgreSQL memory (a server via `pg`, or embedded PGlite): connection, migrations, the portable store. */
import type { StoreInfo } from '../port.js';
import { loadOptional } from '../../core/load-optional.js';
import type { SqlDriver } from '../sql-driver.js';
import { SqlStore, type EngineParts } from '../sql/sql-store.js';
import { PG_JOB_HOOKS } from './postgres-job-claim.js';
import { migratePostgres, type PgFeatures } from './migrate-postgres.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';
import type { PgFamilyDriver } from './pg-driver.js';
import { PgSearch, PgSearchMemo, pgPlanCounter } from './pg-search.js';
import { LexicalPlanner } from '../sql/lexical-planner.js';
import { PgVectors, type PgVectorState } from './pg-vectors.js';
import { purgePostgres } from './purge-postgres.js';

/** Where a URL points, parsed. */
export interface PgTarget {
  kind: 'pg' | 'pglite';
  /** The connection string without Tidepool's own parameters (pg), or the PGlite data directory. */
  connection: string | undefined;
  /** `?schema=name`: tables live in that schema (created if missing); lets several memories share a database. */
  schema?: string;
  /** The URL with any password replaced by `***`, for `doctor`. */
  display: string;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Parses `postgres://…[?schema=s]`, `postgresql://…`, `pglite://memory` or `pglite://<dir>`. */
export function parsePgUrl(url: string): PgTarget {
  if (/^pglite:\/\//i.test(url)) {
    const rest = url.replace(/^pglite:\/\//i, '');
    return { kind: 'pglite', connection: rest === '' || rest === 'memory' ? undefined : decodeURIComponent(rest), display: url };
  }
  if (!/^postgres(ql)?:\/\//i.test(url)) throw new Error(`not a PostgreSQL URL: ${url.replace(/\/\/[^@/]*@/, '//***@')}`);
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? undefined;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`schema must be a plain identifier: ${schema}`);
  u.searchParams.delete('schema');
  const display = new URL(u.href);
  if (display.password) display.password = '***';
  return { kind: 'pg', connection: u.href, ...(schema ? { schema } : {}), display: display.href };
}

/**
 * Opens (migrating if needed) the PostgreSQL memory at `url`. Servers sharing one database may all call this at
 * once: migrations run under an advisory lock.
 */
export async function openPostgresStore(
  url: string,
  o: { poolSize?: number; preparedStatements?: boolean; idleSeconds?: number; keepConnections?: number; parallelReads?: boolean; pipeline?: boolean } = {},
): Promise<SqlStore> {
  const target = parsePgUrl(url);
  let driver: PgFamilyDriver;
  let driverName: string;
  if (target.kind === 'pglite') {
    const { PgliteDriver } = await import('./pglite-driver.js');
    driver = await PgliteDriver.open(target.connection);
    driverName = 'pglite';
  } else {
    const { PgDriver } = await loadOptional('pg', 'a postgres:// database', () => import('./pg-driver.js'));
    driver = new PgDriver({
      connectionString: target.connection!,
      ...(target.schema ? { schema: target.schema } : {}),
      ...(o.poolSize !== undefined ? { max: o.poolSize } : {}),
      ...(o.idleSeconds !== undefined ? { idleMs: o.idleSeconds * 1000 } : {}),
      ...(o.keepConnections !== undefined ? { keep: o.keepConnections } : {}),
      ...(o.preparedStatements !== undefined ? { prepare: o.preparedStatements } : {}),
      ...(o.parallelReads !== undefined ? { together: o.parallelReads } : {}),
      ...(o.pipeline !== undefined ? { pipeline: o.pipeline } : {}),
    });
    driverName = 'pg';
  }
  let migrated: { version: number; features: PgFeatures };
  try {
    migrated = await migratePostgres(driver, target.schema);
  } catch (e) {
    await driver.close();
    throw e;
  }
  // PGlite has no autovacuum: refresh planner statistics once per start so plans follow the data's growth.
  if (target.kind === 'pglite') await driver.exec('ANALYZE');
  const { features } = migrated;
  const state: PgVectorState = { indexed: new Set(), iterative: versionAtLeast(features.versions.pgvector, 0, 8) };
  // The planner's per-space statistics and term counts, shared by the store and its transactions.
  const memo = new PgSearchMemo();
  const planner = new LexicalPlanner(pgPlanCounter(driver));
  const parts: EngineParts = {
    engine: 'postgres',
    makeSearch: (db) => new PgSearch(db, memo, planner, { binaryTsvector: driverName === 'pg' }),
    columnsOf: async (db, table) =>
      (
        await db.all<{ name: string }>(
          `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?
           ORDER BY ordinal_position`,
          [table],
        )
      ).map((r) => r.name),
    info: (db) => info(db, target, driverName, features),
    ...(features.pgvector ? { makeVectors: (db: SqlDriver, space: string) => new PgVectors(db, space, state) } : {}),
    jobHooks: PG_JOB_HOOKS,
    purge: (db, layers) => purgePostgres(db, layers),
  };
  return new SqlStore(driver, parts);
}

function versionAtLeast(v: string | undefined, major: number, minor: number): boolean {
  if (!v) return false;
  const [a = 0, b = 0] = v.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

const LAYERS = ['episodes', 'narratives', 'knowledge'] as const;

async function info(db: SqlDriver, target: PgTarget, driverName: string, f: PgFeatures): Promise<StoreInfo> {
  const problems: string[] = [];
  const server = await db.get<{ v: string }>("SELECT current_setting('server_version') AS v");
  const schema = await db.get<{ v: number | null; s: string }>('SELECT MAX(version) AS v, current_schema() AS s FROM schema_migrations');
  const latest = POSTGRES_MIGRATIONS[POSTGRES_MIGRATIONS.length - 1]!.version;
  if ((schema?.v ?? 0) !== latest) problems.push(`schema version ${schema?.v ?? 0}, expected ${latest}`);
  // Health: every item has its search-index row (the FTS tables are kept in step inside each transaction).
  for (const t of LAYERS) {
    const r = await db.get<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM ${t} x WHERE NOT EXISTS (SELECT 1 FROM ${t}_fts f WHERE f.id = x.id)`,
    );
    const n = Number(r?.n ?? 0);
    if (n > 0) problems.push(`${n} ${t} missing from the search index`);
  }
  return {
    engine: 'postgres',
    location: target.kind === 'pglite' ? `pglite://${target.connection ?? 'memory'}` : target.display,
    schemaVersion: schema?.v ?? 0,
    versions: { postgres: server?.v ?? '?', driver: driverName, ...f.versions },
    features: {
      tsvector: true,
      trigram: f.trigram,
      pgvector: f.pgvector,
      hnsw: f.pgvector,
      advisoryLocks: true,
      // Isolation is by `space = ?` in every statement (tested by the contract); RLS is not enabled (docs/scaling.md).
      rowLevelSecurity: false,
    },
    integrity: problems.length === 0 ? 'ok' : problems.concat(f.notes).join('; '),
  };
}
