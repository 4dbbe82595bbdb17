/** The Journal facade: the seven 潮汐记忆 tools plus restore, config and workspaces, each returning JSON-able results. */
import type { z } from 'zod';
import { addSection, type JournalAddResult } from './add-section.js';
import {
  createJournalContext,
  journalToday,
  type JournalContext,
  type JournalOptions,
} from './journal-context.js';
import type {
  JournalAddInput,
  JournalConfigInput,
  JournalReadInput,
  JournalRestoreInput,
  JournalRootInput,
  JournalSearchInput,
  JournalTendInput,
} from './journal-inputs.js';
import { journalStats, type JournalStats } from './journal-stats.js';
import {
  journalConfig,
  listJournalWorkspaces,
  probeWorkspace,
  type JournalConfigResult,
  type WorkspaceProbe,
} from './journal-settings.js';
import { lintWorkspace, type JournalLintReport } from './lint-workspace.js';
import { readDay, type JournalReadResult } from './read-day.js';
import { rebuildIndexes, type JournalIndexResult } from './rebuild-indexes.js';
import { restoreDay, type JournalRestoreResult } from './restore-day.js';
import { searchJournal, type JournalSearchResult } from './search-journal.js';
import { tendWorkspace, type TendReport } from './tend-workspace.js';

/**
 * Hot/cold markdown memory per workspace. Every operation takes the workspace `root`; the first call in a workspace
 * lays out `memory/` (a dry-run tend excepted). Invalid input throws TidepoolError `invalid_input`, a credential in
 * `add` throws `secret_refused`, a symlink on the way throws `forbidden`; expected outcomes are returned as unions.
 * @example
 * const journal = new Journal({ host, clock: systemClock });
 * await journal.add({ root: '/work/app', heading: 'wrote the tide tests', content: 'All green.' });
 * const found = await journal.search({ root: '/work/app', query: '竞态', scope: 'all' });
 */
export class Journal {
  readonly #ctx: JournalContext;

  constructor(opts: JournalOptions) {
    this.#ctx = createJournalContext(opts);
  }

  /** The journal's calendar day at `now` (default the clock's), in its time zone. */
  today(now?: number): string {
    return journalToday(this.#ctx, now);
  }

  /**
   * Searches MEMORY.md, TODO.md and hot days (`scope: 'all'` adds cold); each file returned counts a lookup today.
   * @example await journal.search({ root, query: 'sync race', scope: 'all', limit: 3 })
   */
  search(input: z.input<typeof JournalSearchInput>): Promise<JournalSearchResult> {
    return searchJournal(this.#ctx, input);
  }

  /**
   * Reads a whole day (default today) from whichever tier holds it; counts a lookup.
   * @example await journal.read({ root, date: '2026-10-29' })
   */
  read(input: z.input<typeof JournalReadInput>): Promise<JournalReadResult> {
    return readDay(this.#ctx, input);
  }

  /**
   * Appends `## 【HH:MM heading】` + content to a day (default today, time default now).
   * @example await journal.add({ root, heading: 'fixed the sync race', content: 'Root cause: …' })
   */
  add(input: z.input<typeof JournalAddInput>): Promise<JournalAddResult> {
    return addSection(this.#ctx, input);
  }

  /**
   * Rebuilds both INDEX.md files and hands every section to the host for recall.
   * @example await journal.index({ root })
   */
  index(input: z.input<typeof JournalRootInput>): Promise<JournalIndexResult> {
    return rebuildIndexes(this.#ctx, input);
  }

  /**
   * Health check: untimed headings, duplicate/empty/long sections, dead pointers, stale indexes and more.
   * @example (await journal.lint({ root })).issues
   */
  lint(input: z.input<typeof JournalRootInput>): Promise<JournalLintReport> {
    return lintWorkspace(this.#ctx, input);
  }

  /**
   * The tiering pass; `dryRun: true` reports and changes nothing. `opts.now` overrides the clock.
   * @example await journal.tend({ root, dryRun: true })
   */
  tend(input: z.input<typeof JournalTendInput>, opts: { now?: number } = {}): Promise<TendReport> {
    return tendWorkspace(this.#ctx, { root: input.root, dryRun: input.dryRun ?? false }, opts.now);
  }

  /**
   * Days per tier, lookups per file, pins, archived days and the last tend.
   * @example await journal.stats({ root })
   */
  stats(input: z.input<typeof JournalRootInput>): Promise<JournalStats> {
    return journalStats(this.#ctx, input);
  }

  /**
   * Brings a day back from the archive database into the hot tier, pinned.
   * @example await journal.restoreDay({ root, date: '2026-01-03' })
   */
  restoreDay(input: z.input<typeof JournalRestoreInput>): Promise<JournalRestoreResult> {
    return restoreDay(this.#ctx, input);
  }

  /**
   * Reads, patches (`patch`) or resets (`reset: true`) the workspace's `.tide.json`.
   * @example await journal.config({ root, patch: { autoTend: false } })
   */
  config(input: z.input<typeof JournalConfigInput>): Promise<JournalConfigResult> {
    return journalConfig(this.#ctx, input);
  }

  /**
   * Every workspace the host knows, with whether it has `memory/` and takes part in auto-tend.
   * @example (await journal.workspaces()).workspaces.map((w) => w.root)
   */
  workspaces(): Promise<{ workspaces: WorkspaceProbe[] }> {
    return listJournalWorkspaces(this.#ctx);
  }

  /**
   * One workspace's state without creating anything (the scheduler's check).
   * @example (await journal.probe({ root })).state === 'ready'
   */
  probe(input: z.input<typeof JournalRootInput>): Promise<WorkspaceProbe> {
    return probeWorkspace(this.#ctx, input);
  }
}
