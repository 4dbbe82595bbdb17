/** The nightly sleep's runs, work units and lock. */

/** One night's run of a space: `running` until every planned unit is done, then `done`. */
export interface SleepRunRow {
  id: number;
  /** The UTC day the night belongs to (`YYYY-MM-DD` of its as-of time). */
  night: string;
  status: 'running' | 'done';
  model: string;
  /** The night's as-of time: every decision and timestamp of the run uses it, also after a resume. */
  startedAt: number;
  finishedAt: number | null;
  tokensIn: number;
  tokensOut: number;
  /** Plan facts while running, the folded night log once done. */
  log: Record<string, unknown>;
}

/** One unit of a night's work, keyed by (run, step, unit); a rerun skips units already `done`. */
export interface SleepWorkRow {
  step: string;
  unit: string;
  /** `planned` → `asked` (the model's answer is kept in `result`) → `done` (applied; `result` holds its log). */
  status: 'planned' | 'asked' | 'done';
  payload: unknown;
  result: unknown;
  updatedAt: number;
}

/** The nightly sleep's bookkeeping: its runs, their units of work, the space's sleep lock, the budget's base. */
export interface SleepRunStore {
  /** The newest run still `running` (a crashed or interrupted night), if any. */
  openRun(): Promise<SleepRunRow | undefined>;
  createRun(r: {
    night: string;
    model: string;
    startedAt: number;
    log: Record<string, unknown>;
  }): Promise<number>;
  /** Marks the run done with its token totals and final log. */
  finishRun(
    id: number,
    r: { finishedAt: number; tokensIn: number; tokensOut: number; log: Record<string, unknown> },
  ): Promise<void>;
  /** Runs of the space, newest first; `night` and `status` filter. */
  runs(q: { night?: string; status?: SleepRunRow['status']; limit: number }): Promise<SleepRunRow[]>;
  /** Inserts the planned units of a run (existing keys are kept as they are). */
  planWork(
    runId: number,
    units: ReadonlyArray<{ step: string; unit: string; payload: unknown }>,
    at: number,
  ): Promise<void>;
  /** Every unit of a run, ordered by step and unit. */
  work(runId: number): Promise<SleepWorkRow[]>;
  setWork(
    runId: number,
    w: { step: string; unit: string; status: SleepWorkRow['status']; result: unknown; at: number },
  ): Promise<void>;
  /** Takes the space's sleep lock unless another owner holds an unexpired one; true when taken. */
  acquireLock(owner: string, at: number, ttlMs: number): Promise<boolean>;
  /** Extends a lock the owner holds; false when it was lost. */
  renewLock(owner: string, at: number, ttlMs: number): Promise<boolean>;
  releaseLock(owner: string): Promise<void>;
  /** Who holds the space's sleep lock (expired or not), if anyone. */
  lockOwner(): Promise<string | undefined>;
  /** Live episodes + narratives + live knowledge: the memory size the nightly budget grows with. */
  memorySize(): Promise<number>;
}
