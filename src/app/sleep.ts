/** `sleep`: one night of consolidation for the context's space, with the configured or a given model (DESIGN §6). */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { knownPersonsOf } from '../core/config.js';
import { parseInput, time } from '../core/schemas.js';
import { queryTerms } from '../retrieval/query-terms.js';
import { createModel, type ModelDeps } from '../sleep/llm/create-model.js';
import type { Model } from '../sleep/llm/model.js';
import { parseModelSpec } from '../sleep/llm/parse-model-spec.js';
import { runNight } from '../sleep/night.js';
import type { NightConfig, NightHooks, NightResult } from '../sleep/night-types.js';
import { shouldSleep, WAKE_DEFAULTS, type WakeDecision, type WakeOptions } from '../script/wake-policy.js';
import type { SleepRunRow } from '../store/port.js';
import type { AppContext } from './app-context.js';
import { embedPending } from './embed-items.js';
import { noteWarning } from './warnings.js';
import { episodeIndexText, knowledgeIndexText, narrativeIndexText } from './index-text.js';
import { requireSpace } from './require-space.js';

/** Options of one night. */
export interface SleepOptions {
  /** `none | openai:<model> | anthropic:<model> | sampling | agent`; default `config.sleep.model`. */
  model?: string;
  /** A ready model (library callers and tests); wins over `model`. */
  modelInstance?: Model;
  /** What `sampling` and `agent` need: supplied by the MCP surface inside `tidepool serve`. */
  modelDeps?: ModelDeps;
  /** The night's as-of time (ISO 8601 or epoch ms): tests, and catching up on a missed night. */
  now?: number | string;
  dryRun?: boolean;
  /** Sleep even when the wake rule would let the space stay awake. */
  force?: boolean;
  /** Ask the model tonight however small the day (an agent that asked to sleep now); `force` implies it. */
  askNow?: boolean;
  /** Crash points for tests (see NightHooks). */
  hooks?: NightHooks;
}

/** The configuration a night reads. */
export function nightConfig(ctx: AppContext): NightConfig {
  const c = ctx.config;
  return {
    language: c.sleep.language,
    // Only the configured names: the agent's own name is not a third party's personal data (knownPersonsOf adds it).
    knownPersons: c.knownPersons,
    relatedPersons: knownPersonsOf(c),
    agentName: c.agentName,
    reinforceStep: c.recall.reinforceStep,
    contextTurns: c.recall.contextTurns,
    budget: { base: c.sleep.budgetBase, perSqrtItem: c.sleep.budgetPerSqrtItem, cap: c.sleep.budgetCap },
    packets: { minTurns: c.sleep.minPacketTurns, maxWaitDays: c.sleep.maxPacketWaitDays },
    wake: c.sleep.wake,
  };
}

/** This process's id in lock owners; each night adds its own, so two nights of one process exclude each other too. */
const PROCESS = `${hostname()}:${process.pid}`;

