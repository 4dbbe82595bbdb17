/** The SQL driver port that the portable store is written against; one adapter per engine. */
import { AsyncLocalStorage } from 'node:async_hooks';

/** A bound parameter. Booleans are stored as 0/1 by the caller. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** How a statement is run. */
export interface StatementOptions {
  /**
   * The statement is one of a few fixed texts, asked often (a query's statistics): a driver that can keeps it parsed
   * and planned on each connection (node-postgres: a named prepared statement). Never for texts that vary without
   * bound (values written into the text, IN lists of any length): each text stays prepared for the connection's life.
   */
  prepare?: boolean;
}

/** `StatementOptions` of a fixed text run often (a search's reads, a batch's inserts): prepared where the driver can. */
export const PREPARED: Readonly<StatementOptions> = Object.freeze({ prepare: true });

/** Result of a statement that writes. */
export interface RunResult {
  changes: number;
}

/**
 * Executes SQL written with `?` placeholders (the Postgres adapter renumbers them). Statements issued
 * through a driver handed to `transaction`'s callback run inside that transaction.
 */
export interface SqlDriver {
  readonly dialect: 'sqlite' | 'postgres';
  all<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[], o?: StatementOptions): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[], o?: StatementOptions): Promise<T | undefined>;
  run(sql: string, params?: readonly SqlValue[], o?: StatementOptions): Promise<RunResult>;
  /** Runs `fn` in one write transaction: all or nothing. Nested calls join the outer transaction. */
  transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// Lone UTF-16 surrogates and NUL have no place in stored text: Postgres refuses both, better-sqlite3 writes a lone
// surrogate as invalid UTF-8 (read back as three U+FFFD), and an FTS5 query ends at NUL. Every adapter binds U+FFFD
// in their place, as Buffer and TextEncoder do for a surrogate, so the engines store and search the same (issue #6).
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

// isWellFormed (ES2024, Node 20) is native: the regex above, with its lookbehind, took ~25 ms per 1,000-turn batch
// on the 300 kB parameter of a PostgreSQL batch insert (issue 20). Used only to tell whether a replace is needed.
const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/** `params` with every string made storable (see above); the same array when none needed it. */
export function storableParams(params: readonly SqlValue[]): readonly SqlValue[] {
  if (!params.some((p) => typeof p === 'string' && (!wellFormed(p) || p.includes('\0')))) return params;
  return params.map((p) => (typeof p === 'string' ? p.replace(UNSTORABLE_ALL, '\ufffd') : p));
}

/** Work a transaction leaves for after its commit, on the pool (one run per key at a time). */
export type AfterCommitTask = (db: SqlDriver) => Promise<unknown>;

/** When work left for after a commit runs. */
export interface AfterCommitOptions {
  /**
   * Not now: when the store closes, unless work under the same key is asked for without this first (which does it).
   * For upkeep whose cost does not grow when it waits, such as merging a GIN pending list of a few rows.
   */
  atClose?: boolean;
}

/** A driver inside a transaction that can leave work for after the commit (node-postgres: the pool runs it). */
export interface AfterCommit {
  afterCommit(key: string, task: AfterCommitTask, o?: AfterCommitOptions): void;
}

/**
 * A driver inside a transaction that can send a statement without waiting for its answer, which the commit then
 * waits for (node-postgres on a pipelined connection): a write's last statement and its COMMIT go out together.
 */
export interface SendsAhead {
  readonly pipelined: boolean;
  sendAhead(sql: string, params?: readonly SqlValue[], o?: StatementOptions): void;
}

/** Whether `db` is a transaction on a pipelined connection (node-postgres with `postgres.pipeline`). */
export function pipelines(db: SqlDriver): boolean {
  return (db as { readonly pipelined?: boolean }).pipelined === true;
}

/** Whether `db` sends statements ahead now (`SendsAhead`, and its connection pipelines). */
export function sendsAhead(db: SqlDriver): db is SqlDriver & SendsAhead {
  return typeof (db as Partial<SendsAhead>).sendAhead === 'function' && pipelines(db);
}

/** Whether `db` takes work for after its commit. */
export function takesAfterCommit(db: SqlDriver): db is SqlDriver & AfterCommit {
  return typeof (db as Partial<AfterCommit>).afterCommit === 'function';
}

/**
 * The most statements one caller runs at once on a pool. More connections than two for one query bought no speed
 * here (a search's statements ran on a server's two cores), and each connection a process opens is a backend that
 * pays again for every page it reads first: at 100k, a fresh process whose queries spread over four connections took
 * p95 36-42 ms for its first 200 queries against 21 ms once each backend had read the pages (issue 20).
 */
export const TOGETHER = 2;

/**
 * A caller's share of a pool: at most `limit` of its statements run at once, the others wait their turn. Taken per
 * statement (never while waiting for another), so work nested inside the caller cannot wait on itself.
 */
export class StatementShare {
  #running = 0;
  readonly #waiting: Array<() => void> = [];
  constructor(readonly limit: number) {}
  async #take(): Promise<void> {
    if (this.#running < this.limit) {
      this.#running++;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }
  #give(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running--;
  }
  /** Runs one statement in a place of the share, given back however it ends. */
  async run<T>(statement: () => Promise<T>): Promise<T> {
    await this.#take();
    try {
      return await statement();
    } finally {
      this.#give();
    }
  }
}

const shares = new AsyncLocalStorage<StatementShare>();

/**
 * Runs `fn` with its statements on a pool kept to `TOGETHER` at once, however its parts are nested (a recall's
 * substring search beside its word searches, each ranking in halves, a time window's search beside the whole
 * memory's): without it one recall ran four or five statements at once on a 2-core server, and its process opened
 * that many connections, each a new backend whose caches and memory start cold (issue 20). Engines without a pool
 * ignore it.
 */
export function withStatementShare<T>(fn: () => Promise<T>): Promise<T> {
  return shares.run(new StatementShare(TOGETHER), fn);
}

/** The share of the caller running now, if it has one (`withStatementShare`). */
export function currentStatementShare(): StatementShare | undefined {
  return shares.getStore();
}

/** Runs `tasks`, at most `limit` at a time, and gives their results in order. */
export async function atMostTogether<T>(tasks: ReadonlyArray<() => Promise<T>>, limit: number): Promise<T[]> {
  const out = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}

/**
 * Whether statements given to `statementsTogether` on `db` run at the same time on the server: a node-postgres pool
 * of two or more connections (`connections`), not a transaction's one client, PGlite's single thread or SQLite.
 */
export function runsTogether(db: SqlDriver): boolean {
  return ((db as { readonly connections?: number }).connections ?? 1) >= 2;
}

/**
 * Runs `tasks` (each a few statements on `db`) together where the driver allows it, at most `TOGETHER` at a time,
 * else one after another: a node-postgres transaction is one client (its driver has `serial`), where queuing a query
 * on a busy client is deprecated, and where a worker still sending after another's failure would reach the client
 * once the transaction had handed it back. A pool, PGlite and SQLite queue statements themselves.
 */
export async function statementsTogether<T>(db: SqlDriver, tasks: ReadonlyArray<() => Promise<T>>): Promise<T[]> {
  return atMostTogether(tasks, (db as { readonly serial?: boolean }).serial === true ? 1 : TOGETHER);
}
