/** Applies the PostgreSQL migrations and optional extensions under one advisory lock, so servers starting together agree. */
import type { PgFamilyDriver } from './pg-driver.js';
import { TERMS_FORMAT, TERMS_FORMAT_WRITE } from './pg-search.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';

/** What the server offered at start-up. */
export interface PgFeatures {
  /** pg_trgm present and the trigram indexes built: substring search uses them. */
  trigram: boolean;
  /** pgvector present and the decoding function installed: nearest-neighbour search uses HNSW indexes. */
  pgvector: boolean;
  /** Schema of the pgvector extension (its `vector` type is qualified with it). */
  vectorSchema?: string;
  /** Installed extension versions. */
  versions: Record<string, string>;
  /** Why an optional extension is missing, for `doctor`. */
  notes: string[];
}

/** The tables with a lexical index (`<table>_fts`), its GIN index `ix_<table>_fts` and trigram index `ix_<table>_fts_trgm`. */
const LEXICAL = ['episodes', 'narratives', 'knowledge'] as const;
const TRIGRAM_INDEXES = LEXICAL.map((t) => `ix_${t}_fts_trgm`);
const GIN_INDEXES = [...LEXICAL.map((t) => `ix_${t}_fts`), ...TRIGRAM_INDEXES];
/**
 * The rows a trigram index holds: those with raw text. An empty one (an episode while index.episodeTrigram is off)
 * can match no needle, and GIN would keep an entry for it all the same. Substring search repeats the condition, so
 * that the planner may use the partial index (pg-search.ts).
 */
const TRIGRAM_ROWS = "WHERE raw <> ''";

// Any constant works as long as every Tidepool server uses the same one; hashtext keeps it readable.
const MIGRATE_LOCK = "SELECT pg_advisory_xact_lock(hashtext('tidepool.migrate')) AS locked";

/** Quotes an SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Migrates to the newest schema and enables what the server offers, all in one transaction holding
 * `pg_advisory_xact_lock`: a second server starting at the same moment waits, then finds nothing left to do.
 */
export async function migratePostgres(driver: PgFamilyDriver, schema?: string): Promise<{ version: number; features: PgFeatures }> {
  const ready = await alreadyCurrent(driver, schema);
  if (ready) return ready;
  return driver.transaction(async (tx) => {
    await tx.get(MIGRATE_LOCK);
    // Each only when missing: IF NOT EXISTS still asks for the privilege to create (on the database, on the schema),
    // which a role that only uses the tables lacks.
    if (schema && !(await tx.get<{ ok: boolean }>('SELECT to_regnamespace(?) IS NOT NULL AS ok', [quoteIdent(schema)]))?.ok) {
      await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    }
    if (!(await tx.get<{ ok: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS ok"))?.ok) {
      await tx.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
      );
    }
    const row = await tx.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
    let version = row?.v ?? 0;
    for (const m of POSTGRES_MIGRATIONS) {
      if (m.version <= version) continue;
      await tx.exec(m.sql);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, Date.now()]);
      version = m.version;
    }
    await ginPendingLists(tx);
    await markEmptyIndexCurrent(tx);
    const features = await enableExtensions(tx, schema !== undefined);
    // What could not be installed is tried again by a start an hour later at the soonest (`alreadyCurrent`).
    if (OPTIONAL.some((x) => !features.versions[x.key])) {
      const tried: ExtensionsTried = { at: Date.now(), notes: features.notes };
      // Best effort: a role that does not own the table cannot comment on it, and then only tries at every start.
      await attempt(tx, `COMMENT ON TABLE schema_migrations IS ${literal(JSON.stringify(tried))}`);
    }
    return { version, features };
  });
}

/** The optional extensions, by name and by their key in `PgFeatures.versions`. */
const OPTIONAL = [
  { name: 'pg_trgm', key: 'pg_trgm' },
  { name: 'vector', key: 'pgvector' },
] as const;

