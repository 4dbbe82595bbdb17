/** node-postgres (`pg`) behind the SqlDriver port: a pool, `?` placeholders renumbered, one client per transaction. */
import { createHash } from 'node:crypto';
// Before node-postgres, which probes for Cloudflare at load (pg-probe.ts).
import { navigatorForProbe } from './pg-probe.js';
import pg from 'pg';
import {
  currentStatementShare, type AfterCommit, type AfterCommitOptions, type AfterCommitTask, type RunResult, type SendsAhead, type SqlDriver, type SqlValue,
  type StatementOptions,
} from '../sql-driver.js';
import { pgParams, toPositional } from './positional-params.js';
import { remembered } from '../../core/bounded-memo.js';

if (navigatorForProbe) delete (globalThis as { navigator?: unknown }).navigator;

/** A PostgreSQL-family driver: the port plus multi-statement scripts (migrations), also inside a transaction. */
export interface PgFamilyDriver extends SqlDriver {
  /** Runs several `;`-separated statements without parameters. */
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: PgFamilyDriver) => Promise<T>): Promise<T>;
}

const INT8 = 20;
const BYTEA = 17;

// Per-pool parsers rather than pg.types.setTypeParser, which would change every other pg user in the process.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    // BIGINT ids and epoch-ms times fit in a double (< 2^53), and the portable stores expect numbers.
    if (oid === INT8 && format !== 'binary') return (v: string) => Number(v);
    if (oid === BYTEA && format !== 'binary') {
      const base = pg.types.getTypeParser(BYTEA, 'text') as (v: string) => Buffer;
      // A plain Uint8Array (not a Buffer view of pg's pool), so rows compare equal across engines.
      return (v: string) => new Uint8Array(base(v));
    }
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
} as pg.CustomTypesConfig;

/** Names of prepared statements by their text (a text is prepared once per connection under its name). */
const preparedNames = new Map<string, string>();

/**
 * A query for node-postgres: named when `o.prepare` (StatementOptions), so each connection parses and plans the text
 * once (the statistics read of a search planned in ~1 ms and ran in ~0.3 ms at 100k).
 */
