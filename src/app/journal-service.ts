/** Creates the Journal of a memory (host over the store, clock, credential detector, root policy) and its daily auto-tend. */
import { realpath } from 'node:fs/promises';
import { AutoTendScheduler, type AutoTendOptions, type TickReport } from '../journal/auto-tend-scheduler.js';
import { renderTickReport } from '../journal/journal-render.js';
import { Journal } from '../journal/journal.js';
import { resolveWorkspaceRoot } from '../journal/memory-dir.js';
import { findSecrets } from '../script/secret-scan.js';
import type { AppContext } from './app-context.js';
import { StoreJournalHost } from './journal-host.js';

// Surfaces import only app and core (STYLE §2): the journal's text renderings and input schemas pass through here.
export {
  renderAddResult,
  renderConfigResult,
  renderIndexResult,
  renderLintReport,
  renderReadResult,
  renderRestoreResult,
  renderSearchResult,
  renderStats,
  renderTendReport,
  renderTickReport,
  renderWorkspaces,
} from '../journal/journal-render.js';
export {
  JournalAddInput,
  JournalConfigInput,
  JournalReadInput,
  JournalRootInput,
  JournalSearchInput,
  JournalTendFlags,
  JournalTendInput,
  tendDryRun,
} from '../journal/journal-inputs.js';

/**
 * Who may name which workspace. Absent (`{}`): any existing directory, as for the local CLI, whose user can read the
 * files anyway. `confined`: only the workspaces registered to this memory's own space (DESIGN §10), so a token of one
 * space never reaches a folder registered to another; `home` adds one directory (the server's working directory, for
 * the local user of a stdio or tokenless loopback server only, never for a token caller).
 */
export interface JournalAccess {
  confined?: boolean;
  home?: string;
}

// One Journal per memory context and policy: its in-process write queue must be shared by every caller of the process.
const journals = new WeakMap<AppContext, Map<string, Journal>>();

/**
 * The Journal of `ctx`'s space. Sections are indexed as `journal` episodes, archived days and tend state live in the
 * database, and `add` refuses credentials with the same detector as `remember`.
 * @example await journalFor(appContextOf(memory)).add({ root: '/work/app', heading: 'fixed the sync race', content: '…' })
 */
export function journalFor(ctx: AppContext, access: JournalAccess = {}): Journal {
  const key = access.confined ? `confined:${access.home ?? ''}` : '';
  let byPolicy = journals.get(ctx);
  if (!byPolicy) journals.set(ctx, (byPolicy = new Map()));
  const known = byPolicy.get(key);
  if (known) return known;
  const host = new StoreJournalHost(ctx);
  let allowRoot: ((root: string) => Promise<boolean>) | undefined;
  if (access.confined) {
    const home = access.home === undefined ? Promise.resolve(undefined) : realpath(access.home).catch(() => undefined);
    allowRoot = async (root) => root === (await home) || (await host.listWorkspaces()).includes(root);
  }
  const journal = new Journal({
    host,
    clock: ctx.clock,
    detectSecrets: findSecrets,
    ...(allowRoot ? { allowRoot } : {}),
  });
  byPolicy.set(key, journal);
  return journal;
}

/** The journal workspaces registered to `ctx`'s space. */
export function journalRoots(ctx: AppContext): Promise<string[]> {
  return new StoreJournalHost(ctx).listWorkspaces();
}

/**
 * Registers a workspace by hand (its real path), so that auto-tend visits it and confined callers may name it; the
 * folder must exist. Nothing is created in it.
 * @example await registerJournalWorkspace(appContextOf(memory), '~/projects/app')
 */
export async function registerJournalWorkspace(ctx: AppContext, root: string): Promise<string> {
  const real = await resolveWorkspaceRoot(root);
  await new StoreJournalHost(ctx).registerWorkspace(real);
  return real;
}

/** A running auto-tend. */
export interface AutoTendHandle {
  /** Stops the timer; a tick in progress finishes. */
  stop(): void;
  /** Runs one tick now (the scheduler's own check: each ready workspace once per day). */
  tick(): Promise<TickReport>;
}

/** Options of `startJournalAutoTend`; by default ticks that did something are reported through the memory's warn sink. */
export type AutoTendStartOptions = Pick<AutoTendOptions, 'intervalMs' | 'onTick' | 'onError'> & {
  /** Default true; false builds the scheduler without starting its timer (`tick` by hand). */
  start?: boolean;
};

/**
 * Starts the daily auto-tend of every workspace registered in this memory's space: a tick now, then every 30 minutes
 * (SEEDS §2.8); each workspace is tended once per UTC day, and the day is stored, so a restart neither repeats nor
 * skips it. The timer does not keep the process alive.
 * @example const autoTend = startJournalAutoTend(memory); … autoTend.stop();
 */
export function startJournalAutoTend(
  memory: { readonly ctx: AppContext },
  opts: AutoTendStartOptions = {},
): AutoTendHandle {
  const { ctx } = memory;
  const scheduler = new AutoTendScheduler({
    journal: journalFor(ctx),
    host: new StoreJournalHost(ctx),
    clock: ctx.clock,
    ...(opts.intervalMs !== undefined ? { intervalMs: opts.intervalMs } : {}),
    onTick:
      opts.onTick ??
      ((r) => {
        if (r.tended.length + r.failed.length > 0) ctx.warn(renderTickReport(r).trimEnd());
      }),
    onError:
      opts.onError ?? ((e) => ctx.warn(`journal auto-tend: ${e instanceof Error ? e.message : String(e)}`)),
  });
  if (opts.start ?? true) scheduler.start();
  return { stop: () => scheduler.stop(), tick: () => scheduler.tick() };
}
