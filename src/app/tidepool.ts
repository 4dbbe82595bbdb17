/** The Tidepool facade: the typed API every surface uses; it only delegates to one use case per method. */
import type { RecallInput, RememberInput, RecordInput, NarrativeInput, TimelineInput, ForgetInput } from '../core/schemas.js';
import type { Profile, RecallHit, SelfConcept, Snapshot, Thread, ThreadStatus } from '../core/types.js';
import type { AppContext, RecallReaders } from './app-context.js';
import type { DoctorReport } from './doctor.js';

import { forget, type ForgetResult } from './forget.js';
import * as identity from './identity.js';
import { recall, type RecallOptions } from './recall.js';
import { record, type RecordOptions, type RecordResult } from './record.js';
import { remember, type RememberResult } from './remember.js';
import { timeline, type TimelinePage } from './timeline.js';
import { writeNarrative, type WriteNarrativeResult } from './write-narrative.js';

import type { ReviewInput, ReviewItem, ReviewResult } from './review.js';
import type { SleepOptions, SleepStatus } from './sleep.js';
import type { BriefingReport } from './briefing.js';
import type { NightResult } from '../sleep/night-types.js';
import type { ImportFileInput, ImportFileResult, ImportOptions } from './import-sessions.js';
import type { ScriptAllEntry, ScriptAllResult, ScriptJob, ScriptJobOptions, ScriptJobResult } from './script-jobs.js';
import type { Journal } from '../journal/journal.js';
import {
  journalFor, journalRoots, registerJournalWorkspace, startJournalAutoTend, type AutoTendHandle, type AutoTendStartOptions, type JournalAccess,
} from './journal-service.js';
import { flushWarnings } from './warnings.js';

/** Package version reported by `doctor` and the MCP server. */
export const TIDEPOOL_VERSION = '0.1.0';

/** Long-term memory of one space. Obtain it with `openMemory`. */
export class Tidepool {
  readonly ctx: AppContext;
  readonly #onClose: () => Promise<void>;

  constructor(ctx: AppContext, onClose: () => Promise<void>) {
    this.ctx = ctx;
    this.#onClose = onClose;
  }

  /** The space this instance reads and writes. */
  get space(): string {
    return this.ctx.space;
  }

