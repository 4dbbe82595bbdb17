/** Runs one night of a space: wake rule, plan, every unit in its own transaction (resumable), log, briefing (DESIGN §6). */

import { utcDay } from '../core/clock.js';
import { emptyNightLog, renderBriefing, type NightLog } from '../script/briefing-render.js';
import { nightlyTokenBudget } from '../script/sleep-budget-policy.js';
import { shouldSleep, WAKE_DEFAULTS, type WakeDecision } from '../script/wake-policy.js';
import type { SleepRunRow, SleepWorkRow } from '../store/port.js';
import { embedNew } from './embed-new.js';
import { NightContext, hashString, type CachedAsk } from './night-context.js';
import {
  combineDeltas,
  foldNight,
  logFromJson,
  mergeNightLogs,
  scrubLog,
  type NightDelta,
} from './night-log.js';
import { planNight } from './night-plan.js';
import {
  NIGHT_STEPS,
  type DryRunUnit,
  type NightDeps,
  type NightResult,
  type NightStep,
} from './night-types.js';
import { combPhase } from './phases/comb-phase.js';
import { dreamPhase } from './phases/dream-phase.js';
import { driftPhase } from './phases/drift-phase.js';
import { gapsPhase } from './phases/gaps-phase.js';
import { ideasPhase } from './phases/ideas-phase.js';
import { consumePhase, librarianPhase } from './phases/librarian-phase.js';
import { lifecyclePhase } from './phases/lifecycle-phase.js';
import type { Applied, Phase, PlannedUnit } from './phases/phase.js';
import { piiWatchPhase } from './phases/pii-watch-phase.js';
import { recipesPhase } from './phases/recipes-phase.js';
import { selfImagePhase } from './phases/self-image-phase.js';
import { solidifyPhase } from './phases/solidify-phase.js';
import { Redactor } from './redactor.js';
import { TokenLedger } from './token-ledger.js';

/** Each step's implementation. */
const PHASES: Record<NightStep, Phase> = {
  solidify: solidifyPhase,
  librarian: librarianPhase,
  consume: consumePhase,
  comb: combPhase,
  drift: driftPhase,
  dream: dreamPhase,
  lifecycle: lifecyclePhase,
  recipes: recipesPhase,
  self_image: selfImagePhase,
  gaps: gapsPhase,
  ideas: ideasPhase,
  pii_watch: piiWatchPhase,
};

/** The sleep lock's lifetime; renewed before every unit, so only a dead process lets it lapse. */
export const LOCK_TTL_MS = 30 * 60_000;
/** Episodes one night takes at most; the rest wait (oldest go first). */
export const MAX_PENDING = 2_000;

/** What a done unit's work row holds. */
interface DoneResult {
  delta: NightDelta;
  asks: CachedAsk[];
}

/**
 * Runs (or resumes) one night. An interrupted night — a crash, a kill, a failed write — left its run `running`:
 * the next call resumes it with its own as-of time and skips every unit already done, so the result equals an
 * uninterrupted night; model answers stored before the interruption are reused, not bought again. Two calls on
 * one space never overlap (the sleep lock). `dryRun` plans and asks but changes nothing.
 */
export async function runNight(deps: NightDeps): Promise<NightResult> {
  if (deps.dryRun === true) return dryRun(deps);
  const { store, space } = deps;
  if (!(await store.forSpace(space).sleepRuns.acquireLock(deps.owner, deps.clock.now(), LOCK_TTL_MS))) {
    return {
      kind: 'locked',
      message: `another sleep is running on space "${space}"; try again when it has finished`,
    };
  }
  try {
    const open = await store.forSpace(space).sleepRuns.openRun();
    if (open !== undefined) return await execute(deps, open, true, undefined);
    const decision = await wake(deps, deps.now);
    if (!decision.sleep && deps.force !== true) return { kind: 'awake', decision };
    const { units, budget } = await plan(deps, deps.now);
    const runId = await store.transaction(async (tx) => {
      const id = await tx.forSpace(space).sleepRuns.createRun({
        night: utcDay(deps.now),
        model: deps.modelName,
        startedAt: deps.now,
        log: { budget, decision },
      });
      await tx.forSpace(space).sleepRuns.planWork(id, units, deps.now);
      return id;
    });
    const run = (await store.forSpace(space).sleepRuns.runs({ status: 'running', limit: 1 })).find((r) => r.id === runId)!;
    return await execute(deps, run, false, decision);
  } finally {
    await store.forSpace(space).sleepRuns.releaseLock(deps.owner);
  }
}