/** True when a lock owner (`host:pid:night`, see PROCESS) names a process of this host that no longer exists. */
function ownerGone(owner: string): boolean {
  const m = /^(.+):(\d+):[^:]+$/.exec(owner);
  if (m === null || m[1] !== hostname() || Number(m[2]) === process.pid) return false;
  try {
    process.kill(Number(m[2]), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Trigger: the sleep lock's owner is a dead process of this host (SIGKILL, Ctrl-C, the OOM killer). Why: its 30-minute
 * lease would refuse every night though nothing runs. Outcome: released now; the night resumes the open run.
 */
async function releaseDeadOwnersLock(ctx: AppContext): Promise<void> {
  const owner = await ctx.scope.sleepRuns.lockOwner();
  if (owner !== undefined && ownerGone(owner)) await ctx.scope.sleepRuns.releaseLock(owner);
}

/**
 * Runs (or resumes) one night of the space. With model `none` only the deterministic steps run; `sampling` and
 * `agent` need `modelDeps` from a live MCP connection. Items the night wrote get vectors when an embedder is set.
 * @example const r = await sleep(ctx, { model: 'openai:gpt-4o-mini' }); if (r.kind === 'slept') console.log(r.briefing.headline)
 */
export async function sleep(ctx: AppContext, opts: SleepOptions = {}): Promise<NightResult> {
  await requireSpace(ctx);
  const spec = opts.model ?? ctx.config.sleep.model;
  const model = opts.modelInstance ?? createModel(parseModelSpec(spec, ctx.config.sleep), opts.modelDeps);
  const now = opts.now === undefined ? ctx.clock.now() : parseInput(time, opts.now);
  if (opts.dryRun !== true) await releaseDeadOwnersLock(ctx);
  const result = await runNight({
    store: ctx.store,
    space: ctx.space,
    model,
    modelName: opts.modelInstance?.name ?? spec.trim(),
    now,
    clock: ctx.clock,
    owner: `${PROCESS}:${randomUUID()}`,
    config: nightConfig(ctx),
    embedder: ctx.embedder,
    warn: (kind, message) => noteWarning(ctx, kind, message),
    dryRun: opts.dryRun ?? false,
    force: opts.force ?? false,
    askNow: opts.askNow ?? false,
    indexes: {
      episode: episodeIndexText,
      narrative: narrativeIndexText,
      knowledge: knowledgeIndexText,
      terms: queryTerms,
    },
    ...(opts.hooks ? { hooks: opts.hooks } : {}),
  });
  if (result.kind === 'slept' && ctx.embedder) await embedPending(ctx);
  return result;
}

/** Where the space stands: would it sleep now, the last night, and an interrupted night waiting to be resumed. */
export interface SleepStatus {
  space: string;
  model: string;
  decision: WakeDecision;
  lastNight: SleepRunRow | undefined;
  interrupted: SleepRunRow | undefined;
}

/** The wake decision at `now` and the newest runs. */
export async function sleepStatus(ctx: AppContext, now = ctx.clock.now()): Promise<SleepStatus> {
  await requireSpace(ctx);
  const times = await ctx.scope.episodes.pendingTimes(100_000);
  const decision = shouldSleep(
    times.map((createdAt) => ({ createdAt })),
    now,
    ctx.config.sleep.wake,
  );
  const [lastNight] = await ctx.scope.sleepRuns.runs({ status: 'done', limit: 1 });
  return {
    space: ctx.space,
    model: ctx.config.sleep.model,
    decision,
    lastNight,
    interrupted: await ctx.scope.sleepRuns.openRun(),
  };
}

/** One line for a night's outcome (CLI and MCP); `wake` is the rule the night ran under (config `sleep.wake`). */
export function describeNight(r: NightResult, wake: WakeOptions = WAKE_DEFAULTS): string {
  switch (r.kind) {
    case 'slept':
      return `${r.resumed ? 'Resumed an interrupted night. ' : ''}${r.briefing.headline} (${r.log.tokens.used} tokens of ${r.log.tokens.budget})`;
    case 'awake':
      return describeWake(r.decision, wake);
    case 'locked':
      return r.message;
    case 'dry_run':
      return `Dry run: ${r.units.length} unit(s) planned, ${r.log.tokens.used} tokens asked, nothing changed.`;
  }
}

/** Why a space sleeps or stays awake under the rule `wake` (config `sleep.wake`), in words. */
export function describeWake(d: WakeDecision, wake: WakeOptions = WAKE_DEFAULTS): string {
  const hours = Math.round(d.oldestWaitMs / 3_600_000);
  if (d.sleep) return `ready to sleep: ${d.eligible} episode(s) waiting, the oldest for ${hours} h`;
  if (d.reason === 'nothing_eligible')
    return `nothing to consolidate: no episode older than ${wake.minAgeMinutes} minutes is waiting`;
  return `staying awake: ${d.eligible} episode(s) waiting (sleeps at ${wake.minEpisodes}, or when the oldest has waited over ${wake.maxWaitDays} days; now ${hours} h); use --force to sleep anyway`;
}
