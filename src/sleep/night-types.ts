/** The shapes a night is built from: its steps, what it is given, what it returns and where a test may interrupt it. */

import type { Clock } from '../core/clock.js';
import type { Embedder } from '../core/embedder.js';
import type { Warn } from '../core/warning.js';
import type { Briefing, NightLog } from '../script/briefing-render.js';
import type { WakeDecision, WakeOptions } from '../script/wake-policy.js';
import type { IndexText, Store } from '../store/port.js';
import type { Model } from './llm/model.js';

/** The steps of a night in the order they run (DESIGN §6); `consume` replaces solidify + librarian without a model. */
export const NIGHT_STEPS = [
  'solidify',
  'librarian',
  'consume',
  'comb',
  'drift',
  'dream',
  'lifecycle',
  'recipes',
  'self_image',
  'gaps',
  'ideas',
  'pii_watch',
] as const;

/** One step of a night. */
export type NightStep = (typeof NIGHT_STEPS)[number];

/** Builders of the search-index text, supplied by the app so the night indexes exactly as the write paths do. */
export interface IndexTexts {
  episode(content: string, speaker: string | null, previous: readonly string[]): IndexText;
  narrative(n: {
    content: string;
    gesture: string | null;
    context: string | null;
    moment: string | null;
    cognitionDirection: string | null;
    tags: readonly string[];
  }): IndexText;
  knowledge(k: {
    content: string;
    key: string | null;
    subject: string | null;
    tags: readonly string[];
  }): IndexText;
  /** Query terms for a lexical search (the recall pipeline's tokeniser). */
  terms(text: string): string[];
}

/** The nightly token budget's formula constants (script/sleep-budget-policy) and the share kept for the later steps. */
export interface SleepBudgetOptions {
  base?: number;
  perSqrtItem?: number;
  cap?: number;
  /** Tokens kept free for comb, drift, dream, self-image, ideas and the PII watch when planning packets. */
  reserve?: number;
}

/** The parts of the configuration a night reads. */
export interface NightConfig {
  language: 'en' | 'zh';
  /** `config.knownPersons`: names always replaced by placeholders before a model sees text. */
  knownPersons: readonly string[];
  /** `knownPersonsOf(config)`: tags that name these become a narrative's related entities (SEEDS §1.2). */
  relatedPersons: readonly string[];
  agentName: string;
  /** Strength added when the night finds knowledge again (config `recall.reinforceStep`). */
  reinforceStep: number;
  /** Preceding turns indexed with an episode (config `recall.contextTurns`), kept when a text is rewritten. */
  contextTurns: number;
  wake?: Partial<WakeOptions>;
  budget?: SleepBudgetOptions;
  /** Config `sleep.minPacketTurns` / `maxPacketWaitDays`: a smaller day's episodes wait to share a model call. */
  packets?: { minTurns: number; maxWaitDays: number };
}

/** Points where a test can stop the night, as a crash would, to prove that a rerun finishes it identically. */
export interface NightHooks {
  /** After a model answer was stored, before the unit is applied. */
  afterAsk?(step: NightStep, unit: string): void | Promise<void>;
  /** Inside the unit's transaction, after its changes, before commit: throwing rolls the unit back. */
  beforeCommit?(step: NightStep, unit: string): void | Promise<void>;
  /** After the unit's transaction committed. */
  afterCommit?(step: NightStep, unit: string): void | Promise<void>;
}

/** Everything one night needs. */
export interface NightDeps {
  store: Store;
  space: string;
  /** Undefined for `--model none`: only the deterministic steps run. */
  model: Model | undefined;
  /** `none`, `openai:<model>` …, for the log and the run row. */
  modelName: string;
  /** The night's as-of time (`--now`); a resumed night keeps the time it started with. */
  now: number;
  /** The real clock, for the lock's expiry (`now` may be a catch-up time far from it). */
  clock: Clock;
  /** Lock owner id of this process. */
  owner: string;
  config: NightConfig;
  indexes: IndexTexts;
  embedder?: Embedder | undefined;
  /** Says what failed without failing the night (an embedder down); silent when absent. */
  warn?: Warn;
  /** Ask the model and report every proposal, change nothing. */
  dryRun?: boolean;
  /** Sleep even when the wake rule says the space may stay awake. */
  force?: boolean;
  /** The model is asked tonight however small the day (no small-day wait); `force` implies it. */
  askNow?: boolean;
  hooks?: NightHooks;
}

/** What a dry run reports per unit. */
export interface DryRunUnit {
  step: NightStep;
  unit: string;
  proposals: unknown;
}

/** The outcome of `runNight`. */
export type NightResult =
  | {
      kind: 'slept';
      runId: number;
      resumed: boolean;
      decision: WakeDecision | undefined;
      log: NightLog;
      briefing: Briefing;
    }
  | { kind: 'awake'; decision: WakeDecision }
  | { kind: 'locked'; message: string }
  | { kind: 'dry_run'; decision: WakeDecision; units: DryRunUnit[]; log: NightLog };