/** A start waits this long before it tries again to install an optional extension that could not be. */
const EXTENSIONS_RETRY_MS = 3_600_000;

/** When a start last tried to install the optional extensions and failed for one, and why (a comment on `schema_migrations`). */
interface ExtensionsTried {
  at: number;
  notes: string[];
}

/** An SQL string literal. */
function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Start-up's work read in one statement, without a lock: when the schema is the newest, every lexical GIN index
 * takes a pending list, a new memory's terms are marked current, and each optional extension is there with what
 * Tidepool builds on it (the trigram indexes, the same `tidepool_vector`) or failed to install within the last hour,
 * there is nothing to do and the features are returned. Else undefined: the locked transaction of `migratePostgres`
 * runs. Every process start (a hook on every prompt) took that transaction, ~20 statements and the advisory lock
 * (starts queued behind each other), and its `CREATE INDEX IF NOT EXISTS` of the trigram indexes locked their tables
 * against writes until it committed, and waited for the writes in progress.
 */
async function alreadyCurrent(driver: PgFamilyDriver, schema?: string): Promise<{ version: number; features: PgFeatures } | undefined> {
  // A private schema's names qualified: its search_path falls back on public, which may hold another memory.
  const q = (name: string) => (schema ? `${quoteIdent(schema)}.${name}` : name);
  const reg = (name: string) => `to_regclass(${literal(q(name))})`;
  const gin = GIN_INDEXES.map(reg);
  const trgm = TRIGRAM_INDEXES.map(reg);
  let r: StartState | undefined;
  try {
    r = await driver.get<StartState>(
      `SELECT (SELECT max(version) FROM ${q('schema_migrations')}) AS version,
        NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.oid IN (${gin.join(', ')})
                    AND NOT coalesce('fastupdate=on' = ANY (c.reloptions), false)) AS gin,
        (SELECT count(*) FROM pg_class c WHERE c.oid IN (${trgm.join(', ')}))::int AS trgm_indexes,
        obj_description(${reg('episodes_fts')}, 'pg_class') AS terms,
        ${LEXICAL.map((t) => `EXISTS (SELECT 1 FROM ${q(`${t}_fts`)})`).join(' OR ')} AS filled,
        (SELECT json_agg(json_build_object('name', e.extname, 'schema', n.nspname, 'version', e.extversion))
           FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname IN ('pg_trgm', 'vector')) AS installed,
        (SELECT json_build_object('source', p.prosrc, 'cost', p.procost)
           FROM pg_proc p WHERE p.oid = to_regprocedure(${literal(q('tidepool_vector(bytea)'))})) AS vector_function,
        obj_description(${reg('schema_migrations')}, 'pg_class') AS tried`,
    );
  } catch {
    // No such table or schema (a new memory): the transaction creates them.
    return undefined;
  }
  if (!r || Number(r.version ?? 0) !== POSTGRES_MIGRATIONS[POSTGRES_MIGRATIONS.length - 1]!.version || !r.gin) return undefined;
  if (!r.filled && r.terms !== TERMS_FORMAT) return undefined;
  const installed = new Map((parse<Array<{ name: string; schema: string; version: string }>>(r.installed) ?? []).map((e) => [e.name, e]));
  const tried = parse<ExtensionsTried>(r.tried);
  if (installed.size < OPTIONAL.length && !(tried && Date.now() - tried.at < EXTENSIONS_RETRY_MS && Array.isArray(tried.notes))) return undefined;
  const trg = installed.get('pg_trgm');
  if (trg && r.trgm_indexes !== TRIGRAM_INDEXES.length) return undefined;
  const vec = installed.get('vector');
  const fn = parse<{ source: string; cost: number }>(r.vector_function);
  if (vec && !(fn && fn.source === vectorBody(quoteIdent(vec.schema)) && Number(fn.cost) === VECTOR_COST)) return undefined;
  const versions: Record<string, string> = {};
  for (const x of OPTIONAL) {
    const e = installed.get(x.name);
    if (e) versions[x.key] = e.version;
  }
  return {
    version: Number(r.version),
    features: {
      trigram: trg !== undefined,
      pgvector: vec !== undefined,
      ...(vec ? { vectorSchema: vec.schema } : {}),
      versions,
      notes: installed.size < OPTIONAL.length ? tried!.notes : [],
    },
  };
}

