/** Job claims on SQLite: the portable leases in the `locks` table, serialised by BEGIN IMMEDIATE. */
import type { JobKey } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { JobSql } from '../sql/job-sql.js';

// No engine hook: SqliteDriver.transaction opens BEGIN IMMEDIATE, so a claim holds the file's write lock from its
// first statement and every other process (servers sharing one file) waits its turn (busy timeout).

/** Claims a job's lease for `ttlMs` (see `JobClaims.claim`); `at` defaults to this process's clock. */
export function claimJob(driver: SqlDriver, o: JobKey & { ttlMs: number; at?: number }): Promise<boolean> {
  return new JobSql(driver).claim({ ...o, at: o.at ?? Date.now() });
}

/** Marks a claimed job done for its day and drops the lease (see `JobClaims.finish`). */
export function finishJob(driver: SqlDriver, o: JobKey & { at?: number }): Promise<boolean> {
  return new JobSql(driver).finish({ ...o, at: o.at ?? Date.now() });
}
