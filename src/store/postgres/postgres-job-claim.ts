/** Job claims on PostgreSQL: the portable leases, with a non-blocking advisory lock so claimers never queue. */
import type { JobKey } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { JobSql, type JobClaimHooks } from '../sql/job-sql.js';

/**
 * `pg_try_advisory_xact_lock` on the lock name: when another server is claiming the same job at this instant,
 * this claim answers false at once instead of waiting on its row lock (it would lose anyway). Released at commit.
 */
export const PG_JOB_HOOKS: JobClaimHooks = {
  async tryLock(tx, name) {
    const r = await tx.get<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS ok', [name]);
    return r?.ok === true;
  },
};

/** Claims a job's lease for `ttlMs` (see `JobClaims.claim`); `at` defaults to this server's clock. */
export function claimJob(driver: SqlDriver, o: JobKey & { ttlMs: number; at?: number }): Promise<boolean> {
  return new JobSql(driver, PG_JOB_HOOKS).claim({ ...o, at: o.at ?? Date.now() });
}

/** Marks a claimed job done for its day and drops the lease (see `JobClaims.finish`). */
export function finishJob(driver: SqlDriver, o: JobKey & { at?: number }): Promise<boolean> {
  return new JobSql(driver, PG_JOB_HOOKS).finish({ ...o, at: o.at ?? Date.now() });
}
