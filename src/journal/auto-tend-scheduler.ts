/**
 * The daily auto-tend: wakes every 30 minutes and tends each known workspace once per journal day, with the day
 * persisted through the host so a restart neither repeats nor skips it; one workspace's failure stops no other (SEEDS §2.8).
 */
import type { Clock } from '../core/clock.js';
import { isTidepoolError } from '../core/errors.js';
import type { JournalHost } from './journal-port.js';
import type { Journal } from './journal.js';

/** Wake-up interval: "每半小时醒一次" (SEEDS §2.8). */
export const AUTO_TEND_INTERVAL_MS = 30 * 60_000;

/** Why a workspace was not tended on a tick. */
export type TickSkipReason = 'done_today' | 'opted_out' | 'no_memory' | 'missing_root';

/** What one tick did. JSON-able. */
export interface TickReport {
  day: string;
  tended: { root: string; moves: number; archived: number; migrated: number }[];
  skipped: { root: string; reason: TickSkipReason }[];
  failed: { root: string; code: string; message: string }[];
}

/** Options of the scheduler. */
export interface AutoTendOptions {
  journal: Journal;
  host: JournalHost;
  clock: Clock;
  intervalMs?: number;
  /** Receives each tick's report (the server logs it). */
  onTick?: (report: TickReport) => void;
  /** Receives an error that stopped a whole tick (e.g. the database was unreachable); the timer keeps running. */
  onError?: (error: unknown) => void;
}

/** Runs auto-tend ticks; `tick` can also be driven by hand (tests, `tidepool journal tend --all`). */
export class AutoTendScheduler {
  readonly #opts: AutoTendOptions;
  #timer: ReturnType<typeof setInterval> | undefined;
  #inFlight: Promise<TickReport> | undefined;

  constructor(opts: AutoTendOptions) {
    this.#opts = opts;
  }

  /** True between `start` and `stop`. */
  get running(): boolean {
    return this.#timer !== undefined;
  }

  /**
   * Tends every registered workspace that has `memory/`, has `autoTend` on and was not tended today. A tick asked for
   * while one runs returns the running one.
   * @example const report = await scheduler.tick(Date.parse('2026-11-01T08:00:00Z'))
   */
  tick(now: number = this.#opts.clock.now()): Promise<TickReport> {
    this.#inFlight ??= this.#tick(now).finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #tick(now: number): Promise<TickReport> {
    const { journal, host } = this.#opts;
    const report: TickReport = { day: journal.today(now), tended: [], skipped: [], failed: [] };
    for (const root of await host.listWorkspaces()) {
      try {
        const probe = await journal.probe({ root });
        if (probe.state !== 'ready') {
          report.skipped.push({ root, reason: probe.state });
          continue;
        }
        if (!probe.autoTend) {
          report.skipped.push({ root, reason: 'opted_out' });
          continue;
        }
        if (probe.lastTended === report.day) {
          report.skipped.push({ root, reason: 'done_today' });
          continue;
        }
        // tend records the day through host.setTendState only when it completes, so a failure is retried next tick.
        const r = await journal.tend({ root }, { now });
        report.tended.push({
          root,
          moves: r.moves.length,
          archived: r.archived.length,
          migrated: r.migrated.length,
        });
      } catch (e) {
        report.failed.push({
          root,
          code: isTidepoolError(e) ? e.code : 'internal',
          message: e instanceof Error ? e.message : String(e),
        });
      }
    }
    return report;
  }

  /** Starts the timer: a tick now, then one every interval. The timer does not keep the process alive. */
  start(): void {
    if (this.#timer) return;
    const run = () => {
      this.tick()
        .then((r) => this.#opts.onTick?.(r))
        .catch((e: unknown) => this.#opts.onError?.(e))
        // A throwing onError must not become an unhandled rejection that kills the server (SEEDS §2.8).
        .catch(() => undefined);
    };
    this.#timer = setInterval(run, this.#opts.intervalMs ?? AUTO_TEND_INTERVAL_MS);
    this.#timer.unref();
    run();
  }

  /** Stops the timer; a tick in progress finishes. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
