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
