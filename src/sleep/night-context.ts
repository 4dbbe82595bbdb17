/** What a phase works with: the store, the night's time, the redactor, and one way to ask the model (cached, budgeted). */

import type { z } from 'zod';
import type { Embedder } from '../core/embedder.js';
import type { Warn } from '../core/warning.js';
import { mulberry32, type Rng } from '../script/seeded-rng.js';
import type { NightLog } from '../script/briefing-render.js';
import type { ScopedStore, Store } from '../store/port.js';
import { askStructured } from './llm/ask-structured.js';
import type { Model } from './llm/model.js';
import type { NightConfig, IndexTexts, NightStep } from './night-types.js';
import type { NightDelta } from './night-log.js';
import { estimateRequestTokens } from './llm/token-estimate.js';
import type { BuiltPrompt } from './prompts/prompt.js';
import type { Redactor } from './redactor.js';
import type { TokenLedger } from './token-ledger.js';

/** One answer as the night keeps it: a parsed value or the reason it was skipped, and what it cost. */
export type CachedAsk = (
  | { kind: 'ok'; value: unknown; dropped: number; input: number; output: number }
  | { kind: 'skipped'; reason: string; input: number; output: number }
) & {
  /** Of `input`, served from the provider's prompt cache (absent in answers stored before it was counted). */
  cached?: number;
};

/** What `ask` returns: a value, a skip (bad answer twice or a model error), or why no model was asked. */
export type AskOutcome<T> =
  | { kind: 'ok'; value: T; dropped: number }
  | { kind: 'skipped'; reason: string }
  | { kind: 'no_model' }
  | { kind: 'deferred' };

/** The unit being worked on: its cached answers and what it spent. */
interface UnitState {
  step: NightStep;
  unit: string;
  cached: CachedAsk[];
  asks: CachedAsk[];
  tokens: number;
}

/** Settings of a NightContext. */
export interface NightContextInit {
  store: Store;
  space: string;
  asOf: number;
  runId: number;
  /** As-of time of the last finished night; undefined before the first. */
  previousNightAt: number | undefined;
  model: Model | undefined;
  config: NightConfig;
  indexes: IndexTexts;
  embedder: Embedder | undefined;
  /** Says what failed without failing the night; silent when absent. */
  warn?: Warn;
  redactor: Redactor;
  ledger: TokenLedger;
  /** Seed of the night's random choices (drift); each use derives its own stream, so a resume replays it. */
  seed: number;
  dryRun: boolean;
  /** The night's log so far (the fold of the units already done), for steps that build on it. */
  progress: () => NightLog;
  /** Called after an answer was stored (a crash point for tests). */
  afterAsk?: (step: NightStep, unit: string) => void | Promise<void>;
}

/**
 * The night as phases see it. `ask` is the only way to a model: it checks the budget, reuses an answer stored
 * before a crash, otherwise asks through `askStructured` and stores the answer at once, so a rerun never pays twice.
 */
export class NightContext {
  readonly store: Store;
  readonly space: string;
  /** The night's space's ports, bound once (`store.forSpace(space)`); a phase's write transaction binds its own. */
  readonly scope: ScopedStore;
  readonly asOf: number;
  readonly runId: number;
  readonly previousNightAt: number | undefined;
  readonly model: Model | undefined;
  readonly config: NightConfig;
  readonly indexes: IndexTexts;
  readonly embedder: Embedder | undefined;
  /** Says what failed without failing the night (a no-op when the night was given none). */
  readonly warn: Warn;
  readonly redactor: Redactor;
  readonly ledger: TokenLedger;
  readonly seed: number;
  readonly dryRun: boolean;
  /** The night's log so far. */
  readonly progress: () => NightLog;
  #afterAsk: NightContextInit['afterAsk'];
  #unit: UnitState | undefined;

  constructor(init: NightContextInit) {
    this.store = init.store;
    this.space = init.space;
    this.scope = init.store.forSpace(init.space);
    this.asOf = init.asOf;
    this.runId = init.runId;
    this.previousNightAt = init.previousNightAt;
    this.model = init.model;
    this.config = init.config;
    this.indexes = init.indexes;
    this.embedder = init.embedder;
    this.warn = init.warn ?? (() => {});
    this.redactor = init.redactor;
    this.ledger = init.ledger;
    this.seed = init.seed;
    this.dryRun = init.dryRun;
    this.progress = init.progress;
    this.#afterAsk = init.afterAsk;
  }

