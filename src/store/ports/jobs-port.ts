/** Leases on periodic jobs (cross-space). */

/** One periodic job of a space for one period (a nightly sleep or a script job on one UTC day). */
export interface JobKey {
  space: string;
  /** Job name, e.g. `sleep` or `script:clusters`. */
  job: string;
  /** The period it runs for, e.g. the UTC day `2025-01-31`; a job is done at most once per period. */
  day: string;
  /** Who holds the lease: a server instance id (host, pid, random). */
  owner: string;
}

/**
 * Leases on periodic jobs, so that a job runs once per space and period however many servers schedule it.
 * A lease expires after `ttlMs`: a server killed mid-run leaves the job to the next claimer.
 */
export interface JobClaims {
  /** Takes the lease unless the job is done for `day` or another owner holds an unexpired lease; true when taken. */
  claim(k: JobKey & { ttlMs: number; at: number }): Promise<boolean>;
  /** Extends a lease the owner still holds; false when it was lost. */
  renew(k: JobKey & { ttlMs: number; at: number }): Promise<boolean>;
  /** Marks the job done for `day` and drops the lease; false (and nothing marked) when the owner lost the lease. */
  finish(k: JobKey & { at: number }): Promise<boolean>;
  /** Drops the lease without marking the job done, so another server may run it at once. */
  release(k: JobKey): Promise<boolean>;
  /** The last period the job finished for the space. */
  lastDone(space: string, job: string): Promise<string | undefined>;
}
