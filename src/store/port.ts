/** The Store port: one interface per entity under ports/, composed once in ports/store.ts; this barrel re-exports them. */
export type { AttentionEntry, AttentionStore } from './ports/attention.js';
export type { GoalRow, CheckpointRow, PendingEventRow, ContinuityStore } from './ports/continuity.js';
export type {
  BriefingRow,
  TopicClusterRow,
  SoftClusterRow,
  GraphNodeRow,
  GraphEdgeRow,
  TopicStatRow,
  TopicClusterWrite,
  SoftClusterWrite,
  SoftClusterModelRow,
  EntityGraphWrite,
  AttentionStatWrite,
  DerivedStore,
} from './ports/derived.js';
export type {
  NewEpisode,
  TimelineQuery,
  RecallEpisode,
  ScriptEpisodeRow,
  EpisodeStore,
} from './ports/episodes.js';
export type { IdentityStore } from './ports/identity.js';
export type { JobKey, JobClaims } from './ports/jobs.js';
export type {
  JournalWorkspaceRow,
  JournalArchiveRow,
  JournalEpisodeRow,
  JournalStore,
} from './ports/journal.js';
export type { NewKnowledge, KnowledgeStore } from './ports/knowledge.js';
export type {
  NewNarrative,
  NarrativeTextRow,
  NarrativeScoreRow,
  NarrativeLinkRow,
  NarrativeText,
  NarrativeStore,
} from './ports/narratives.js';
export type { RowStore } from './ports/rows.js';
export type { IndexText, LexicalOptions, SearchIndex, SpaceSearch, SearchUpkeep } from './ports/search.js';
export type { SleepRunRow, SleepWorkRow, SleepRunStore } from './ports/sleep-runs.js';
export type { SpaceStore } from './ports/spaces.js';
export type { StateStore } from './ports/state.js';
export type { StoreInfo, PurgeResult, ScopedStore, Store } from './ports/store.js';
export type { ApiTokenRow, TokenStore } from './ports/tokens.js';
export type { NearestOptions, VectorStore } from './ports/vectors.js';