  /** Start of "today" for comb, drift and dream: the last night's time, or one day back on the first night. */
  get since(): number {
    return this.previousNightAt ?? this.asOf - 86_400_000;
  }

  /** A random stream for `label`, the same on every run of this night. */
  rngFor(label: string): Rng {
    return mulberry32(hashString(`${this.seed}:${label}`));
  }

  /** Opens a unit; `cached` are answers stored before an interruption. */
  beginUnit(step: NightStep, unit: string, cached: readonly CachedAsk[]): void {
    this.#unit = { step, unit, cached: [...cached], asks: [], tokens: 0 };
  }

  /** Closes the unit: its answers (for the work row) and its tokens (for the log). */
  endUnit(): { asks: CachedAsk[]; tokens: Record<string, number> } {
    const u = this.#unit;
    this.#unit = undefined;
    if (u === undefined) return { asks: [], tokens: {} };
    return { asks: u.asks, tokens: u.tokens > 0 ? { [u.step]: u.tokens } : {} };
  }

  /** Asks the model for `prompt` and validates the answer with `schema` (retried once, then skipped). */
  async ask<T>(prompt: BuiltPrompt, schema: z.ZodType<T>): Promise<AskOutcome<T>> {
    const u = this.#unit;
    if (u === undefined) throw new Error('ask outside a unit');
    if (this.model === undefined) return { kind: 'no_model' };
    const cached = u.cached[u.asks.length];
    let answer: CachedAsk;
    if (cached !== undefined) {
      answer = cached;
    } else {
      // Trigger: the packet would overrun tonight's budget. Why: SEEDS §3.3. Outcome: it waits for the next night.
      if (!this.ledger.fits(packetCost(prompt))) return { kind: 'deferred' };
      const r = await askStructured(this.model, prompt, schema, {
        step: prompt.step,
        maxTokens: prompt.maxTokens,
      });
      answer =
        r.kind === 'ok'
          ? { kind: 'ok', value: r.value, dropped: r.dropped, input: r.tokens.input, output: r.tokens.output, cached: r.tokens.cached ?? 0 }
          : { kind: 'skipped', reason: r.reason, input: r.tokens.input, output: r.tokens.output, cached: r.tokens.cached ?? 0 };
    }
    u.asks.push(answer);
    this.ledger.add(u.step, { input: answer.input, output: answer.output, cached: answer.cached ?? 0 });
    u.tokens += answer.input + answer.output;
    if (cached === undefined && !this.dryRun) {
      await this.scope.sleepRuns.setWork(this.runId, {
        step: u.step,
        unit: u.unit,
        status: 'asked',
        result: { asks: u.asks },
        at: this.asOf,
      });
      await this.#afterAsk?.(u.step, u.unit);
    }
    if (answer.kind === 'skipped') return { kind: 'skipped', reason: answer.reason };
    return { kind: 'ok', value: answer.value as T, dropped: answer.dropped };
  }

  /** The log entries an ask outcome leaves when it did not produce a value. */
  static missed(step: NightStep, outcome: AskOutcome<unknown>): NightDelta {
    if (outcome.kind === 'skipped') return { skipped: [{ step, reason: outcome.reason }] };
    if (outcome.kind === 'deferred') return { deferred: 1 };
    return {};
  }
}

/**
 * Share of an answer cap a packet is expected to use: answers are short JSON, and caps are set for the worst case
 * (a solidify batch allows 350 tokens per chunk). Planning with the whole cap would leave most of a night's budget
 * unspent; a night may overrun by at most the rest of one cap, which its briefing reports.
 */
export const EXPECTED_ANSWER_SHARE = 0.25;

/** Expected tokens of one call: the prompt as the tokenizer counts it plus a quarter of the answer cap. */
export function packetCost(prompt: Pick<BuiltPrompt, 'system' | 'messages' | 'maxTokens'>): number {
  return estimateRequestTokens(prompt) + Math.ceil(prompt.maxTokens * EXPECTED_ANSWER_SHARE);
}

/** FNV-1a, 32 bits: a stable seed from a string. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