/** One row of `alreadyCurrent`'s statement. */
interface StartState {
  version: unknown;
  gin: boolean;
  trgm_indexes: number;
  terms: string | null;
  filled: boolean;
  installed: unknown;
  vector_function: unknown;
  tried: string | null;
}

/** A json column as node-postgres (parsed) or a comment (text) gives it; undefined when absent or not JSON. */
function parse<T>(v: unknown): T | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'string') return v as T;
  try {
    return JSON.parse(v) as T;
  } catch {
    return undefined;
  }
}

/**
 * The lexical GIN indexes (tsvector and trigram) take new rows through a pending list (fastupdate), merged in sorted
 * batches: inserting 1,000 episodes' tsvectors cost 967 ms with every posting updated in place and 51 ms this way
 * (issue 20; the version-1 schema created them without, the trigram indexes were created without until the next
 * round). Each write merges its list (`PgSearch.index`: after the commit on node-postgres, in the transaction on
 * PGlite), so searches never scan a long list. Set
 * at start-up, once, without a schema version.
 */
async function ginPendingLists(tx: PgFamilyDriver): Promise<void> {
  for (const ix of GIN_INDEXES) {
    const r = await tx.get<{ o: string[] | null }>(`SELECT c.reloptions AS o FROM pg_class c WHERE c.oid = to_regclass(?)`, [ix]);
    if (r && !(r.o ?? []).includes('fastupdate=on')) await tx.exec(`ALTER INDEX ${ix} SET (fastupdate = on)`);
  }
}

