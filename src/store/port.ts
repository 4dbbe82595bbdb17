/** The Store port: everything the app, retrieval, journal and sleep may ask of a storage engine. */
// Past 400 lines on purpose (STYLE §4): one interface per store area, all declarations, so an engine's whole
// obligation reads in one place; the implementations live one area per file under sql/.
import type {
  Episode,
  EpisodeKind,
  Evidence,
  HistoryEntry,
  Knowledge,
  KnowledgeKind,
  KnowledgeLink,
  KnowledgeStatus,
  Layer,
  LinkType,
  Narrative,
  NarrativeKind,
  Profile,
  ProfileType,
  SelfConcept,
  SelfConceptField,
  Snapshot,
  Thread,
  ThreadStatus,
} from '../core/types.js';

/** Text prepared for the lexical indexes by the caller (segmented CJK, joined fields). */
export interface IndexText {
  /** Segmented text for the word index (FTS5 / tsvector). */
  body: string;
  /** Secondary field: speaker for episodes, tags for narratives and knowledge. */
  extra: string;
  /** Raw text for the substring (trigram) index. */
  raw: string;
  /** Segmented text of the turns just before an episode in its session (a weaker field; episodes only). */
  ctx?: string;
}

/** A new episode row. */
export interface NewEpisode {
  kind: EpisodeKind;
  role: string | null;
  speaker: string | null;
  content: string;
  session: string | null;
  tool: string | null;
  ok: boolean | null;
  source: string;
  ref: string | null;
  meta: Record<string, unknown>;
  durable: boolean;
  occurredAt: number;
  createdAt: number;
  consolidatedAt?: number | null;
  embedPending: boolean;
  index: IndexText;
}

/** Filters of a timeline read. */
export interface TimelineQuery {
  from?: number;
  to?: number;
  session?: string;
  limit: number;
  offset: number;
  order: 'asc' | 'desc';
  includeArchived: boolean;
}

/** The columns of an episode that recall ranks, filters and shows. */
export type RecallEpisode = Pick<Episode, 'id' | 'kind' | 'role' | 'speaker' | 'content' | 'session' | 'occurredAt' | 'archivedAt'>;

/** Raw episodes. */
export interface EpisodeStore {
  /** Inserts rows in order; rows whose `ref` already exists in the space are skipped (idempotent import). */
  insertMany(space: string, rows: readonly NewEpisode[]): Promise<{ ids: number[]; skipped: number }>;
  get(space: string, id: number): Promise<Episode | undefined>;
  getMany(space: string, ids: readonly number[]): Promise<Episode[]>;
  /** What recall ranks and shows of each episode (fewer columns than getMany: recall reads hundreds per query). */
  getForRecall(space: string, ids: readonly number[]): Promise<RecallEpisode[]>;
  timeline(space: string, q: TimelineQuery): Promise<{ items: Episode[]; total: number }>;
  /**
   * Position facts (id, session, time, speaker) of every episode whose id lies within ±`window` of one of `ids`:
   * enough to find each hit's neighbouring turns of the same session without reading whole sessions.
   */
  around(space: string, ids: readonly number[], window: number): Promise<Array<{ id: number; session: string | null; occurredAt: number; speaker: string | null }>>;
  /** Contents of the newest `n` episodes of each session, oldest first (a session without episodes is left out). */
  lastInSessions(space: string, sessions: readonly string[], n: number): Promise<Map<string, string[]>>;
  /** Ids of the first `n` episodes (by time) of each of `sessions`: the turns that open a conversation. */
  openingTurns(space: string, sessions: readonly string[], n: number): Promise<number[]>;
  /** Distinct speakers of the space (for recognising a person a query names). */
  speakers(space: string): Promise<string[]>;
  /** Episodes of one session ordered by time, around `id` (±n turns). */
  neighbours(space: string, id: number, n: number): Promise<Episode[]>;
  delete(space: string, ids: readonly number[]): Promise<number>;
  count(space: string): Promise<number>;
  /** Ids of the space's episodes whose content is exactly one of `contents` (and, when given, whose source is `source`). */
  idsWithContent(space: string, contents: readonly string[], source?: string): Promise<number[]>;
}

/** A new narrative row. */
export interface NewNarrative {
  kind: NarrativeKind;
  ntype: string;
  content: string;
  gesture: string | null;
  context: string | null;
  moment: string | null;
  cognitionDirection: string | null;
  tags: string[];
  entitiesRole: string | null;
  relatedEntities: string[];
  sourceLinks: number[];
  importance: number;
  emotional: number;
  recurrence: number;
  unresolved: number;
  weight: number;
  createdAt: number;
  embedPending: boolean;
  index: IndexText;
}

