/** Tidepool's public library API. */
export { openMemory, openStore } from './boot/open-memory.js';
export type { OpenMemoryOptions } from './boot/open-memory.js';
export { Tidepool, TIDEPOOL_VERSION } from './app/tidepool.js';
export { TidepoolError, isTidepoolError } from './core/errors.js';
export type { TidepoolErrorCode } from './core/errors.js';
export { parseConfig, configSchema } from './core/config.js';
export type { Config, ConfigInput } from './core/config.js';
export type { Embedder } from './core/embedder.js';
export type { Clock } from './core/clock.js';
export { FixedClock, systemClock } from './core/clock.js';
export type {
  Episode,
  Narrative,
  Knowledge,
  KnowledgeLink,
  Profile,
  SelfConcept,
  Snapshot,
  Thread,
  RecallHit,
  Layer,
} from './core/types.js';
export type {
  RememberInput,
  RecordInput,
  RecordTurn,
  NarrativeInput,
  RecallInput,
  TimelineInput,
  ForgetInput,
} from './core/schemas.js';
export type { Store } from './store/port.js';
export type { SleepOptions, SleepStatus } from './app/sleep.js';
export type { NightResult } from './sleep/night-types.js';
export type { Model, ModelMessage, ModelRequest, ModelResponse } from './sleep/llm/model.js';
export type { BriefingReport } from './app/briefing.js';
export type { ReviewInput, ReviewItem, ReviewResult } from './app/review.js';
export { SCRIPT_JOBS } from './app/script-jobs.js';
export type { ScriptJob, ScriptJobOptions, ScriptJobResult, ScriptAllResult } from './app/script-jobs.js';
export type { ImportFileInput, ImportFileResult, ImportOptions } from './app/import-sessions.js';
export { MemoryProvider } from './app/injection/memory-provider.js';
export type { MemoryProviderOptions } from './app/injection/memory-provider.js';