/** Lexical tables with no rows (a new memory) hold no terms of an older tokenizer: mark them current. */
async function markEmptyIndexCurrent(tx: PgFamilyDriver): Promise<void> {
  const r = await tx.get<{ n: unknown; d: string | null }>(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM episodes_fts UNION ALL SELECT 1 FROM narratives_fts UNION ALL SELECT 1 FROM knowledge_fts LIMIT 1) s) AS n,
       obj_description(to_regclass('episodes_fts'), 'pg_class') AS d`,
  );
  // Written only when it says something else: a comment asks for the table's owner.
  if (Number(r?.n ?? 0) === 0 && r?.d !== TERMS_FORMAT) await tx.exec(TERMS_FORMAT_WRITE);
}

async function extensionSchema(tx: PgFamilyDriver, name: string): Promise<{ schema: string; version: string } | undefined> {
  return tx.get<{ schema: string; version: string }>(
    `SELECT n.nspname AS schema, e.extversion AS version FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = ?`,
    [name],
  );
}

/** Runs `sql` inside a savepoint; an error (no such extension, no privilege) is returned, not thrown. */
async function attempt(tx: PgFamilyDriver, sql: string): Promise<string | undefined> {
  await tx.exec('SAVEPOINT tidepool_feature');
  try {
    await tx.exec(sql);
    await tx.exec('RELEASE SAVEPOINT tidepool_feature');
    return undefined;
  } catch (e) {
    await tx.exec('ROLLBACK TO SAVEPOINT tidepool_feature');
    return (e as Error).message;
  }
}

/** Installs (or finds) an extension; under a private schema it goes to `public`, which outlives that schema. */
async function ensureExtension(tx: PgFamilyDriver, name: string, privateSchema: boolean, notes: string[]) {
  const found = await extensionSchema(tx, name);
  if (found) return found;
  const err = await attempt(tx, `CREATE EXTENSION IF NOT EXISTS ${name}${privateSchema ? ' SCHEMA public' : ''}`);
  if (err) notes.push(`${name}: ${err}`);
  return err ? undefined : extensionSchema(tx, name);
}

async function enableExtensions(tx: PgFamilyDriver, privateSchema: boolean): Promise<PgFeatures> {
  const notes: string[] = [];
  const versions: Record<string, string> = {};
  const trgm = await ensureExtension(tx, 'pg_trgm', privateSchema, notes);
  let trigram = false;
  if (trgm) {
    versions.pg_trgm = trgm.version;
    const ops = `${quoteIdent(trgm.schema)}.gin_trgm_ops`;
    // Only those missing: CREATE INDEX locks its table against writes (and waits for those in progress) even when
    // the index exists.
    const absent = await tx.all<{ i: string }>(
      `SELECT i FROM (VALUES ${TRIGRAM_INDEXES.map(() => '(?)').join(', ')}) AS v(i) WHERE to_regclass(i) IS NULL`,
      TRIGRAM_INDEXES,
    );
    const missing = LEXICAL.filter((_, k) => absent.some((a) => a.i === TRIGRAM_INDEXES[k]));
    const err =
      missing.length === 0
        ? undefined
        : await attempt(
            tx,
            missing.map((t) => `CREATE INDEX IF NOT EXISTS ix_${t}_fts_trgm ON ${t}_fts USING GIN (raw ${ops}) WITH (fastupdate = on) ${TRIGRAM_ROWS};`).join('\n'),
          );
    if (err) notes.push(`trigram indexes: ${err}`);
    trigram = !err;
  }
  const vec = await ensureExtension(tx, 'vector', privateSchema, notes);
  let pgvector = false;
  if (vec) {
    versions.pgvector = vec.version;
    const err = await attempt(tx, vectorFunction(quoteIdent(vec.schema)));
    if (err) notes.push(`pgvector function: ${err}`);
    pgvector = !err;
  }
  return { trigram, pgvector, ...(vec ? { vectorSchema: vec.schema } : {}), versions, notes };
}

/**
 * `tidepool_vector(bytea)`: the portable little-endian float32 BLOB of `embeddings.vector` as a pgvector value, so
 * HNSW indexes are expression indexes on the shared table and the schema stays identical to SQLite's. Every
 * name is qualified because index builds run with a search_path of pg_catalog only (PostgreSQL 17). The high COST
 * tells the planner that decoding every row costs far more than walking the HNSW graph, so a search uses the
 * index even when statistics are stale (PGlite runs no autovacuum).
 */
function vectorFunction(ns: string): string {
  return `CREATE OR REPLACE FUNCTION tidepool_vector(b bytea) RETURNS ${ns}.vector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST ${VECTOR_COST} AS $f$${vectorBody(ns)}$f$;`;
}

const VECTOR_COST = 10000;

/** The body of `tidepool_vector` (its `prosrc`, which `alreadyCurrent` compares). */
function vectorBody(ns: string): string {
  return `
  SELECT pg_catalog.array_agg(
      (CASE WHEN (w & 2147483648) <> 0 THEN -1.0::float8 ELSE 1.0::float8 END) *
      (CASE WHEN ((w >> 23) & 255) = 0 THEN (w & 8388607) * pg_catalog.power(2::float8, -149)
            ELSE (1 + (w & 8388607) * pg_catalog.power(2::float8, -23)) * pg_catalog.power(2::float8, ((w >> 23) & 255)::int - 127)
       END) ORDER BY i)::real[]::${ns}.vector
  FROM (SELECT i, (pg_catalog.get_byte(b, 4 * i)::bigint) | (pg_catalog.get_byte(b, 4 * i + 1)::bigint << 8)
                | (pg_catalog.get_byte(b, 4 * i + 2)::bigint << 16) | (pg_catalog.get_byte(b, 4 * i + 3)::bigint << 24) AS w
        FROM pg_catalog.generate_series(0, pg_catalog.length(b) / 4 - 1) AS i) AS words
`;
}
