/** `openMemory`: the composition root of the library — picks the engine and embedder, returns a Tidepool. */
import { systemClock, type Clock } from '../core/clock.js';
import { parseConfig, type Config, type ConfigInput } from '../core/config.js';
import type { Embedder } from '../core/embedder.js';
import { TidepoolError } from '../core/errors.js';
import { parseInput, spaceName } from '../core/schemas.js';
import { retokenizeIfOutdated } from '../app/export-space.js';
import { Tidepool } from '../app/tidepool.js';
import { noteWarning } from '../app/warnings.js';
import type { Store } from '../store/port.js';
import { openSqliteStore } from '../store/sqlite/open-sqlite.js';
import { onCorruptColumn } from '../store/sql/sql-util.js';
import { corruptColumnMessage } from './corrupt-column-message.js';
import { createEmbedder } from './create-embedder.js';
import { defaultDbPath } from './load-config.js';

/** Options of `openMemory`. */
export interface OpenMemoryOptions {
  /** A SQLite file path (or `:memory:`). */
  path?: string;
  /** A `postgres://` URL. */
  url?: string;
  /** Either of the above; `path`/`url` win. */
  db?: string;
  space?: string;
  /** An Embedder instance, or `none`; otherwise the configuration's embedder is used. */
  embedder?: Embedder | 'none';
  /** A parsed configuration, or a partial one to fill with defaults. */
  config?: Config | ConfigInput;
  clock?: Clock;
  /** Where warnings go (default: stderr). */
  warn?: (message: string) => void;
}

/** How a store is opened; the SQLite engine needs none of it. */
export interface OpenStoreOptions {
  /** PostgreSQL: connections in the pool (config `postgres.poolSize`, default 10). */
  poolSize?: number;
  /** PostgreSQL: named prepared statements (config `postgres.preparedStatements`, default on). */
  preparedStatements?: boolean;
  /** PostgreSQL: seconds an unused pooled connection stays open, 0 for ever (config `postgres.idleSeconds`, default 300). */
  idleSeconds?: number;
  /** PostgreSQL: connections kept open however long unused (config `postgres.keepConnections`, default 2). */
  keepConnections?: number;
  /** PostgreSQL: a search's statements on several connections at once (config `postgres.parallelReads`, default on). */
  parallelReads?: boolean;
  /** PostgreSQL: pipelined connections (config `postgres.pipeline`, default on). */
  pipeline?: boolean;
}

/** Opens the store for a location: a postgres:// URL or a SQLite path. */
export async function openStore(location: string, o: OpenStoreOptions = {}): Promise<Store> {
  if (/^(postgres(ql)?|pglite):\/\//i.test(location)) {
    // Loaded lazily so the embedded default never pays for the pg driver (STYLE §9). A literal path: the CLI's bundle
    // holds the engine as a module run on first use (scripts/bundle-cli.mjs), where loading it from dist/ read ~20 ES
    // modules again beside the bundle's own copies; node-postgres itself stays outside (an optional peer).
    const mod = (await import('../store/postgres/open-postgres.js').catch((e: unknown) => {
      throw new TidepoolError('unavailable', `the PostgreSQL engine could not be loaded: ${String(e)}`, { cause: e });
    })) as { openPostgresStore(url: string, o?: OpenStoreOptions): Promise<Store> };
    return mod.openPostgresStore(location, o);
  }
  return openSqliteStore(location);
}

/**
 * Opens a memory.
 * @example const memory = await openMemory({ path: './memory.db', space: 'agent-1' })
 */
export async function openMemory(o: OpenMemoryOptions = {}): Promise<Tidepool> {
  const config = parseConfig(o.config ?? {});
  const space = parseInput(spaceName, o.space ?? config.space);
  const location = o.url ?? o.path ?? o.db ?? config.db ?? defaultDbPath();
  const warn = o.warn ?? ((m: string) => process.stderr.write(`tidepool: ${m}\n`));
  const store = await openStore(location, {
    poolSize: config.postgres.poolSize,
    preparedStatements: config.postgres.preparedStatements,
    idleSeconds: config.postgres.idleSeconds,
    keepConnections: config.postgres.keepConnections,
    parallelReads: config.postgres.parallelReads,
    pipeline: config.postgres.pipeline,
  });
  try {
    if (await retokenizeIfOutdated(store, config.recall.contextTurns, config.index.episodeTrigram)) {
      warn('the lexical index was rebuilt (once, after an upgrade: the terms both engines share, each space in tables of its own)');
    }
  } catch (e) {
    await store.close();
    throw e;
  }
  const embedder = o.embedder === 'none' ? undefined : (o.embedder ?? createEmbedder(config.embedder));
  const clock = o.clock ?? systemClock;
  // A corrupt JSON column is read as empty where it is read (store/sql/sql-util.ts) and reported here: in the log and
  // in the space's warnings for doctor. The report is process-wide, so a process holding several memories keeps it
  // in each of them.
  const stopReports = onCorruptColumn((c) =>
    noteWarning({ store, space: c.space ?? space, clock, warn }, 'corrupt_column', corruptColumnMessage(c)),
  );
  return new Tidepool({ store, config, clock, embedder, space, warn }, () => {
    stopReports();
    return store.close();
  });
}