/** Structured narratives. */
export interface NarrativeStore {
  insert(space: string, row: NewNarrative): Promise<number>;
  get(space: string, id: number): Promise<Narrative | undefined>;
  getMany(space: string, ids: readonly number[]): Promise<Narrative[]>;
  /** Number of other narratives sharing any of `tags` (exact, UTF-8 as written). */
  countSharingTags(space: string, tags: readonly string[], excludeId?: number): Promise<number>;
  /** For each tag, how many narratives carry it. */
  tagCounts(space: string, tags?: readonly string[]): Promise<Map<string, number>>;
  /** Ids and tags of narratives sharing any of `tags`. */
  withAnyTag(space: string, tags: readonly string[]): Promise<Array<{ id: number; tags: string[] }>>;
  /** Newest narratives, optionally filtered. */
  list(
    space: string,
    q: { limit: number; offset?: number; ntype?: string; tags?: readonly string[]; since?: number; minWeight?: number; kind?: NarrativeKind },
  ): Promise<Narrative[]>;
  /** The `n` newest (id, weight) pairs, for anti-inflation. */
  newestWeights(space: string, n: number): Promise<Array<{ id: number; weight: number }>>;
  setWeights(space: string, rows: ReadonlyArray<{ id: number; weight: number }>): Promise<void>;
  setScores(space: string, rows: ReadonlyArray<{ id: number; recurrence: number; weight: number }>): Promise<void>;
  delete(space: string, ids: readonly number[]): Promise<number>;
  count(space: string): Promise<number>;
}

/** A new knowledge row. */
export interface NewKnowledge {
  kind: KnowledgeKind;
  key: string | null;
  subject: string | null;
  content: string;
  status: KnowledgeStatus;
  occurrences: number;
  strength: number;
  importance: number;
  durable: boolean;
  tags: string[];
  evidence: Evidence;
  source: string;
  validFrom: number | null;
  validTo: number | null;
  createdAt: number;
  meta: Record<string, unknown>;
  embedPending: boolean;
  index: IndexText;
}

/** Knowledge entries and their links. */
export interface KnowledgeStore {
  insert(space: string, row: NewKnowledge): Promise<number>;
  get(space: string, id: number): Promise<Knowledge | undefined>;
  getMany(space: string, ids: readonly number[]): Promise<Knowledge[]>;
  /** The live (not superseded or forgotten) entry with `key`. Inside a transaction on PostgreSQL it also holds the key until commit, so writers of one key take turns. */
  getLiveByKey(space: string, key: string): Promise<Knowledge | undefined>;
  /** Ids of every version (live and superseded) of the entry with `key`. */
  idsByKey(space: string, key: string): Promise<number[]>;
  /** The live entries whose key starts with `prefix` (case-sensitive), most recently updated first. */
  listLiveByKeyPrefix(space: string, prefix: string, page: { limit: number; offset?: number }): Promise<Knowledge[]>;
  /** The keys of every live entry whose key starts with `prefix`, in key order. */
  liveKeysWithPrefix(space: string, prefix: string): Promise<string[]>;
  list(space: string, q: { kinds?: readonly KnowledgeKind[]; statuses?: readonly KnowledgeStatus[]; subject?: string; limit: number; offset?: number }): Promise<Knowledge[]>;
  /** Marks `id` superseded by `by` and closes its validity interval at `at`. */
  supersede(space: string, id: number, by: number, at: number): Promise<void>;
  setStatus(space: string, ids: readonly number[], status: KnowledgeStatus, at: number): Promise<void>;
  /** Adds `step` to strength (capped at 1) and stamps the reinforcement time. */
  reinforce(space: string, ids: readonly number[], step: number, at: number): Promise<void>;
  update(space: string, id: number, patch: Partial<Pick<Knowledge, 'content' | 'occurrences' | 'strength' | 'evidence' | 'tags' | 'validFrom' | 'validTo' | 'meta'>>, index?: IndexText, at?: number): Promise<void>;
  link(space: string, fromId: number, toId: number, type: LinkType, at: number): Promise<boolean>;
  links(space: string, id: number): Promise<KnowledgeLink[]>;
  delete(space: string, ids: readonly number[]): Promise<number>;
  count(space: string, statuses?: readonly KnowledgeStatus[]): Promise<number>;
  /** Ids of the space's entries (any status) whose content is exactly one of `contents`. */
  idsWithContent(space: string, contents: readonly string[]): Promise<number[]>;
}

