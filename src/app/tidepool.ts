/**
 * The Tidepool facade: the typed API every surface uses; it only delegates to one use case per method. It passes
 * 400 lines because it is the one door to every use case (STYLE §4 allows it for a delegating facade); modules a
 * command does not need load on first use (`import()`), so a hook that runs on every prompt stays cheap.
 */
import type { RecallInput, RememberInput, RecordInput, NarrativeInput, TimelineInput, ForgetInput } from '../core/schemas.js';
import type { Profile, RecallHit, SelfConcept, Snapshot, Thread, ThreadStatus } from '../core/types.js';
import type { Config } from '../core/config.js';
import type { Store } from '../store/port.js';
import { bindSpace, type AppContext, type AppDeps, type RecallReaders } from './app-context.js';
import type { DoctorReport } from './doctor.js';

import { forget, type ForgetResult } from './forget.js';
import * as identity from './identity.js';
import { notesWritten, recall, type RecallOptions } from './recall.js';
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

import type * as BriefingModule from './briefing.js';
import type * as BrowseKnowledgeModule from './browse-knowledge.js';
import type * as ContinuityModule from './continuity.js';
import type * as ContextBlockModule from './injection/context-block.js';
import type * as PrefetchModule from './injection/prefetch.js';
import type * as SessionSyncModule from './injection/session-sync.js';
import type * as KeyedModule from './keyed-knowledge.js';
import type * as KnowModule from './know.js';
import type * as ClustersModule from './read-clusters.js';
import type * as ReadConversationModule from './read-conversation.js';
import type * as DerivedModule from './read-derived.js';
import type * as ReadGraphModule from './read-graph.js';
import type * as RecallNarrativesModule from './recall-narratives.js';
import type * as RememberModule from './remember.js';
import type * as SleepScheduleModule from './sleep-schedule.js';
import type * as TokensModule from './tokens.js';

/** Package version reported by `doctor` and the MCP server. */
export const TIDEPOOL_VERSION = '0.1.0';

/** The arguments of a use case after its context, so a facade method mirrors the use case it delegates to. */
type Args<F> = F extends (ctx: AppContext, ...rest: infer R) => unknown ? R : never;

/** What a composition root needs to start recall reader threads over this memory's store (`withReaderPool`). */
export interface ReaderPoolBase {
  store: Store;
  config: Config;
  warn: (message: string) => void;
}

// Set once by the class's static block: the only way to reach a facade's context, for app/ modules and tests.
let contextOf: (memory: Tidepool) => AppContext;

/** Long-term memory of one space. Obtain it with `openMemory`. */
export class Tidepool {
  readonly #ctx: AppContext;
  readonly #onClose: () => Promise<void>;

  static {
    contextOf = (memory) => memory.#ctx;
  }

  /** `deps` bound to `space` (boot's `openMemory` builds it; any `scope` passed in is replaced by `space`'s own). */
  constructor(deps: AppDeps & { space: string }, onClose: () => Promise<void>) {
    this.#ctx = bindSpace(deps, deps.space);
    this.#onClose = onClose;
  }

  /** The space this instance reads and writes. */
  get space(): string {
    return this.#ctx.space;
  }

