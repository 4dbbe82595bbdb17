/** The nightly sleep's runs, work units and lock, and the memory size its budget grows with, over portable SQL. */
import type { SleepRunRow, SleepRunStore, SleepWorkRow } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { json, num, numOrNull, toJson } from './sql-util.js';

const RUN_COLS = 'id, night, status, model, started_at, finished_at, tokens_in, tokens_out, log';

function toRun(r: Record<string, unknown>): SleepRunRow {
  return {
    id: num(r.id),
    night: String(r.night),
    status: r.status === 'done' ? 'done' : 'running',
    model: String(r.model),
    startedAt: num(r.started_at),
    finishedAt: numOrNull(r.finished_at),
    tokensIn: num(r.tokens_in),
    tokensOut: num(r.tokens_out),
    log: json(r.log, {}, { table: 'sleep_runs', column: 'log', row: r }),
  };
}

/** The lock row's name: JSON, so no space name can be crafted to collide with a job lease (job-sql uses `["job",…]`). */
export function sleepLockName(space: string): string {
  return JSON.stringify(['sleep', space]);
}

/** Sleep runs written once for every engine. */
export class SleepRunSql implements SleepRunStore {
  readonly #db: SqlDriver;
  readonly #space: string;
  constructor(db: SqlDriver, space: string) {
    this.#space = space;
    this.#db = db;
  }

  async openRun(): Promise<SleepRunRow | undefined> {
    const r = await this.#db.get(
      `SELECT ${RUN_COLS} FROM sleep_runs WHERE space = ? AND status = 'running' ORDER BY id DESC LIMIT 1`,
      [this.#space],
    );
    return r ? toRun(r) : undefined;
  }

  async createRun(
    r: { night: string; model: string; startedAt: number; log: Record<string, unknown> },
  ): Promise<number> {
    const got = await this.#db.get<{ id: unknown }>(
      `INSERT INTO sleep_runs (space, night, status, model, started_at, log) VALUES (?, ?, 'running', ?, ?, ?) RETURNING id`,
      [this.#space, r.night, r.model, r.startedAt, toJson(r.log)],
    );
    return num(got!.id);
  }

  async finishRun(
    id: number,
    r: { finishedAt: number; tokensIn: number; tokensOut: number; log: Record<string, unknown> },
  ): Promise<void> {
    await this.#db.run(
      `UPDATE sleep_runs SET status = 'done', finished_at = ?, tokens_in = ?, tokens_out = ?, log = ? WHERE space = ? AND id = ?`,
      [r.finishedAt, r.tokensIn, r.tokensOut, toJson(r.log), this.#space, id],
    );
  }

  async runs(
    q: { night?: string; status?: SleepRunRow['status']; limit: number },
  ): Promise<SleepRunRow[]> {
    const where = ['space = ?'];
    const params: Array<string | number> = [this.#space];
    if (q.night !== undefined) {
      where.push('night = ?');
      params.push(q.night);
    }
    if (q.status !== undefined) {
      where.push('status = ?');
      params.push(q.status);
    }
    const rows = await this.#db.all(
      `SELECT ${RUN_COLS} FROM sleep_runs WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`,
      [...params, q.limit],
    );
    return rows.map(toRun);
  }

  async planWork(
    runId: number,
    units: ReadonlyArray<{ step: string; unit: string; payload: unknown }>,
    at: number,
  ): Promise<void> {
    for (const u of units) {
      await this.#db.run(
        `INSERT INTO sleep_work (space, run_id, step, unit, status, payload, updated_at) VALUES (?, ?, ?, ?, 'planned', ?, ?)
         ON CONFLICT DO NOTHING`,
        [this.#space, runId, u.step, u.unit, toJson(u.payload ?? {}), at],
      );
    }
  }

  async work(runId: number): Promise<SleepWorkRow[]> {
    const rows = await this.#db.all<Record<string, unknown>>(
      'SELECT step, unit, status, payload, result, updated_at FROM sleep_work WHERE space = ? AND run_id = ? ORDER BY step, unit',
      [this.#space, runId],
    );
    return rows.map((r) => ({
      step: String(r.step),
      unit: String(r.unit),
      status: r.status === 'done' ? 'done' : r.status === 'asked' ? 'asked' : 'planned',
      payload: json<unknown>(r.payload, {}, { table: 'sleep_work', column: 'payload', row: r, space: this.#space }),
      result: json<unknown>(r.result, null, { table: 'sleep_work', column: 'result', row: r, space: this.#space }),
      updatedAt: num(r.updated_at),
    }));
  }

  async setWork(
    runId: number,
    w: { step: string; unit: string; status: SleepWorkRow['status']; result: unknown; at: number },
  ): Promise<void> {
    await this.#db.run(
      `INSERT INTO sleep_work (space, run_id, step, unit, status, result, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id, step, unit) DO UPDATE SET status = excluded.status, result = excluded.result, updated_at = excluded.updated_at`,
      [this.#space, runId, w.step, w.unit, w.status, toJson(w.result), w.at],
    );
  }

  acquireLock(owner: string, at: number, ttlMs: number): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      // Only our own lock or an expired one (a process killed mid-night) is overwritten.
      const took = await tx.run(
        `INSERT INTO locks (name, owner, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE locks.owner = excluded.owner OR locks.expires_at <= ?`,
        [sleepLockName(this.#space), owner, at + ttlMs, at],
      );
      return took.changes > 0;
    });
  }

  async renewLock(owner: string, at: number, ttlMs: number): Promise<boolean> {
    const r = await this.#db.run('UPDATE locks SET expires_at = ? WHERE name = ? AND owner = ?', [
      at + ttlMs,
      sleepLockName(this.#space),
      owner,
    ]);
    return r.changes > 0;
  }

  async releaseLock(owner: string): Promise<void> {
    await this.#db.run('DELETE FROM locks WHERE name = ? AND owner = ?', [sleepLockName(this.#space), owner]);
  }

  async lockOwner(): Promise<string | undefined> {
    const row = await this.#db.get<{ owner: string }>('SELECT owner FROM locks WHERE name = ?', [sleepLockName(this.#space)]);
    return row?.owner;
  }

  async memorySize(): Promise<number> {
    const r = await this.#db.get<{ n: unknown }>(
      `SELECT (SELECT COUNT(*) FROM episodes WHERE space = ? AND archived_at IS NULL)
            + (SELECT COUNT(*) FROM narratives WHERE space = ?)
            + (SELECT COUNT(*) FROM knowledge WHERE space = ? AND status IN ('provisional', 'reliable', 'quarantined')) AS n`,
      [this.#space, this.#space, this.#space],
    );
    return num(r?.n ?? 0);
  }
}
