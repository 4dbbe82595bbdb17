/** Job leases over portable SQL: the `locks` table holds live leases, `job_state` the last period each job finished. */
import type { JobClaims, JobKey } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';

/** What an engine may add to a claim: a non-blocking gate taken first inside the claim's transaction. */
export interface JobClaimHooks {
  /** Returns false when another claimer is mid-claim on `name` right now (the claim then reports false at once). */
  tryLock?(tx: SqlDriver, name: string): Promise<boolean>;
}

/** The `job_state` key holding the last finished period, apart from the JSON states other areas keep there. */
export function jobDoneKey(job: string): string {
  return `done:${job}`;
}

/** The lock row's name: JSON, so no space, job or day can be crafted to collide with another. */
export function jobLockName(k: Pick<JobKey, 'space' | 'job' | 'day'>): string {
  return JSON.stringify(['job', k.space, k.job, k.day]);
}

/**
 * Job leases written once for every engine. A claim first takes the lock row, then reads `job_state`: in
 * PostgreSQL's READ COMMITTED each statement sees what committed before it, so a claimer that waited on a
 * finishing owner's row sees the job done and gives the lease back; SQLite's BEGIN IMMEDIATE serialises all.
 */
export class JobSql implements JobClaims {
  readonly #db: SqlDriver;
  readonly #hooks: JobClaimHooks;
  constructor(db: SqlDriver, hooks: JobClaimHooks = {}) {
    this.#db = db;
    this.#hooks = hooks;
  }

  claim(k: JobKey & { ttlMs: number; at: number }): Promise<boolean> {
    const name = jobLockName(k);
    return this.#db.transaction(async (tx) => {
      if (this.#hooks.tryLock && !(await this.#hooks.tryLock(tx, name))) return false;
      // The upsert only overwrites our own lease or an expired one (a server killed mid-run).
      const took = await tx.run(
        `INSERT INTO locks (name, owner, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE locks.owner = excluded.owner OR locks.expires_at <= ?`,
        [name, k.owner, k.at + k.ttlMs, k.at],
      );
      if (took.changes === 0) return false;
      const done = await tx.get<{ value: string }>('SELECT value FROM job_state WHERE space = ? AND job = ?', [
        k.space,
        jobDoneKey(k.job),
      ]);
      if (done?.value === k.day) {
        await tx.run('DELETE FROM locks WHERE name = ? AND owner = ?', [name, k.owner]);
        return false;
      }
      return true;
    });
  }

  async renew(k: JobKey & { ttlMs: number; at: number }): Promise<boolean> {
    const r = await this.#db.run('UPDATE locks SET expires_at = ? WHERE name = ? AND owner = ?', [
      k.at + k.ttlMs,
      jobLockName(k),
      k.owner,
    ]);
    return r.changes > 0;
  }

  finish(k: JobKey & { at: number }): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      // Deleting our own row first proves we still held the lease (an expired one nobody took counts).
      const held = await tx.run('DELETE FROM locks WHERE name = ? AND owner = ?', [jobLockName(k), k.owner]);
      if (held.changes === 0) return false;
      await tx.run(
        `INSERT INTO job_state (space, job, value, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (space, job) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        [k.space, jobDoneKey(k.job), k.day, k.at],
      );
      return true;
    });
  }

  async release(k: JobKey): Promise<boolean> {
    const r = await this.#db.run('DELETE FROM locks WHERE name = ? AND owner = ?', [jobLockName(k), k.owner]);
    return r.changes > 0;
  }

  async lastDone(space: string, job: string): Promise<string | undefined> {
    const r = await this.#db.get<{ value: string }>('SELECT value FROM job_state WHERE space = ? AND job = ?', [space, jobDoneKey(job)]);
    return r?.value;
  }
}
