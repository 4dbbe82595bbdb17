/**
 * The nightly schedule of `tidepool serve`: once a UTC day at `sleep.at` (02:17 UTC by default) every space runs the
 * script layer (`script all`) and then sleeps.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { DAY_MS, utcDay } from '../core/clock.js';
import type { NightResult } from '../sleep/night-types.js';
import { bindSpace, type AppContext } from './app-context.js';
import { runAllScriptJobs } from './script-jobs.js';
import { describeNight, sleep } from './sleep.js';

/** A scheduled night's lease: long enough for a slow model, short enough that a dead server's night is retried. */
const LEASE_MS = 3 * 3_600_000;

/** The first `HH:MM` UTC strictly after `now`. */
export function nextRunAt(now: number, at: string): number {
  const [h, m] = at.split(':').map(Number) as [number, number];
  const day = Math.floor(now / DAY_MS) * DAY_MS;
  const today = day + (h * 60 + m) * 60_000;
  return today > now ? today : today + DAY_MS;
}

/** What one scheduled tick did per space. */
export interface ScheduledNight {
  space: string;
  outcome: NightResult['kind'] | 'skipped' | 'failed';
  message: string;
  /** The script layer's run before the night (`script all`): every job's outcome; absent when another server ran it. */
  script?: { ok: boolean; failed: string[]; ms: number };
}

/** A running schedule. */
export interface NightlySchedule {
  /** When the next tick fires. */
  readonly nextAt: number;
  /** Runs the nightly job for every space now (the timer calls it; tests call it directly). */
  runDue(now?: number): Promise<ScheduledNight[]>;
  stop(): void;
}

/**
 * Schedules the nightly sleep. Each tick claims `sleep` for the UTC day per space through `store.jobs`, so several
 * servers sharing one PostgreSQL memory run each space's night once; a failed night releases its claim and is
 * retried on the next tick. Models `agent` and `sampling` need a connected agent, so their nights are started by
 * the agent (sleep_next) instead; the tick skips them.
 */
export function scheduleNightlySleep(
  ctx: AppContext,
  opts: { onNight?: (n: ScheduledNight) => void } = {},
): NightlySchedule {
  const owner = `${hostname()}:${process.pid}:${randomUUID()}`;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule: NightlySchedule = {
    nextAt: nextRunAt(ctx.clock.now(), ctx.config.sleep.at),
    async runDue(now = ctx.clock.now()) {
      const out: ScheduledNight[] = [];
      const model = ctx.config.sleep.model.trim();
      for (const space of await ctx.store.spaces.list()) {
        // The script layer (clusters, attention, entity graph, scans) runs first, once per space and day, whatever
        // model thinks at night: it needs none, and the night's L0 solidify reads its scan.
        const scriptKey = { space, job: 'script', day: utcDay(now), owner };
        let script: ScheduledNight['script'];
        if (await ctx.store.jobs.claim({ ...scriptKey, ttlMs: LEASE_MS, at: now })) {
          try {
            const r = await runAllScriptJobs(bindSpace(ctx, space));
            await ctx.store.jobs.finish({ ...scriptKey, at: ctx.clock.now() });
            script = { ok: r.ok, failed: r.jobs.filter((j) => !j.ok).map((j) => j.job), ms: r.ms };
          } catch (e) {
            await ctx.store.jobs.release(scriptKey);
            script = { ok: false, failed: [e instanceof Error ? e.message : String(e)], ms: 0 };
          }
        }
        if (model === 'agent' || model === 'sampling') {
          out.push({
            ...(script ? { script } : {}),
            space,
            outcome: 'skipped',
            message: `model ${model} needs a connected agent: it starts the night with sleep_next`,
          });
          continue;
        }
        const key = { space, job: 'sleep', day: utcDay(now), owner };
        if (!(await ctx.store.jobs.claim({ ...key, ttlMs: LEASE_MS, at: now }))) continue;
        try {
          const r = await sleep(bindSpace(ctx, space), { now });
          if (r.kind === 'locked') await ctx.store.jobs.release(key);
          else await ctx.store.jobs.finish({ ...key, at: ctx.clock.now() });
          out.push({ space, outcome: r.kind, message: describeNight(r), ...(script ? { script } : {}) });
        } catch (e) {
          await ctx.store.jobs.release(key);
          out.push({ space, outcome: 'failed', message: e instanceof Error ? e.message : String(e), ...(script ? { script } : {}) });
        }
      }
      for (const n of out) opts.onNight?.(n);
      return out;
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
  const arm = () => {
    if (stopped) return;
    const now = ctx.clock.now();
    const at = nextRunAt(now, ctx.config.sleep.at);
    (schedule as { nextAt: number }).nextAt = at;
    timer = setTimeout(
      () => {
        void schedule
          .runDue()
          .catch((e: unknown) =>
            ctx.warn(`nightly sleep failed: ${e instanceof Error ? e.message : String(e)}`),
          )
          .finally(arm);
      },
      Math.max(1_000, at - now),
    );
    // The schedule never keeps a process alive on its own.
    timer.unref();
  };
  arm();
  return schedule;
}