/** The wake rule on the space's unconsolidated episodes (SEEDS §3.3). */
async function wake(deps: NightDeps, asOf: number): Promise<WakeDecision> {
  const times = await deps.store.forSpace(deps.space).episodes.pendingTimes(100_000);
  return shouldSleep(
    times.map((createdAt) => ({ createdAt })),
    asOf,
    deps.config.wake,
  );
}

async function plan(deps: NightDeps, asOf: number): Promise<{ units: PlannedUnit[]; budget: number }> {
  const minAge = (deps.config.wake?.minAgeMinutes ?? WAKE_DEFAULTS.minAgeMinutes) * 60_000;
  const pending = await deps.store.forSpace(deps.space).episodes.pending({
    createdBefore: asOf - minAge,
    limit: MAX_PENDING,
  });
  const budget = nightlyTokenBudget(await deps.store.forSpace(deps.space).sleepRuns.memorySize(), deps.config.budget);
  const night = await context(deps, {
    asOf,
    runId: 0,
    budget,
    previousNightAt: undefined,
    progress: () => emptyNightLog(deps.space, asOf, deps.modelName, budget),
  });
  return { units: await planNight(night, pending, budget, { askNow: deps.force === true || deps.askNow === true }), budget };
}

async function context(
  deps: NightDeps,
  o: {
    asOf: number;
    runId: number;
    budget: number;
    previousNightAt: number | undefined;
    progress: () => NightLog;
  },
): Promise<NightContext> {
  return new NightContext({
    store: deps.store,
    space: deps.space,
    asOf: o.asOf,
    runId: o.runId,
    previousNightAt: o.previousNightAt,
    model: deps.model,
    config: deps.config,
    indexes: deps.indexes,
    embedder: deps.embedder,
    ...(deps.warn ? { warn: deps.warn } : {}),
    redactor: await Redactor.load(deps.store, deps.space, deps.config.knownPersons),
    ledger: new TokenLedger(o.budget),
    seed: hashString(`${deps.space}\u0000${utcDay(o.asOf)}`),
    dryRun: deps.dryRun === true,
    progress: o.progress,
    ...(deps.hooks?.afterAsk ? { afterAsk: deps.hooks.afterAsk } : {}),
  });
}

/** Units in night order: by step, then by unit name. */
function ordered(work: readonly SleepWorkRow[]): SleepWorkRow[] {
  const rank = (s: string) => NIGHT_STEPS.indexOf(s as NightStep);
  return [...work].sort(
    (a, b) => rank(a.step) - rank(b.step) || (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0),
  );
}