  /** The same memory seen from another space (shares the connection; closing either closes both). */
  withSpace(space: string): Tidepool {
    return new Tidepool(bindSpace(this.#ctx, space), this.#onClose);
  }

  /** The same memory with recall's reads answered by `readers` (boot/reader-pool.ts); writes stay on this thread. */
  withReaders(readers: RecallReaders | undefined): Tidepool {
    const { readers: _old, ...ctx } = this.#ctx;
    return new Tidepool(readers ? { ...ctx, readers } : ctx, this.#onClose);
  }

  /**
   * Starts recall readers over this memory's store with `start` (a composition root's reader pool) and returns the
   * memory they serve; `start` may decline (undefined), and the memory is then this one.
   * @example const { memory, readers } = served.withReaderPool((base) => startReaderPool({ ...base, path, count: 2 }))
   */
  withReaderPool<R extends RecallReaders>(start: (base: ReaderPoolBase) => R | undefined): { memory: Tidepool; readers: R | undefined } {
    const readers = start({ store: this.#ctx.store, config: this.#ctx.config, warn: this.#ctx.warn });
    return { memory: readers ? this.withReaders(readers) : this, readers };
  }

  /** The configuration this memory was opened with. @example memory.config.http.port */
  get config(): Config {
    return this.#ctx.config;
  }

  /** True when an embedder is configured (recall then adds vector neighbours). @example memory.hasEmbedder */
  get hasEmbedder(): boolean {
    return this.#ctx.embedder !== undefined;
  }

  /** The memory's clock, in epoch milliseconds. @example const at = memory.now() */
  now(): number {
    return this.#ctx.clock.now();
  }

  /** Reports a diagnostic through the memory's warning sink (stderr in the CLI). @example memory.warn('SOUL.md is not a file') */
  warn(message: string): void {
    this.#ctx.warn(message);
  }

  /**
   * Stores a durable memory; a `key` supersedes the previous value. Credentials are refused.
   * @example await memory.remember({ text: 'Staging DB moved to port 6543', key: 'staging.db.port' })
   */
  remember(input: RememberInput): Promise<RememberResult> {
    return remember(this.#ctx, input);
  }

  /**
   * Records turns or tool results (credentials redacted), in one transaction.
   * @example await memory.record({ turns: [{ role: 'user', content: 'hi', session: 's1' }] })
   */
  record(input: RecordInput, opts?: RecordOptions): Promise<RecordResult> {
    return record(this.#ctx, input, opts);
  }

  /**
   * Writes a Tideline narrative (`memory_write`).
   * @example await memory.write({ gesture: 'I fixed the sync race at last', importance: 4, tags: ['sync'] })
   */
  write(input: NarrativeInput): Promise<WriteNarrativeResult> {
    return writeNarrative(this.#ctx, input);
  }

  /**
   * Hybrid search over episodes, narratives and knowledge.
   * @example const hits = await memory.recall({ query: 'staging database', limit: 5 })
   */
  recall(input: RecallInput, opts?: RecallOptions): Promise<RecallHit[]> {
    return recall(this.#ctx, input, opts);
  }

  /**
   * Raw history in time order.
   * @example const { items } = await memory.timeline({ limit: 20 })
   */
  timeline(input?: TimelineInput): Promise<TimelinePage> {
    return timeline(this.#ctx, input);
  }

  /**
   * Removes one item (`{id}`), every version of a key (`{key}`) or the whole space (`{all: true, confirm: true}`).
   * @example await memory.forget({ id: 'k12' })
   */
  forget(input: ForgetInput): Promise<ForgetResult> {
    return forget(this.#ctx, input);
  }

  /** Upserts a profile (history kept). @example await memory.writeProfile({ entity: 'Ana', content: 'prefers short answers' }) */
  writeProfile(input: unknown) {
    return identity.writeProfile(this.#ctx, input);
  }
  /** Profiles, newest first. @example await memory.profiles('Ana') */
  profiles(entity?: string): Promise<Profile[]> {
    return identity.readProfiles(this.#ctx, entity);
  }
  /** Upserts a self-concept field. @example await memory.writeSelfConcept({ field: 'terrain', content: '…' }) */
  writeSelfConcept(input: unknown) {
    return identity.writeSelfConcept(this.#ctx, input);
  }
  /** Self-concept fields. @example await memory.selfConcept() */
  selfConcept(): Promise<SelfConcept[]> {
    return identity.readSelfConcept(this.#ctx);
  }
  /** Adds a snapshot. @example await memory.writeSnapshot({ content: 'focused, a bit tired' }) */
  writeSnapshot(input: unknown) {
    return identity.writeSnapshot(this.#ctx, input);
  }
  /** Newest snapshots. @example await memory.snapshots(1) */
  snapshots(limit?: number): Promise<Snapshot[]> {
    return identity.readSnapshots(this.#ctx, limit);
  }
  /** Inserts or updates a thread. @example await memory.writeThread({ content: 'why does sync stall?' }) */
  writeThread(input: unknown) {
    return identity.writeThread(this.#ctx, input);
  }
  /** Threads by status. @example await memory.threads('open', 5) */
  threads(status?: ThreadStatus | 'all', limit?: number): Promise<Thread[]> {
    return identity.readThreads(this.#ctx, status, limit);
  }

  /** The space as JSON lines. @example for await (const line of memory.export()) out.write(line + '\n') */
  async *export(): AsyncGenerator<string> {
    yield* (await import('./export-space.js')).exportSpace(this.#ctx);
  }

  /** Restores export lines into this (empty) space. @example await memory.restore(lines) */
  async restore(lines: AsyncIterable<string> | Iterable<string>) {
    return (await import('./export-space.js')).restoreSpace(this.#ctx, lines);
  }

  /** Embeds items whose embedding was deferred. @example await memory.embedPending() */
  async embedPending() {
    return (await import('./embed-items.js')).embedPending(this.#ctx);
  }

  /**
   * The journal (潮汐记忆 hot/cold markdown memory) bound to this memory: sections are recalled as `journal` episodes.
   * `{ confined: true }` limits roots to the workspaces registered to this space (plus `home`, for the local user).
   * @example await memory.journal().search({ root: '/work/app', query: '竞态', scope: 'all' })
   */
  journal(access?: JournalAccess): Journal {
    return journalFor(this.#ctx, access);
  }

  /** The journal workspaces registered to this space (real paths). @example const [only] = await memory.journalRoots() */
  journalRoots(): Promise<string[]> {
    return journalRoots(this.#ctx);
  }

  /** Registers a journal workspace (its real path is returned). @example await memory.registerJournalWorkspace('/work/app') */
  registerJournalWorkspace(root: string): Promise<string> {
    return registerJournalWorkspace(this.#ctx, root);
  }

  /** Starts the daily journal auto-tend (every 30 min, once per day per workspace). @example const t = memory.startJournalAutoTend(); t.stop() */
  startJournalAutoTend(opts?: AutoTendStartOptions): AutoTendHandle {
    return startJournalAutoTend({ ctx: this.#ctx }, opts);
  }

  /**
   * Runs one script-layer job, rebuilding its derived tables in one transaction.
   * @example const r = await memory.script('topics', { merge: false })
   */
  async script(job: ScriptJob, opts?: ScriptJobOptions): Promise<ScriptJobResult> {
    return (await import('./script-jobs.js')).runScriptJob(this.#ctx, job, opts);
  }

  /**
   * Runs every script-layer job in order; a failing job is reported and the rest still run.
   * @example const { ok, jobs } = await memory.scriptAll()
   */
  async scriptAll(opts?: ScriptJobOptions, onJob?: (entry: ScriptAllEntry) => void): Promise<ScriptAllResult> {
    return (await import('./script-jobs.js')).runAllScriptJobs(this.#ctx, opts, onJob);
  }

  /**
   * Imports a session transcript or a Tideline database, idempotently (turns already stored are skipped).
   * @example await memory.importFile({ path, readHead: async (n) => (await readFile(path)).subarray(0, n), readAll: () => readFile(path) })
   */
  async importFile(input: ImportFileInput, opts?: ImportOptions): Promise<ImportFileResult> {
    return (await import('./import-sessions.js')).importSessionFile(this.#ctx, input, opts);
  }

  /**
   * Runs (or resumes) one night of consolidation; `model` defaults to `config.sleep.model`.
   * @example const r = await memory.sleep({ model: 'openai:gpt-4o-mini' }); if (r.kind === 'slept') console.log(r.briefing.headline)
   */
  async sleep(opts?: SleepOptions): Promise<NightResult> {
    return (await import('./sleep.js')).sleep(this.#ctx, opts);
  }

  /** Whether the space would sleep now, the last night and an interrupted one. @example await memory.sleepStatus() */
  async sleepStatus(): Promise<SleepStatus> {
    return (await import('./sleep.js')).sleepStatus(this.#ctx);
  }

  /**
   * The morning briefing of a UTC day (default: the newest), with its headline and sections; `kind: 'none'` when no
   * night has written one yet. @example const b = await memory.briefing(); if (!('kind' in b)) console.log(b.headline)
   */
  async briefing(input: { day?: string } = {}): Promise<BriefingReport | { kind: 'none'; message: string }> {
    return (await import('./briefing.js')).briefingReport(this.#ctx, input);
  }

  /** Knowledge quarantined for review ("Needs review"). @example const items = await memory.reviewList() */
  async reviewList(): Promise<ReviewItem[]> {
    return (await import('./review.js')).listReview(this.#ctx);
  }

  /** Approves or rejects a quarantined entry. @example await memory.review({ id: 'k12', verdict: 'approve' }) */
  async review(input: ReviewInput): Promise<ReviewResult> {
    return (await import('./review.js')).review(this.#ctx, input);
  }

  /** Knowledge lookup: search with `query`, else list a subject's or kind's live entries. @example await memory.know({ subject: 'Ana' }) */
  async know(...a: Args<typeof KnowModule.know>) {
    return (await import('./know.js')).know(this.#ctx, ...a);
  }

  /** Knowledge pages for the dashboard (filter, sort, counts). @example await memory.browseKnowledge({ status: 'live' }) */
  async browseKnowledge(...a: Args<typeof BrowseKnowledgeModule.browseKnowledge>) {
    return (await import('./browse-knowledge.js')).browseKnowledge(this.#ctx, ...a);
  }

  /** Replaces a knowledge entry's text (a new version). @example await memory.editKnowledge({ id: 'k3', text: 'port 6543' }) */
  async editKnowledge(...a: Args<typeof RememberModule.editKnowledge>) {
    return (await import('./remember.js')).editKnowledge(this.#ctx, ...a);
  }

  /** The turns of one session around an episode. @example await memory.readConversation({ id: 'e12' }) */
  async readConversation(...a: Args<typeof ReadConversationModule.readConversation>) {
    return (await import('./read-conversation.js')).readConversation(this.#ctx, ...a);
  }

  /** Narratives by weight, tag or time (`memory_recall`). @example await memory.recallNarratives({ limit: 5 }) */
  async recallNarratives(...a: Args<typeof RecallNarrativesModule.recallNarratives>) {
    return (await import('./recall-narratives.js')).recallNarratives(this.#ctx, ...a);
  }

  /** The entity graph around an entity, or its heaviest nodes. @example await memory.readGraph({ entity: 'Ana' }) */
  async readGraph(...a: Args<typeof ReadGraphModule.readGraph>) {
    return (await import('./read-graph.js')).readGraph(this.#ctx, ...a);
  }

  /** The attention heatmap. @example await memory.readHeatmap({ days: 7 }) */
  async readHeatmap(...a: Args<typeof ClustersModule.readHeatmap>) {
    return (await import('./read-clusters.js')).readHeatmap(this.#ctx, ...a);
  }

  /** The soft clusters of narratives. @example await memory.readSoftClusters({}) */
  async readSoftClusters(...a: Args<typeof ClustersModule.readSoftClusters>) {
    return (await import('./read-clusters.js')).readSoftClusters(this.#ctx, ...a);
  }

  /** The stored briefing of a day, or the newest. @example const r = await memory.readBriefing({ day: '2026-11-30' }) */
  async readBriefing(...a: Args<typeof DerivedModule.readBriefing>) {
    return (await import('./read-derived.js')).readBriefing(this.#ctx, ...a);
  }

  /** Today's briefing, if a night wrote one. @example await memory.readTodayBriefing() */
  async readTodayBriefing(...a: Args<typeof DerivedModule.readTodayBriefing>) {
    return (await import('./read-derived.js')).readTodayBriefing(this.#ctx, ...a);
  }

  /** The newest briefing's headline. @example const h = await memory.latestHeadline() */
  async latestHeadline(...a: Args<typeof DerivedModule.latestHeadline>) {
    return (await import('./read-derived.js')).latestHeadline(this.#ctx, ...a);
  }

  /** The self view (concept, image, snapshots) the nights maintain. @example await memory.readSelf() */
  async readSelf(...a: Args<typeof DerivedModule.readSelf>) {
    return (await import('./read-derived.js')).readSelf(this.#ctx, ...a);
  }

  /** Topics asked about and poorly answered. @example await memory.readGaps({ limit: 5 }) */
  async readGaps(...a: Args<typeof DerivedModule.readGaps>) {
    return (await import('./read-derived.js')).readGaps(this.#ctx, ...a);
  }

  /** The topic clusters of the script layer. @example await memory.readTopicClusters({ minSize: 1, limit: 50 }) */
  async readTopicClusters(...a: Args<typeof DerivedModule.readTopicClusters>) {
    return (await import('./read-derived.js')).readTopicClusters(this.#ctx, ...a);
  }

  /** The briefing of one day; a day without one is `not_found`. @example await memory.briefingOfDay('2026-11-30') */
  async briefingOfDay(...a: Args<typeof BriefingModule.briefingOfDay>) {
    return (await import('./briefing.js')).briefingOfDay(this.#ctx, ...a);
  }

  /** Sets the session's goal. @example await memory.setGoal({ goal: 'ship 1.2', session: 's1' }) */
  async setGoal(...a: Args<typeof ContinuityModule.setGoal>) {
    return (await import('./continuity.js')).setGoal(this.#ctx, ...a);
  }

  /** Stores a checkpoint of the plan. @example await memory.checkpoint({ plan: 'review, then ship', session: 's1' }) */
  async checkpoint(...a: Args<typeof ContinuityModule.checkpoint>) {
    return (await import('./continuity.js')).checkpoint(this.#ctx, ...a);
  }

  /** Goal, checkpoint and events since the session last looked. @example await memory.getPending({ session: 's1' }) */
  async getPending(...a: Args<typeof ContinuityModule.getPending>) {
    return (await import('./continuity.js')).getPending(this.#ctx, ...a);
  }

  /** Queues an event for the next `getPending`. @example await memory.addPendingEvent('compaction', { trigger: 'auto' }, 's1') */
  async addPendingEvent(...a: Args<typeof ContinuityModule.addPendingEvent>) {
    return (await import('./continuity.js')).addPendingEvent(this.#ctx, ...a);
  }

  /** The session-start context block. @example const { text } = await memory.buildContext({ session: 's1' }) */
  async buildContext(...a: Args<typeof ContextBlockModule.buildContext>) {
    return (await import('./injection/context-block.js')).buildContext(this.#ctx, ...a);
  }

  /** Memories relevant to a prompt, as an injectable block. @example await memory.prefetch({ text: 'which port?', session: 's1' }) */
  async prefetch(...a: Args<typeof PrefetchModule.prefetch>) {
    return (await import('./injection/prefetch.js')).prefetch(this.#ctx, ...a);
  }

  /** Records a Claude Code transcript (a replay records nothing twice). @example await memory.recordClaudeCodeTranscript({ text, fileId }) */
  async recordClaudeCodeTranscript(...a: Args<typeof SessionSyncModule.recordClaudeCodeTranscript>) {
    return (await import('./injection/session-sync.js')).recordClaudeCodeTranscript(this.#ctx, ...a);
  }

  /** The live keyed entry with `key`. @example await memory.getKeyed('prefs/theme') */
  async getKeyed(...a: Args<typeof KeyedModule.getKeyed>) {
    return (await import('./keyed-knowledge.js')).getKeyed(this.#ctx, ...a);
  }

  /** Live keyed entries under a prefix, most recently updated first. @example await memory.listKeyed('prefs/', { limit: 10 }) */
  async listKeyed(...a: Args<typeof KeyedModule.listKeyed>) {
    return (await import('./keyed-knowledge.js')).listKeyed(this.#ctx, ...a);
  }

  /** Every live key under a prefix. @example await memory.keysWithPrefix('prefs/') */
  async keysWithPrefix(...a: Args<typeof KeyedModule.keysWithPrefix>) {
    return (await import('./keyed-knowledge.js')).keysWithPrefix(this.#ctx, ...a);
  }

  /** Recall over the keyed entries under a prefix. @example await memory.searchKeyed('prefs/', 'dark mode') */
  async searchKeyed(...a: Args<typeof KeyedModule.searchKeyed>) {
    return (await import('./keyed-knowledge.js')).searchKeyed(this.#ctx, ...a);
  }

  /** The agent-night hub of this space (`sleep_next`, `sleep_submit`). @example const hub = await memory.agentSleep() */
  async agentSleep() {
    return (await import('./agent-sleep.js')).agentSleep(this.#ctx);
  }

  /** Schedules the nightly sleep of every space at `sleep.at`. @example const nightly = await memory.scheduleNightlySleep(); nightly.stop() */
  async scheduleNightlySleep(...a: Args<typeof SleepScheduleModule.scheduleNightlySleep>) {
    return (await import('./sleep-schedule.js')).scheduleNightlySleep(this.#ctx, ...a);
  }

  /** Creates an API token (the secret is shown once). @example await memory.createToken({ space: 'team', scope: 'read' }) */
  async createToken(...a: Args<typeof TokensModule.createToken>) {
    return (await import('./tokens.js')).createToken(this.#ctx, ...a);
  }

  /** API tokens, of one space or all. @example await memory.listTokens('team') */
  async listTokens(...a: Args<typeof TokensModule.listTokens>) {
    return (await import('./tokens.js')).listTokens(this.#ctx, ...a);
  }

  /** Revokes an API token. @example await memory.revokeToken(3) */
  async revokeToken(...a: Args<typeof TokensModule.revokeToken>) {
    return (await import('./tokens.js')).revokeToken(this.#ctx, ...a);
  }

  /** Live API tokens. @example if ((await memory.activeTokenCount()) === 0) … */
  async activeTokenCount() {
    return (await import('./tokens.js')).activeTokenCount(this.#ctx);
  }

  /** The live token a secret belongs to. @example const row = await memory.verifyToken(secret) */
  async verifyToken(...a: Args<typeof TokensModule.verifyToken>) {
    return (await import('./tokens.js')).verifyToken(this.#ctx, ...a);
  }

  /** Health report. @example const report = await memory.doctor() */
  async doctor(): Promise<DoctorReport> {
    return (await import('./doctor.js')).doctor(this.#ctx, TIDEPOOL_VERSION);
  }

  /** Closes the connection, once the warnings noted so far are kept. @example await memory.close() */
  async close(): Promise<void> {
    await notesWritten(this.#ctx.store);
    await flushWarnings(this.#ctx.store);
    return this.#onClose();
  }
}

/**
 * The context behind a facade, for app/ modules and tests only: surfaces call the facade's methods (the
 * architecture test forbids them this import). @example const { store } = appContextOf(memory)
 */
export function appContextOf(memory: Tidepool): AppContext {
  return contextOf(memory);
}