/** Profiles, self-concept, snapshots and threads. */
export interface IdentityStore {
  upsertProfile(space: string, p: { entity: string; ptype: ProfileType; content: string; pinned?: boolean; at: number }): Promise<{ id: number; previous?: string }>;
  profiles(space: string, entity?: string): Promise<Profile[]>;
  profileHistory(space: string, entity: string, ptype: ProfileType): Promise<HistoryEntry[]>;
  upsertSelfConcept(space: string, field: SelfConceptField, content: string, at: number): Promise<{ previous?: string }>;
  selfConcept(space: string): Promise<SelfConcept[]>;
  selfConceptHistory(space: string, field: SelfConceptField): Promise<HistoryEntry[]>;
  addSnapshot(space: string, content: string, at: number): Promise<number>;
  snapshots(space: string, limit: number): Promise<Snapshot[]>;
  insertThread(space: string, t: Omit<Thread, 'id' | 'updatedAt' | 'exploredAt'>): Promise<number>;
  updateThread(space: string, id: number, patch: Partial<Omit<Thread, 'id' | 'createdAt'>>): Promise<boolean>;
  threads(space: string, status: ThreadStatus | 'all', limit: number): Promise<Thread[]>;
}

/** One attention-log entry. */
export interface AttentionEntry {
  layer: Layer;
  itemId: number;
  sim: number;
  cluster: string | null;
  source: string;
  session: string | null;
  at: number;
}

/** The attention log and its per-cluster stats. */
export interface AttentionStore {
  log(space: string, entries: readonly AttentionEntry[]): Promise<void>;
  since(space: string, from: number): Promise<AttentionEntry[]>;
  /**
   * How often each of `ids` (of `layer`) reached the agent: recall and search hits, context and prefetch injections
   * (the night's dream reads do not count). Ids never seen are absent.
   */
  seenCounts(space: string, layer: Layer, ids: readonly number[]): Promise<Map<number, number>>;
  /** Ids already injected into `session` (prefetch never repeats them). */
  injectedInSession(space: string, session: string): Promise<Array<{ layer: Layer; itemId: number }>>;
}

/** How a vector search may trade exactness for speed. */
export interface NearestOptions {
  /** SQLite: sets larger than this use the binary pre-selection (absent: always exact; 0: always binary). */
  quantizeAbove?: number;
  /**
   * SQLite with hnswlib-node installed: sets of at least this many vectors are searched through an HNSW graph whose
   * candidates the exact cosine re-scores (absent: the exact scan). PostgreSQL uses pgvector's HNSW when it has it.
   */
  indexAbove?: number;
}

/** Stored vectors, one per item and model. */
export interface VectorStore {
  put(space: string, layer: Layer, itemId: number, model: string, vector: Float32Array, at: number): Promise<void>;
  /**
   * Cosine top-k over the space's vectors of `model` in `layer`: exact, or through an engine's index (pgvector HNSW;
   * SQLite's opt-in binary pre-selection with exact re-scoring past `opts.quantizeAbove` vectors).
   */
  nearest(
    space: string,
    layer: Layer,
    model: string,
    query: Float32Array,
    k: number,
    opts?: NearestOptions,
  ): Promise<Array<{ id: number; score: number }>>;
  /** Items marked for later embedding (the embedder was down). */
  pending(space: string, layer: Layer, limit: number): Promise<Array<{ id: number; text: string }>>;
  clearPending(space: string, layer: Layer, ids: readonly number[]): Promise<void>;
  count(space: string, model?: string): Promise<number>;
}

/** Options of a lexical search. */
export interface LexicalOptions {
  limit: number;
  since?: number;
  until?: number;
  includeArchived?: boolean;
  /** Knowledge statuses allowed (quarantined is never among them for recall). */
  statuses?: readonly KnowledgeStatus[];
  kinds?: readonly string[];
  session?: string;
  minWeight?: number;
}

/** Engine-specific full-text indexes; kept in step with the tables inside the same transaction. */
export interface SearchIndex {
  index(layer: Layer, docs: ReadonlyArray<{ id: number } & IndexText>): Promise<void>;
  /**
   * Optional: prepares the entries of texts about to be indexed. A writer calls it while the database inserts the
   * rows, so an engine that builds its entries in the app (PostgreSQL's tsvectors) does that work in the meantime.
   */
  prepare?(docs: readonly IndexText[]): void;
  /**
   * Optional: whether the index holds terms of an older tokenizer (PostgreSQL before issue 20.3 stemmed with
   * Snowball); the app then indexes every item again and calls `markTermsCurrent` in the same transaction.
   */
  termsOutdated?(): Promise<boolean>;
  markTermsCurrent?(): Promise<void>;
  unindex(layer: Layer, ids: readonly number[]): Promise<void>;
  /**
   * BM25-ranked ids for any of `terms` (already normalised words); higher score is better. A term of one Chinese
   * character matches the indexed words it begins (搬 → 搬家, 搬进).
   */
  lexical(space: string, layer: Layer, terms: readonly string[], opts: LexicalOptions): Promise<Array<{ id: number; score: number }>>;
  /** Ids whose raw text contains `needle` (case-insensitive), via the trigram index (≥ 3 chars) or a scan. */
  substring(space: string, layer: Layer, needle: string, opts: LexicalOptions): Promise<Array<{ id: number; score: number }>>;
}