async function execute(
  deps: NightDeps,
  run: SleepRunRow,
  resumed: boolean,
  decision: WakeDecision | undefined,
): Promise<NightResult> {
  const { store, space } = deps;
  const asOf = run.startedAt;
  const budget =
    typeof run.log.budget === 'number' ? run.log.budget : nightlyTokenBudget(0, deps.config.budget);
  const previous = (await store.forSpace(space).sleepRuns.runs({ status: 'done', limit: 5 })).find((r) => r.id < run.id);
  const base = () => emptyNightLog(space, asOf, deps.modelName, budget);
  const deltas: NightDelta[] = [];
  const night = await context(deps, {
    asOf,
    runId: run.id,
    budget,
    previousNightAt: previous?.startedAt,
    progress: () => foldNight(base(), deltas),
  });
  for (const w of ordered(await store.forSpace(space).sleepRuns.work(run.id))) {
    const step = w.step as NightStep;
    if (w.status === 'done') {
      const done = w.result as DoneResult;
      deltas.push(done.delta);
      for (const a of done.asks) night.ledger.add(step, { input: a.input, output: a.output, cached: a.cached ?? 0 });
      continue;
    }
    // Trigger: the lock lapsed (this process stalled past its TTL). Why: another night may run now. Outcome: stop here.
    if (!(await store.forSpace(space).sleepRuns.renewLock(deps.owner, deps.clock.now(), LOCK_TTL_MS))) {
      return {
        kind: 'locked',
        message: `lost the sleep lock of space "${space}" mid-night; the next run resumes it`,
      };
    }
    const cached = w.status === 'asked' ? ((w.result as { asks?: CachedAsk[] } | null)?.asks ?? []) : [];
    night.beginUnit(step, w.unit, cached);
    const outcome = await PHASES[step](night, {
      step,
      unit: w.unit,
      payload: (w.payload ?? {}) as PlannedUnit['payload'],
    });
    const { asks, tokens } = night.endUnit();
    let applied: Applied = { delta: {} };
    const delta = await store.transaction(async (tx) => {
      if (outcome.apply !== undefined) applied = await outcome.apply(tx);
      await night.redactor.save(tx, space, asOf);
      const full = combineDeltas(outcome.delta, applied.delta, { tokens });
      await tx.forSpace(space).sleepRuns.setWork(run.id, {
        step,
        unit: w.unit,
        status: 'done',
        result: { delta: full, asks } satisfies DoneResult,
        at: asOf,
      });
      await deps.hooks?.beforeCommit?.(step, w.unit);
      return full;
    });
    deltas.push(delta);
    await deps.hooks?.afterCommit?.(step, w.unit);
    const rows = applied.embed ?? [];
    if (deps.embedder !== undefined && rows.length > 0 && !night.dryRun) {
      const out = await embedNew({ store, embedder: deps.embedder, space, now: () => asOf }, rows);
      if (out.failed > 0) {
        deps.warn?.('embed_failed', `embedder ${deps.embedder.model} unavailable during the night, ${out.failed} item(s) marked for later embedding: ${out.error ?? ''}`);
      }
    }
  }
  // Placeholders never reach the briefing: every known one is mapped back to its value (docs/sleep.md).
  const scrub = (t: string) => night.redactor.restore(t);
  const log = scrubLog(foldNight(base(), deltas), scrub);
  log.finishedAt = asOf;
  log.tokens.cached = night.ledger.cached();
  const sameNight = (await store.forSpace(space).sleepRuns.runs({ night: run.night, status: 'done', limit: 50 }))
    .filter((r) => r.id !== run.id)
    .reverse()
    .map((r) => logFromJson(r.log, space))
    .filter((l): l is NightLog => l !== undefined)
    .map((l) => scrubLog(l, scrub));
  const briefing = renderBriefing(mergeNightLogs([...sameNight, log]));
  const totals = Object.values(night.ledger.byStep()).reduce(
    (t, s) => ({ in: t.in + s.input, out: t.out + s.output }),
    { in: 0, out: 0 },
  );
  await store.transaction(async (tx) => {
    await tx.forSpace(space).sleepRuns.finishRun(run.id, {
      finishedAt: asOf,
      tokensIn: totals.in,
      tokensOut: totals.out,
      log: log as unknown as Record<string, unknown>,
    });
    await tx.forSpace(space).derived.putBriefing({
      day: briefing.day,
      headline: briefing.headline,
      body: briefing.markdown,
      createdAt: asOf,
    });
  });
  return { kind: 'slept', runId: run.id, resumed, decision, log, briefing };
}

async function dryRun(deps: NightDeps): Promise<NightResult> {
  const asOf = deps.now;
  const decision = await wake(deps, asOf);
  const { units, budget } = await plan(deps, asOf);
  const previous = (await deps.store.forSpace(deps.space).sleepRuns.runs({ status: 'done', limit: 1 }))[0];
  const deltas: NightDelta[] = [];
  const base = () => emptyNightLog(deps.space, asOf, deps.modelName, budget);
  const night = await context(deps, {
    asOf,
    runId: 0,
    budget,
    previousNightAt: previous?.startedAt,
    progress: () => foldNight(base(), deltas),
  });
  const reports: DryRunUnit[] = [];
  if (decision.sleep || deps.force === true) {
    for (const u of units) {
      night.beginUnit(u.step, u.unit, []);
      const outcome = await PHASES[u.step](night, u);
      const { tokens } = night.endUnit();
      deltas.push(combineDeltas(outcome.delta, { tokens }));
      reports.push({
        step: u.step,
        unit: u.unit,
        proposals: outcome.proposals ?? (u.payload.deferred === true ? { deferred: true } : null),
      });
    }
  }
  const log = foldNight(base(), deltas);
  return { kind: 'dry_run', decision, units: reports, log };
}