function statementName(text: string): string {
  return `tp_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}

function pgQuery(sql: string, params: readonly SqlValue[], o: StatementOptions | undefined, named: boolean): pg.QueryConfig {
  const text = toPositional(sql);
  const values = pgParams(params) as unknown[];
  if (!named || !o?.prepare) return { text, values };
  return { name: remembered(preparedNames, 1000, text, statementName), text, values };
}

/** How long an unused pooled connection stays open by default (pg's own default is 10 s). */
export const DEFAULT_IDLE_MS = 300_000;
/** Connections kept however long unused (`PgDriverOptions.keep`). */
const DEFAULT_KEEP = 2;

/** Options of the pool. */
export interface PgDriverOptions {
  connectionString: string;
  /** Schema to create the tables in (first on the search_path); the server default otherwise. */
  schema?: string;
  /** Connections in the pool (default 10): a transaction holds one, other statements take any free one. */
  max?: number;
  /**
   * Milliseconds a pooled connection may sit unused before it is closed; 0 keeps it open. Default 300,000: a new
   * connection costs a server process start and cold catalog caches on its first statements (docs/scaling.md).
   */
  idleMs?: number;
  /**
   * Connections kept open however long unused (pg.Pool `min`, at most `max`; default 2): the pool closes idle ones
   * only above this. It opens none ahead of use, so a process that runs one statement still opens one.
   */
  keep?: number;
  /**
   * Statements asked with `StatementOptions.prepare` become named prepared statements (default true); off, every
   * statement is unnamed, for a pooler that does not keep prepared statements across transactions.
   */
  prepare?: boolean;
  /**
   * Statements outside a transaction that a caller runs together (`statementsTogether`, `runsTogether`) go on several
   * connections at once (default true); off, one after another, so that reads never open a connection of their own:
   * a one-shot process keeps to the one it opened (the pool still grows for transactions and work after commits).
   */
  together?: boolean;
  /**
   * Each connection pipelines (node-postgres's `pipeline`, default true): a statement asked of a connection that is
   * still running one is sent at once and run after it, so a batch insert hands the server its next part before it
   * reads the last one's answer (`EpisodeSql`); off, each part waits for the last (node-postgres deprecates queuing a
   * statement on a busy client).
   */
  pipeline?: boolean;
  /** Where errors of idle pooled connections go (a restarted server); the pool drops the client either way. */
  onIdleError?: (e: Error) => void;
}

/** A pg Pool as a SqlDriver. Statements outside `transaction` each take any free client. */
export class PgDriver implements PgFamilyDriver {
  readonly dialect = 'postgres' as const;
  readonly pool: pg.Pool;
  /**
   * Connections that statements outside a transaction may run on at once (`runsTogether`): the pool's size, or 1
   * when `together` is off.
   */
  readonly connections: number;
  /** Statements a caller runs together go one after another (`statementsTogether`): `together` off. */
  readonly serial: boolean;
  readonly #named: boolean;
  readonly #pipeline: boolean;

  constructor(o: PgDriverOptions) {
    this.#named = o.prepare ?? true;
    this.#pipeline = o.pipeline ?? true;
    const max = o.max ?? 10;
    this.serial = o.together === false;
    this.connections = this.serial ? 1 : max;
    this.pool = new pg.Pool({
      connectionString: o.connectionString,
      max,
      idleTimeoutMillis: o.idleMs ?? DEFAULT_IDLE_MS,
      min: Math.min(o.keep ?? DEFAULT_KEEP, max),
      types,
      pipeline: this.#pipeline,
      // search_path is a startup option, so every pooled connection gets it before its first statement.
      ...(o.schema ? { options: `-c search_path=${o.schema},public` } : {}),
    });
    this.pool.on('error', o.onIdleError ?? (() => undefined));
  }

  async all<T>(sql: string, params: readonly SqlValue[] = [], o?: StatementOptions): Promise<T[]> {
    return (await this.#query(pgQuery(sql, params, o, this.#named))).rows as T[];
  }

  /** A statement on any free connection, within the caller's share of the pool when it has one. */
  async #query(q: pg.QueryConfig): Promise<pg.QueryResult> {
    const share = currentStatementShare();
    return share ? share.run(() => this.pool.query(q)) : this.pool.query(q);
  }

  async get<T>(sql: string, params: readonly SqlValue[] = [], o?: StatementOptions): Promise<T | undefined> {
    return (await this.all<T>(sql, params, o))[0];
  }

  async run(sql: string, params: readonly SqlValue[] = [], o?: StatementOptions): Promise<RunResult> {
    return { changes: (await this.#query(pgQuery(sql, params, o, this.#named))).rowCount ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(fn: (tx: PgFamilyDriver) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    let committed: Map<string, LaterTask> | undefined;
    try {
      // On a pipelined connection BEGIN goes out with the transaction's first statements, not a round trip before
      // them (a write's BEGIN, its space row and its sessions' last turns were three); its failure fails the
      // transaction at the latest before COMMIT.
      const begun = client.query('BEGIN');
      begun.catch(() => {});
      if (!this.#pipeline) await begun;
      const later = new Map<string, LaterTask>();
      const tx = new PgTx(client, later, this.#named, this.#pipeline);
      try {
        const out = await fn(tx);
        await begun;
        // Behind the statements sent ahead (`PgTx.sendAhead`), whose answers are read after: one that failed ended
        // the transaction, and the server then answers COMMIT with ROLLBACK.
        const commit = client.query('COMMIT');
        commit.catch(() => {});
        const failed = await tx.aheadFailure();
        if (failed !== undefined) throw failed;
        const done = await commit;
        if (done.command !== 'COMMIT') throw new Error(`the transaction was not committed (the server answered ${done.command})`);
        committed = later;
        return out;
      } catch (e) {
        // What ended the transaction first, where it was not waited for: a failed BEGIN or statement sent ahead (the
        // statements after it only say the transaction was aborted).
        const cause = (await begun.then(() => undefined, (b: unknown) => b)) ?? (await tx.aheadFailure()) ?? e;
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          // A connection that cannot roll back is destroyed rather than handed to the next caller.
          broken = rollbackError as Error;
        }
        throw cause;
      }
    } finally {
      client.release(broken);
      // Started once the client is back in the pool, so that the work can run on it: started before, it opened a
      // connection of its own (a new backend) in a process that had one idle, as a CLI write does.
      if (committed) for (const [key, { task, atClose }] of committed) this.#later(key, task, atClose);
    }
  }

  /** Work left for the store's close, by key (`AfterCommitOptions.atClose`). */
  readonly #atClose = new Map<string, AfterCommitTask>();

  #later(key: string, task: AfterCommitTask, atClose: boolean): void {
    if (!atClose) {
      this.#atClose.delete(key);
      this.#background(key, task);
    } else if (!this.#pending.has(key)) this.#atClose.set(key, task);
  }

  /** Work left by committed transactions and not yet started, by key, in the order first asked. */
  readonly #pending = new Map<string, AfterCommitTask>();
  /** The one run working through `#pending`, while there is work. */
  #runner: Promise<void> | undefined;

  /**
   * Runs `task` on the pool without holding up the caller. All such work runs one task at a time, in the order asked:
   * a key asked again before its run starts runs once; asked during its run, it runs once more after it (so work
   * asked for during a run is not lost), never twice at once. One at a time keeps the pool from growing for
   * background work: at 100k, four connections each touching part of the tables made a fresh process's first queries
   * pay for the pages their backend had not touched yet (issue 20: p95 41.6 against 29.5 ms with two). A failed task
   * is dropped: such work (merging a GIN pending list) is also done by the next run or by the server itself.
   */
  #background(key: string, task: AfterCommitTask): void {
    this.#pending.set(key, task);
    this.#runner ??= (async () => {
      for (let next = this.#pending.entries().next(); !next.done; next = this.#pending.entries().next()) {
        const [k, t] = next.value;
        this.#pending.delete(k);
        try {
          await t(this);
        } catch {
          // dropped: see above
        }
      }
      this.#runner = undefined;
    })();
  }

  /** Resolves once the work left by committed transactions has run. */
  async settled(): Promise<void> {
    while (this.#runner) await this.#runner;
  }

  async close(): Promise<void> {
    for (const [key, task] of this.#atClose) this.#background(key, task);
    this.#atClose.clear();
    await this.settled();
    await this.pool.end();
  }
}

/** Work a transaction left for after its commit. */
interface LaterTask {
  task: AfterCommitTask;
  atClose: boolean;
}

/** The driver inside a transaction: every statement on the one client; nested transactions join. */
class PgTx implements PgFamilyDriver, AfterCommit, SendsAhead {
  readonly dialect = 'postgres' as const;
  /**
   * One client: statements go one after another (`statementsTogether`). Together, a worker would go on sending after
   * another's failure had ended the transaction and handed the client back.
   */
  readonly serial = true;
  /**
   * The client pipelines: a caller that waits for what it sent before it returns (a batch insert's parts, `EpisodeSql`)
   * may send its next statement before reading the last one's answer. Without pipelining, node-postgres deprecates it.
   */
  readonly pipelined: boolean;
  readonly #client: pg.PoolClient;
  readonly #later: Map<string, LaterTask>;
  readonly #named: boolean;
  constructor(client: pg.PoolClient, later: Map<string, LaterTask>, named: boolean, pipelined: boolean) {
    this.#client = client;
    this.#later = later;
    this.#named = named;
    this.pipelined = pipelined;
  }
  /** Statements sent ahead (`sendAhead`), answered or not. */
  readonly #ahead: Array<Promise<unknown>> = [];

  /**
   * Sends a statement whose answer no caller needs: the commit waits for it and fails with its error. Later statements
   * of the transaction follow it on the connection. Pipelined only: without pipelining, node-postgres deprecates a
   * statement asked of a busy client, and the caller runs it instead (`sendsAhead`).
   */
  sendAhead(sql: string, params: readonly SqlValue[] = [], o?: StatementOptions): void {
    if (!this.pipelined) throw new Error('sendAhead: the connection does not pipeline');
    const sent = this.#client.query(pgQuery(sql, params, o, this.#named));
    sent.catch(() => {});
    this.#ahead.push(sent);
  }

  /** The first failure among the statements sent ahead, once all have answered; undefined when none failed. */
  async aheadFailure(): Promise<unknown> {
    for (const s of this.#ahead) {
      const failed = await s.then(() => undefined, (e: unknown) => e ?? new Error('a statement sent ahead failed'));
      if (failed !== undefined) return failed;
    }
    return undefined;
  }

  /** Left for after the commit (dropped on rollback); one task per key, run now if any of its asks was. */
  afterCommit(key: string, task: AfterCommitTask, o: AfterCommitOptions = {}): void {
    this.#later.set(key, { task, atClose: (o.atClose ?? false) && (this.#later.get(key)?.atClose ?? true) });
  }
  async all<T>(sql: string, params: readonly SqlValue[] = [], o?: StatementOptions): Promise<T[]> {
    return (await this.#client.query(pgQuery(sql, params, o, this.#named))).rows as T[];
  }
  async get<T>(sql: string, params: readonly SqlValue[] = [], o?: StatementOptions): Promise<T | undefined> {
    return (await this.all<T>(sql, params, o))[0];
  }
  async run(sql: string, params: readonly SqlValue[] = [], o?: StatementOptions): Promise<RunResult> {
    return { changes: (await this.#client.query(pgQuery(sql, params, o, this.#named))).rowCount ?? 0 };
  }
  async exec(sql: string): Promise<void> {
    await this.#client.query(sql);
  }
  transaction<T>(fn: (tx: PgFamilyDriver) => Promise<T>): Promise<T> {
    return fn(this);
  }
  async close(): Promise<void> {}
}