/** Generic row access for export and restore: every table that carries a `space` column. */
export interface RowStore {
  /** Table names in dependency order: what export writes and restore loads. Credentials (`api_tokens`) are not among them. */
  tables(): readonly string[];
  /** Rows of one table for a space, ordered by primary key; BLOBs as Uint8Array. */
  dump(space: string, table: string): AsyncIterable<Record<string, unknown>>;
  /** Inserts rows exactly as dumped (explicit ids). */
  load(table: string, rows: ReadonlyArray<Record<string, unknown>>): Promise<void>;
  /** Deletes every row of a space in every table, its API tokens included (and its index entries). */
  eraseSpace(space: string): Promise<void>;
  /** Whether no table of `tables()` holds a row of the space (its API tokens do not count). */
  spaceIsEmpty(space: string): Promise<boolean>;
  /**
   * Deletes the space's work records that quote one of `texts` verbatim (the night's packets and answers in
   * `sleep_work`): what a forget must not leave behind. Returns the rows deleted.
   */
  dropQuoting(space: string, texts: readonly string[]): Promise<number>;
}

/** What {@link Store.purge} could do. */
export interface PurgeResult {
  /** False when part of it could not finish now (a SQLite reader kept the WAL busy); the next purge retries it. */
  complete: boolean;
  /** Milliseconds it took. */
  ms: number;
}

/** Spaces. */
export interface SpaceStore {
  ensure(space: string, at: number): Promise<void>;
  exists(space: string): Promise<boolean>;
  list(): Promise<string[]>;
  delete(space: string): Promise<void>;
}

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

/** Facts about the engine for `doctor`. */
export interface StoreInfo {
  engine: 'sqlite' | 'postgres';
  location: string;
  schemaVersion: number;
  versions: Record<string, string>;
  features: Record<string, boolean>;
  integrity: string;
}

/** The whole store. */
export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly spaces: SpaceStore;
  readonly episodes: EpisodeStore;
  readonly narratives: NarrativeStore;
  readonly knowledge: KnowledgeStore;
  readonly identity: IdentityStore;
  readonly attention: AttentionStore;
  readonly vectors: VectorStore;
  readonly search: SearchIndex;
  readonly rows: RowStore;
  readonly jobs: JobClaims;
  /** Runs `fn` with a store bound to one write transaction: all or nothing. */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /**
   * Erasure to the byte (issue 22): after rows were deleted, removes what the engine's files still keep of them.
   * SQLite rewrites the touched full-text indexes (FTS5 keeps deleted tokens in its segments until they merge) and
   * checkpoints and truncates the WAL (deleted pages are zeroed by `secure_delete`); PostgreSQL vacuums the touched
   * tables. `layers` names the item layers that lost rows, `'all'` every table (a space was erased). Call it on the
   * store, never inside a transaction, after the delete committed.
   */
  purge(layers: readonly Layer[] | 'all'): Promise<PurgeResult>;
  info(): Promise<StoreInfo>;
  close(): Promise<void>;
}

// ---- Derived reads and continuity (issue 8: injection, MCP). Appended; the Store interface is extended below. ----

/** One morning briefing (one per space and UTC day). */
export interface BriefingRow {
  day: string;
  headline: string;
  body: string;
  createdAt: number;
}

/** One topic cluster as the script layer stored it. */
export interface TopicClusterRow {
  id: number;
  name: string;
  keywords: string[];
  size: number;
  narrativeIds: number[];
  lastActive: number | null;
  avgWeight: number | null;
}

/** One embedding cluster with its adjacency degree. */
export interface SoftClusterRow {
  id: number;
  name: string;
  memberCount: number;
  degree: number;
  updatedAt: number;
}

/** One entity-graph node. */
export interface GraphNodeRow {
  entity: string;
  mentionCount: number;
  firstSeen: number;
  lastSeen: number;
}

/** One entity-graph edge: two entities co-mentioned in one narrative, each with its role as stored. */
export interface GraphEdgeRow {
  entityA: string;
  roleA: string | null;
  entityB: string;
  roleB: string | null;
  narrativeId: number;
  createdAt: number;
}

/** How often a topic (knowledge subject or graph entity) is mentioned and how many links touch it. */
export interface TopicStatRow {
  topic: string;
  mentions: number;
  degree: number;
}

