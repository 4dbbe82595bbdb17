/** Per-space JSON state in `job_state`, over portable SQL. */
import type { StateStore } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { json, toJson } from './sql-util.js';

/** State written once for every engine. */
export class StateSql implements StateStore {
  readonly #db: SqlDriver;
  readonly #space: string;
  constructor(db: SqlDriver, space: string) {
    this.#space = space;
    this.#db = db;
  }

  async get(key: string): Promise<unknown> {
    const r = await this.#db.get<{ value: string }>(
      'SELECT value FROM job_state WHERE space = ? AND job = ?',
      [this.#space, key],
    );
    return r === undefined ? undefined : json<unknown>(r.value, undefined);
  }

  async put(key: string, value: unknown, at: number): Promise<void> {
    await this.#db.run(
      `INSERT INTO job_state (space, job, value, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (space, job) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [this.#space, key, toJson(value), at],
    );
  }
}