  /** The same memory seen from another space (shares the connection; closing either closes both). */
  withSpace(space: string): Tidepool {
    return new Tidepool({ ...this.ctx, space }, this.#onClose);
  }

  /** The same memory with recall's reads answered by `readers` (boot/reader-pool.ts); writes stay on this thread. */
  withReaders(readers: RecallReaders | undefined): Tidepool {
    const { readers: _old, ...ctx } = this.ctx;
    return new Tidepool(readers ? { ...ctx, readers } : ctx, this.#onClose);
  }

  /**
   * Stores a durable memory; a `key` supersedes the previous value. Credentials are refused.
   * @example await memory.remember({ text: 'Staging DB moved to port 6543', key: 'staging.db.port' })
   */
  remember(input: RememberInput): Promise<RememberResult> {
    return remember(this.ctx, input);
  }

  /**
   * Records turns or tool results (credentials redacted), in one transaction.
   * @example await memory.record({ turns: [{ role: 'user', content: 'hi', session: 's1' }] })
   */
  record(input: RecordInput, opts?: RecordOptions): Promise<RecordResult> {
    return record(this.ctx, input, opts);
  }

  /**
   * Writes a Tideline narrative (`memory_write`).
   * @example await memory.write({ gesture: 'I fixed the sync race at last', importance: 4, tags: ['sync'] })
   */
  write(input: NarrativeInput): Promise<WriteNarrativeResult> {
    return writeNarrative(this.ctx, input);
  }

  /**
   * Hybrid search over episodes, narratives and knowledge.
   * @example const hits = await memory.recall({ query: 'staging database', limit: 5 })
   */
  recall(input: RecallInput, opts?: RecallOptions): Promise<RecallHit[]> {
    return recall(this.ctx, input, opts);
  }

  /**
   * Raw history in time order.
   * @example const { items } = await memory.timeline({ limit: 20 })
   */
  timeline(input?: TimelineInput): Promise<TimelinePage> {
    return timeline(this.ctx, input);
  }

  /**
   * Removes one item (`{id}`), every version of a key (`{key}`) or the whole space (`{all: true, confirm: true}`).
   * @example await memory.forget({ id: 'k12' })
   */
  forget(input: ForgetInput): Promise<ForgetResult> {
    return forget(this.ctx, input);
  }

  /** Upserts a profile (history kept). @example await memory.writeProfile({ entity: 'Ana', content: 'prefers short answers' }) */
  writeProfile(input: unknown) {
    return identity.writeProfile(this.ctx, input);
  }
  /** Profiles, newest first. @example await memory.profiles('Ana') */
  profiles(entity?: string): Promise<Profile[]> {
    return identity.readProfiles(this.ctx, entity);
  }
  /** Upserts a self-concept field. @example await memory.writeSelfConcept({ field: 'terrain', content: '…' }) */
  writeSelfConcept(input: unknown) {
    return identity.writeSelfConcept(this.ctx, input);
  }
  /** Self-concept fields. @example await memory.selfConcept() */
  selfConcept(): Promise<SelfConcept[]> {
    return identity.readSelfConcept(this.ctx);
  }
  /** Adds a snapshot. @example await memory.writeSnapshot({ content: 'focused, a bit tired' }) */
  writeSnapshot(input: unknown) {
    return identity.writeSnapshot(this.ctx, input);
  }
  /** Newest snapshots. @example await memory.snapshots(1) */
  snapshots(limit?: number): Promise<Snapshot[]> {
    return identity.readSnapshots(this.ctx, limit);
  }
  /** Inserts or updates a thread. @example await memory.writeThread({ content: 'why does sync stall?' }) */
  writeThread(input: unknown) {
    return identity.writeThread(this.ctx, input);
  }
  /** Threads by status. @example await memory.threads('open', 5) */
  threads(status?: ThreadStatus | 'all', limit?: number): Promise<Thread[]> {
    return identity.readThreads(this.ctx, status, limit);
  }

  /** The space as JSON lines. @example for await (const line of memory.export()) out.write(line + '\n') */
  async *export(): AsyncGenerator<string> {
    yield* (await import('./export-space.js')).exportSpace(this.ctx);
  }

  /** Restores export lines into this (empty) space. @example await memory.restore(lines) */
  async restore(lines: AsyncIterable<string> | Iterable<string>) {
    return (await import('./export-space.js')).restoreSpace(this.ctx, lines);
  }

  /** Embeds items whose embedding was deferred. @example await memory.embedPending() */
  async embedPending() {
    return (await import('./embed-items.js')).embedPending(this.ctx);
  }

  /**
   * The journal (潮汐记忆 hot/cold markdown memory) bound to this memory: sections are recalled as `journal` episodes.
   * `{ confined: true }` limits roots to the workspaces registered to this space (plus `home`, for the local user).
   * @example await memory.journal().search({ root: '/work/app', query: '竞态', scope: 'all' })
   */
  journal(access?: JournalAccess): Journal {
    return journalFor(this.ctx, access);
  }

  /** The journal workspaces registered to this space (real paths). @example const [only] = await memory.journalRoots() */
  journalRoots(): Promise<string[]> {
    return journalRoots(this.ctx);
  }

  /** Registers a journal workspace (its real path is returned). @example await memory.registerJournalWorkspace('/work/app') */
  registerJournalWorkspace(root: string): Promise<string> {
    return registerJournalWorkspace(this.ctx, root);
  }

  /** Starts the daily journal auto-tend (every 30 min, once per day per workspace). @example const t = memory.startJournalAutoTend(); t.stop() */
  startJournalAutoTend(opts?: AutoTendStartOptions): AutoTendHandle {
    return startJournalAutoTend(this, opts);
  }

  /**
   * Runs one script-layer job, rebuilding its derived tables in one transaction.
   * @example const r = await memory.script('topics', { merge: false })
   */
  async script(job: ScriptJob, opts?: ScriptJobOptions): Promise<ScriptJobResult> {
    return (await import('./script-jobs.js')).runScriptJob(this.ctx, job, opts);
  }

  /**
   * Runs every script-layer job in order; a failing job is reported and the rest still run.
   * @example const { ok, jobs } = await memory.scriptAll()
   */
  async scriptAll(opts?: ScriptJobOptions, onJob?: (entry: ScriptAllEntry) => void): Promise<ScriptAllResult> {
    return (await import('./script-jobs.js')).runAllScriptJobs(this.ctx, opts, onJob);
  }

  /**
   * Imports a session transcript or a Tideline database, idempotently (turns already stored are skipped).
   * @example await memory.importFile({ path, readHead: async (n) => (await readFile(path)).subarray(0, n), readAll: () => readFile(path) })
   */
  async importFile(input: ImportFileInput, opts?: ImportOptions): Promise<ImportFileResult> {
    return (await import('./import-sessions.js')).importSessionFile(this.ctx, input, opts);
  }

  /**
   * Runs (or resumes) one night of consolidation; `model` defaults to `config.sleep.model`.
   * @example const r = await memory.sleep({ model: 'openai:gpt-4o-mini' }); if (r.kind === 'slept') console.log(r.briefing.headline)
   */
  async sleep(opts?: SleepOptions): Promise<NightResult> {
    return (await import('./sleep.js')).sleep(this.ctx, opts);
  }

  /** Whether the space would sleep now, the last night and an interrupted one. @example await memory.sleepStatus() */
  async sleepStatus(): Promise<SleepStatus> {
    return (await import('./sleep.js')).sleepStatus(this.ctx);
  }

  /**
   * The morning briefing of a UTC day (default: the newest), with its headline and sections; `kind: 'none'` when no
   * night has written one yet. @example const b = await memory.briefing(); if (!('kind' in b)) console.log(b.headline)
   */
  async briefing(input: { day?: string } = {}): Promise<BriefingReport | { kind: 'none'; message: string }> {
    return (await import('./briefing.js')).briefingReport(this.ctx, input);
  }

  /** Knowledge quarantined for review ("Needs review"). @example const items = await memory.reviewList() */
  async reviewList(): Promise<ReviewItem[]> {
    return (await import('./review.js')).listReview(this.ctx);
  }

  /** Approves or rejects a quarantined entry. @example await memory.review({ id: 'k12', verdict: 'approve' }) */
  async review(input: ReviewInput): Promise<ReviewResult> {
    return (await import('./review.js')).review(this.ctx, input);
  }

  /** Health report. @example const report = await memory.doctor() */
  async doctor(): Promise<DoctorReport> {
    return (await import('./doctor.js')).doctor(this.ctx, TIDEPOOL_VERSION);
  }

  /** Closes the connection, once the warnings noted so far are kept. @example await memory.close() */
  async close(): Promise<void> {
    await flushWarnings(this.ctx.store);
    return this.#onClose();
  }
}