/** Reads of the derived tables the script layer and the sleep fill (DESIGN §1.5); never the source of truth. */
export interface DerivedStore {
  briefing(space: string, day: string): Promise<BriefingRow | undefined>;
  latestBriefing(space: string): Promise<BriefingRow | undefined>;
  /** Clusters with at least `minSize` members, largest first. */
  topicClusters(space: string, q: { minSize: number; limit: number }): Promise<TopicClusterRow[]>;
  softClusters(space: string): Promise<SoftClusterRow[]>;
  softClusterMembers(space: string, clusterId: number, limit: number): Promise<Array<{ narrativeId: number; distance: number }>>;
  softClusterNeighbours(space: string, clusterId: number, limit: number): Promise<Array<{ id: number; name: string; shared: number }>>;
  /** Narratives created at or after `since` with weight above `minWeight`, heaviest first. */
  heaviestNarratives(space: string, q: { since: number; minWeight: number; limit: number }): Promise<Narrative[]>;
  graphNodes(space: string, limit: number): Promise<GraphNodeRow[]>;
  /** A node by name (exact, then case-insensitive). */
  graphNode(space: string, entity: string): Promise<GraphNodeRow | undefined>;
  graphPartners(space: string, entity: string, limit: number): Promise<Array<{ entity: string; count: number }>>;
  /** Edges between `a` and `b` in either stored order, newest first. */
  graphPairEdges(space: string, a: string, b: string, limit: number): Promise<GraphEdgeRow[]>;
  /** Knowledge subjects (live entries) and graph entities with mention counts and link degrees. */
  topicStats(space: string): Promise<TopicStatRow[]>;
}

