/** The Store port: one interface per entity under ports/, composed once in ports/store.ts; this barrel re-exports them. */
export type { AttentionEntry, AttentionStore } from './ports/attention-port.js';
export type { GoalRow, CheckpointRow, PendingEventRow, ContinuityStore } from './ports/continuity-port.js';
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
} from './ports/derived-port.js';
export type {
  NewEpisode,
  TimelineQuery,
  RecallEpisode,
  ScriptEpisodeRow,
  EpisodeStore,
} from './ports/episodes-port.js';
export type { IdentityStore } from './ports/identity-port.js';
export type { JobKey, JobClaims } from './ports/jobs-port.js';
export type {
  JournalWorkspaceRow,
  JournalArchiveRow,
  JournalEpisodeRow,
  JournalStore,
} from './ports/journal-rows-port.js';
export type { NewKnowledge, KnowledgeStore, Reinforcement } from './ports/knowledge-port.js';
export type {
  NewNarrative,
  NarrativeTextRow,
  NarrativeScoreRow,
  NarrativeScoreChange,
  NarrativeLinkRow,
  NarrativeText,
  NarrativeStore,
} from './ports/narratives-port.js';
export type { RowStore } from './ports/rows-port.js';
export type { IndexBatch, IndexText, LexicalOptions, NewRows, SearchIndex, SpaceSearch, SearchUpkeep } from './ports/search-port.js';
export type { SleepRunRow, SleepWorkRow, SleepRunStore } from './ports/sleep-runs-port.js';
export type { SpaceStore } from './ports/spaces-port.js';
export type { StateStore } from './ports/state-port.js';
export type { StoreInfo, PurgeResult, ScopedStore, Store } from './ports/store-port.js';
export type { ApiTokenRow, TokenStore } from './ports/tokens-port.js';
export type { NearestOptions, VectorStore } from './ports/vectors-port.js';