/** The one active goal of a space. */
export interface GoalRow {
  id: number;
  text: string;
  status: 'active' | 'done' | 'replaced';
  session: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A plan to resume after compaction. */
export interface CheckpointRow {
  id: number;
  goalId: number | null;
  plan: string;
  session: string | null;
  createdAt: number;
}

/** An event an agent may have missed (compaction, a new goal, a checkpoint). */
export interface PendingEventRow {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  session: string | null;
  createdAt: number;
  deliveredAt: number | null;
}

/** Goals, checkpoints and pending events (Tulimoa set_goal / checkpoint / get_pending). */
export interface ContinuityStore {
  /** Makes `text` the active goal; the previous active goal becomes `replaced`. */
  setGoal(space: string, g: { text: string; session: string | null; at: number }): Promise<{ id: number; replaced: GoalRow | undefined }>;
  /** Marks the active goal `done`; undefined when there was none. */
  finishGoal(space: string, at: number): Promise<GoalRow | undefined>;
  activeGoal(space: string): Promise<GoalRow | undefined>;
  addCheckpoint(space: string, c: { goalId: number | null; plan: string; session: string | null; at: number }): Promise<number>;
  latestCheckpoint(space: string): Promise<CheckpointRow | undefined>;
  addEvent(space: string, e: { kind: string; payload: Record<string, unknown>; session: string | null; at: number }): Promise<number>;
  /** Undelivered events, oldest first; with `session`, that session's and the space-wide ones. */
  pendingEvents(space: string, q: { session?: string; limit: number }): Promise<PendingEventRow[]>;
  markDelivered(space: string, ids: readonly number[], at: number): Promise<void>;
}

/** The Store, extended by interface merging with the areas above. */
export interface Store {
  readonly derived: DerivedStore;
  readonly continuity: ContinuityStore;
}

// ---- Journal (issue 7: 潮汐记忆). Appended; the Store interface is extended below. ----

/** One workspace that used the journal in a space. */
export interface JournalWorkspaceRow {
  /** Real path of the workspace folder. */
  root: string;
  title: string | null;
  registeredAt: number;
  lastUsedAt: number;
  /** The journal day of the last completed tend. */
  lastTendedDay: string | null;
}

/** A day file that left the cold folder over coldMaxFiles, kept in the database instead of being deleted. */
export interface JournalArchiveRow {
  root: string;
  day: string;
  content: string;
  sha256: string;
  archivedAt: number;
  restoredAt: number | null;
}

/** A journal episode's identity and place, for replacing a workspace's sections without re-inserting unchanged ones. */
export interface JournalEpisodeRow {
  id: number;
  ref: string;
  meta: Record<string, unknown>;
  occurredAt: number;
}

/** Journal workspaces, the archive of days (DESIGN §7: overflow goes to the database, not away), journal episodes. */
export interface JournalStore {
  /** Adds the workspace or stamps its last use; idempotent. */
  registerWorkspace(space: string, w: { root: string; title: string | null; at: number }): Promise<void>;
  workspaces(space: string): Promise<JournalWorkspaceRow[]>;
  workspace(space: string, root: string): Promise<JournalWorkspaceRow | undefined>;
  /** Records a completed tend; registers the workspace when it was not. */
  setTendState(space: string, root: string, day: string, at: number): Promise<void>;
  /** Stores a day; idempotent per (space, root, day): the last copy wins and a restore mark is cleared. */
  archiveDay(space: string, d: { root: string; day: string; content: string; sha256: string; at: number }): Promise<void>;
  archivedDay(space: string, root: string, day: string): Promise<JournalArchiveRow | undefined>;
  /** Stamps a restore; the archived copy stays. */
  markRestored(space: string, root: string, day: string, at: number): Promise<void>;
  /** Days of the workspace in the archive, ascending. */
  archivedDays(space: string, root: string): Promise<string[]>;
  /** Episodes of the space whose `ref` starts with `prefix` exactly (case-sensitive). */
  episodesByRefPrefix(space: string, prefix: string): Promise<JournalEpisodeRow[]>;
  /** Rewrites an episode's meta and time in place (a section that moved tier but kept its text). */
  moveEpisode(space: string, id: number, p: { meta: Record<string, unknown>; occurredAt: number }): Promise<void>;
}

/** The Store, extended by interface merging with the journal area. */
export interface Store {
  readonly journal: JournalStore;
}

// ---- Script layer rebuilds (issue 9). Appended; the Store interface is extended below. ----

/** A narrative's text fields, as keyword extraction reads them. */
export interface NarrativeTextRow {
  id: number;
  content: string;
  gesture: string | null;
  context: string | null;
  cognitionDirection: string | null;
  weight: number;
  createdAt: number;
}

/** A narrative's tags and scores, as the weight jobs read them. */
export interface NarrativeScoreRow {
  id: number;
  tags: string[];
  importance: number;
  emotional: number;
  recurrence: number;
  unresolved: number;
  weight: number;
  createdAt: number;
}

/** A narrative's links and embedding state, as the Layer-0 scan reads them. */
export interface NarrativeLinkRow {
  id: number;
  sourceLinks: number[];
  createdAt: number;
  embedPending: boolean;
}

/** One topic cluster to store (the script layer's `TopicCluster`, or one imported from Tideline). */
export interface TopicClusterWrite {
  name: string;
  keywords: readonly string[];
  size: number;
  narrativeIds: readonly number[];
  lastActive: number | null;
  avgWeight: number | null;
}

/** A whole soft-cluster build to store; memberships and adjacency name clusters by their index in `clusters`. */
export interface SoftClusterWrite {
  clusters: ReadonlyArray<{ name: string; centroid: ArrayLike<number>; memberCount: number }>;
  memberships: ReadonlyArray<{ narrativeId: number; cluster: number; distance: number }>;
  adjacency: ReadonlyArray<{ a: number; b: number; shared: number }>;
}

/** A stored soft cluster with its centroid, for query routing. */
export interface SoftClusterModelRow {
  id: number;
  name: string;
  centroid: Float32Array | null;
}

/** The entity graph to store (the script layer's `EntityGraph`). */
export interface EntityGraphWrite {
  nodes: ReadonlyArray<{ entity: string; mentionCount: number; firstSeen: number; lastSeen: number }>;
  edges: ReadonlyArray<{ entityA: string; roleA: string; entityB: string; roleB: string; narrativeId: number; createdAt: number }>;
  cooccur: ReadonlyArray<{ entityA: string; entityB: string; count: number }>;
}

/** One per-cluster attention total (`attention_stats`). */
export interface AttentionStatWrite {
  cluster: string;
  hitCount: number;
  lastHit: number;
  lastItemId: number | null;
}

/** An episode as the Layer-0 scan and the links backfill read it. */
export interface ScriptEpisodeRow {
  id: number;
  content: string;
  role: string | null;
  session: string | null;
  occurredAt: number;
}

/**
 * What the script layer reads in bulk and rebuilds (DESIGN §1.5): every `replace*` deletes the space's rows of its
 * tables and writes the new ones; callers run it inside `store.transaction` so a rebuild is all or nothing.
 */
export interface ScriptStore {
  /** Text fields of every narrative (only those without source_links when `unlinked`), ascending id. */
  narrativeTexts(space: string, q?: { unlinked?: boolean }): Promise<NarrativeTextRow[]>;
  /** `entities_role` of every narrative that has one, ascending id. */
  narrativeRoles(space: string): Promise<Array<{ id: number; entitiesRole: string; createdAt: number }>>;
  /** Tags and scores of every narrative (only tagged ones with `tagged`; only the `newest` n by creation), ascending id. */
  narrativeScores(space: string, q?: { tagged?: boolean; newest?: number }): Promise<NarrativeScoreRow[]>;
  /** source_links, creation time and embedding state of every narrative, ascending id. */
  narrativeLinks(space: string): Promise<NarrativeLinkRow[]>;
  /** Narratives per weight band (core/weight-scale `WEIGHT_BANDS`). */
  weightBands(space: string): Promise<{ high: number; mid: number; low: number }>;
  /** Models and dimensions of the space's narrative vectors, most vectors first. */
  narrativeVectorModels(space: string): Promise<Array<{ model: string; dim: number; count: number }>>;
  /** Narrative vectors of one model and dimension, ascending narrative id. */
  narrativeVectors(space: string, model: string, dim: number): Promise<Array<{ id: number; vector: Float32Array }>>;
  replaceTopicClusters(space: string, rows: readonly TopicClusterWrite[]): Promise<void>;
  /** Inserts or overwrites clusters by name, leaving the others (Tideline import). */
  upsertTopicClusters(space: string, rows: readonly TopicClusterWrite[]): Promise<void>;
  /** Replaces clusters, members and adjacency; returns the new cluster ids by build index. */
  replaceSoftClusters(space: string, build: SoftClusterWrite, at: number): Promise<number[]>;
  /** Stored soft clusters with centroids, and their adjacency by cluster id. */
  softClusterModel(space: string): Promise<{ clusters: SoftClusterModelRow[]; adjacency: Array<{ a: number; b: number; shared: number }> }>;
  /** Memberships, nearest first per cluster: all of them, or those of the given clusters or of the given narratives. */
  softClusterMemberships(
    space: string,
    q?: { clusterIds?: readonly number[]; narrativeIds?: readonly number[] },
  ): Promise<Array<{ clusterId: number; narrativeId: number; distance: number }>>;
  /** Names of the stored topic clusters, largest first. */
  topicClusterNames(space: string): Promise<string[]>;
  replaceAttentionStats(space: string, rows: readonly AttentionStatWrite[], clusterHits: ReadonlyArray<{ clusterId: number; hits: number }>): Promise<void>;
  replaceEntityGraph(space: string, graph: EntityGraphWrite): Promise<void>;
  /** Writes new recurrence and/or weight values; returns the rows changed. */
  updateScores(space: string, rows: ReadonlyArray<{ id: number; recurrence?: number; weight?: number }>): Promise<number>;
  /** Sets source_links of narratives that still have none (a narrative linked meanwhile is left alone). */
  fillSourceLinks(space: string, rows: ReadonlyArray<{ narrativeId: number; sourceLinks: readonly number[] }>): Promise<number>;
  /** Unconsolidated, unarchived episodes stored after `since` (all when null), by time. */
  episodesStoredAfter(space: string, since: number | null): Promise<ScriptEpisodeRow[]>;
  /** Episodes whose time lies in one of the closed ranges, by time. */
  episodesInRanges(space: string, ranges: ReadonlyArray<readonly [number, number]>): Promise<ScriptEpisodeRow[]>;
  /** How many items of a layer wait for an embedding, and the first `limit` ids. */
  pendingEmbeddings(space: string, layer: Layer, limit: number): Promise<{ count: number; ids: number[] }>;
  /** Episode ids by `ref` for the refs that exist. */
  episodeIdsByRef(space: string, refs: readonly string[]): Promise<Map<string, number>>;
  /** A JSON value kept per space under `key` (e.g. an import's id mapping); undefined when none. */
  getState(space: string, key: string): Promise<unknown>;
  putState(space: string, key: string, value: unknown, at: number): Promise<void>;
}

/** The Store, extended by interface merging with the script area. */
export interface Store {
  readonly script: ScriptStore;
}

// ---- Sleep (issue 3: nightly consolidation). Appended; the Store interface is extended below. ----

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

/** Rewritable narrative text fields (the PII night watch replaces names in them). */
export interface NarrativeText {
  content: string;
  gesture: string | null;
  context: string | null;
  moment: string | null;
  cognitionDirection: string | null;
}

/** What the nightly sleep needs beyond the other areas: its own bookkeeping and the episode lifecycle marks. */
export interface SleepStore {
  /** The newest run still `running` (a crashed or interrupted night), if any. */
  openRun(space: string): Promise<SleepRunRow | undefined>;
  createRun(space: string, r: { night: string; model: string; startedAt: number; log: Record<string, unknown> }): Promise<number>;
  /** Marks the run done with its token totals and final log. */
  finishRun(space: string, id: number, r: { finishedAt: number; tokensIn: number; tokensOut: number; log: Record<string, unknown> }): Promise<void>;
  /** Runs of the space, newest first; `night` and `status` filter. */
  runs(space: string, q: { night?: string; status?: SleepRunRow['status']; limit: number }): Promise<SleepRunRow[]>;
  /** Inserts the planned units of a run (existing keys are kept as they are). */
  planWork(space: string, runId: number, units: ReadonlyArray<{ step: string; unit: string; payload: unknown }>, at: number): Promise<void>;
  /** Every unit of a run, ordered by step and unit. */
  work(space: string, runId: number): Promise<SleepWorkRow[]>;
  setWork(space: string, runId: number, w: { step: string; unit: string; status: SleepWorkRow['status']; result: unknown; at: number }): Promise<void>;
  /** Writes (or replaces) the briefing of one UTC day. */
  putBriefing(space: string, b: BriefingRow): Promise<void>;
  /** Takes the space's sleep lock unless another owner holds an unexpired one; true when taken. */
  acquireLock(space: string, owner: string, at: number, ttlMs: number): Promise<boolean>;
  /** Extends a lock the owner holds; false when it was lost. */
  renewLock(space: string, owner: string, at: number, ttlMs: number): Promise<boolean>;
  releaseLock(space: string, owner: string): Promise<void>;
  /** Who holds the space's sleep lock (expired or not), if anyone. */
  lockOwner(space: string): Promise<string | undefined>;
  /**
   * Live episodes not yet consolidated that wait since at or before `createdBefore`, oldest first; an episode waits
   * since the earlier of its own time (`occurredAt`) and its insertion, so imported history is eligible at once.
   */
  pendingEpisodes(space: string, q: { createdBefore: number; limit: number }): Promise<Episode[]>;
  /** Since when every live, unconsolidated episode waits (earlier of `occurredAt` and insertion; the wake rule), oldest first. */
  pendingTimes(space: string, limit: number): Promise<number[]>;
  markConsolidated(space: string, ids: readonly number[], at: number): Promise<number>;
  /** Moves live episodes to the cold archive (still readable by timeline). */
  markArchived(space: string, ids: readonly number[], at: number): Promise<number>;
  /** Live episodes that retention may move: consolidated at or before `consolidatedBefore`, or created at or before `createdBefore`. */
  retentionCandidates(
    space: string,
    q: { consolidatedBefore: number; createdBefore: number; limit: number },
  ): Promise<Array<{ id: number; createdAt: number; consolidatedAt: number | null; durable: boolean }>>;
  /**
   * Tool calls and tool results with a session, a tool name and a success flag, occurred at or after `since` (live
   * and archived); a call's `input` is its text (the tool name and its input), at most 1,000 characters.
   */
  toolResults(
    space: string,
    since: number,
  ): Promise<Array<{ id: number; session: string; tool: string; ok: boolean; at: number; kind: 'tool_call' | 'tool_result'; input: string | null }>>;
  /** Replaces an episode's text, re-indexes it with `index` and drops its vectors (marked for re-embedding). */
  rewriteEpisode(space: string, id: number, content: string, index: IndexText): Promise<void>;
  /** Re-indexes an episode whose own text is unchanged (its context field changed). */
  reindexEpisode(space: string, id: number, index: IndexText): Promise<void>;
  /** Replaces a narrative's text fields, re-indexes it and drops its vectors (marked for re-embedding). */
  rewriteNarrative(space: string, id: number, text: NarrativeText, tags: readonly string[], index: IndexText): Promise<void>;
  /** Sets the four scores and the weight of narratives (the comb's re-scoring). */
  setNarrativeScores(
    space: string,
    rows: ReadonlyArray<{ id: number; importance: number; emotional: number; recurrence: number; unresolved: number; weight: number }>,
    at: number,
  ): Promise<void>;
  /** Ids of rows of `layer` whose text contains `needle` as written (episodes: content; narratives: content and tags; knowledge: content), archive included. */
  idsContaining(space: string, layer: Layer, needle: string, limit: number): Promise<number[]>;
  /** Gives a knowledge entry its key (a reviewed entry taking over the key of the one it replaces). */
  setKnowledgeKey(space: string, id: number, key: string | null, at: number): Promise<void>;
  /** Live episodes + narratives + live knowledge: the memory size the nightly budget grows with. */
  memorySize(space: string): Promise<number>;
  /** A persisted JSON value of the space (e.g. the placeholder map), from `job_state`. */
  getState(space: string, key: string): Promise<unknown>;
  putState(space: string, key: string, value: unknown, at: number): Promise<void>;
}

/** The Store, extended with the sleep area. */
export interface Store {
  readonly sleep: SleepStore;
}

// ---- API tokens (issue 4: HTTP access control). Appended; the Store interface is extended below. ----

/** An API token as stored: only the SHA-256 of the secret is kept. */
export interface ApiTokenRow {
  id: number;
  space: string;
  scope: 'read' | 'write' | 'admin';
  label: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** API tokens over `api_tokens` (global: a token names its own space). */
export interface TokenStore {
  insert(row: { space: string; scope: ApiTokenRow['scope']; hash: string; label: string | null; at: number }): Promise<number>;
  /** The token with this hash, revoked or not. */
  byHash(hash: string): Promise<ApiTokenRow | undefined>;
  /** Tokens, newest first; of one space when given. */
  list(space?: string): Promise<ApiTokenRow[]>;
  /** Marks a token revoked; false when no live token has this id. */
  revoke(id: number, at: number): Promise<boolean>;
  touch(id: number, at: number): Promise<void>;
  /** Live (not revoked) tokens in the whole database. */
  activeCount(): Promise<number>;
}

/** The Store, extended with the token area. */
export interface Store {
  readonly tokens: TokenStore;
}
