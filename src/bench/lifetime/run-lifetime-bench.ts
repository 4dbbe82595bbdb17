// The lifetime benchmark: LoCoMo conversations lived through day by day (sessions at their own times, a night after each session day, then a night every day for a year), questioned at checkpoints without side effects.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildContext } from '../../app/injection/context-block.js';
import { prefetch } from '../../app/injection/prefetch.js';
import { nextRunAt, scheduleNightlySleep, type ScheduledNight } from '../../app/sleep-schedule.js';
import { appContextOf, type Tidepool } from '../../app/tidepool.js';
import { openMemory } from '../../boot/open-memory.js';
import { DAY_MS, FixedClock } from '../../core/clock.js';
import { KNOWLEDGE_STATUSES } from '../../core/types.js';
import { loadLocomo, type BenchConversation, type BenchDataset, type BenchQuestion } from '../locomo.js';
import { locomoTurns, questionTime } from '../locomo-turns.js';
import { countBenchTokens, dedupeRanked, recallAtK, type TokenCounter } from '../metrics.js';
import { mean, percentile, roundTo } from '../percentile.js';
import { startMockNightServer, type MockNightServer } from './mock-night-server.js';

/** The night modes: no model at all, or the deterministic mock behind the real `openai:` provider. */
export const NIGHT_MODES = ['none', 'mock'] as const;
/** One night mode. */
export type NightMode = (typeof NIGHT_MODES)[number];

/** Checkpoints after `end` (the day after the last session), in days. */
export const LATER_CHECKPOINTS: ReadonlyArray<{ name: string; days: number }> = [
  { name: '+30d', days: 30 },
  { name: '+180d', days: 180 },
  { name: '+365d', days: 365 },
];

/** One checkpoint of one mode, in the `--json` shape. */
export interface LifetimeCheckpoint {
  readonly name: string;
  /** Evidence Recall@5/10/25 over the episode layer, as `bench retrieval` computes it. */
  readonly recall: Record<string, number>;
  /** Share of evidence turns whose text reaches the agent: session-start `context` block plus `prefetch` of the question. */
  readonly injected_recall: number;
  /** Median tokens (o200k) of the context block and of the prefetch block, over questions. */
  readonly context_tokens: number;
  readonly prefetch_tokens: number;
  /** Knowledge entries by status, summed over conversations. */
  readonly knowledge: Record<string, number>;
  readonly episodes: { live: number; archived: number };
  /** Input + output tokens all nights sent to and received from the model up to this checkpoint (as the server counted them). */
  readonly night_tokens: number;
}

/** One night mode's checkpoints. */
export interface LifetimeMode {
  readonly nights: NightMode;
  readonly checkpoints: LifetimeCheckpoint[];
}

/** The whole report: `{"dataset","questions","modes":[…]}`. */
export interface LifetimeReport {
  readonly dataset: string;
  /** Questions asked at each checkpoint (categories 1-4). */
  readonly questions: number;
  readonly modes: LifetimeMode[];
}

/** What the run measured besides the report (printed in text output and the markdown, never in `--json`). */
export interface LifetimeRunInfo {
  /** Wall time per mode, ms (day0 included in the first mode that ran). */
  readonly wallMs: Record<string, number>;
  /** Nights run per mode, by outcome (`slept`, `awake`, `failed` …), summed over conversations. */
  readonly nights: Record<string, Record<string, number>>;
  /** Time spent in the script layer and in the nights, per mode, ms. */
  readonly scriptMs: Record<string, number>;
  readonly nightMs: Record<string, number>;
  /** Cached prompt tokens the provider reported (0 where it reports none). */
  readonly cachedTokens: Record<string, number>;
  /** Tokens (input + output) per sleep step, per mode, as the mock model counted them (empty in `none`). */
  readonly stepTokens: Record<string, Record<string, number>>;
  /** Failures of nights or script jobs, first few. */
  readonly failures: string[];
}

/** Options of {@link runLifetimeBench}; give `dataPath` or an already loaded `dataset`. */
export interface LifetimeBenchOptions {
  readonly dataPath?: string;
  readonly dataset?: BenchDataset;
  readonly datasetName?: string;
  /** Default both. */
  readonly modes?: readonly NightMode[];
  readonly limitConversations?: number;
  /** Later checkpoints; default {@link LATER_CHECKPOINTS} (tests use a few days). */
  readonly later?: ReadonlyArray<{ name: string; days: number }>;
  readonly countTokens?: TokenCounter;
  readonly onProgress?: (line: string) => void;
}

const DIGITS = 3;
const KS = [5, 10, 25];
/** A turn cut by an injector counts as received when this many of its first characters arrive (see docs/BENCHMARKS.md). */
export const RECEIVED_PREFIX_CHARS = 100;

/** Lower case, NFKC, whitespace collapsed: the form in which turn texts are looked for in the injected text. */
export function normaliseForMatch(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * True when an evidence turn's text reaches the agent: its whole normalised text occurs in the normalised injected
 * text, or — for a turn longer than {@link RECEIVED_PREFIX_CHARS} characters, which an injector may shorten at a
 * sentence or word boundary — its first {@link RECEIVED_PREFIX_CHARS} characters do.
 */
export function turnReceived(turnText: string, injectedNormalised: string): boolean {
  const t = normaliseForMatch(turnText);
  if (t === '') return false;
  if (injectedNormalised.includes(t)) return true;
  const chars = [...t];
  return chars.length > RECEIVED_PREFIX_CHARS && injectedNormalised.includes(chars.slice(0, RECEIVED_PREFIX_CHARS).join(''));
}

/** One question scored at one checkpoint. */
interface Scored {
  readonly recall: number[];
  readonly injected: number;
  readonly contextTokens: number;
  readonly prefetchTokens: number;
}

/** One conversation's state at one checkpoint. */
interface ConvCheckpoint {
  readonly scored: Scored[];
  readonly knowledge: Record<string, number>;
  readonly live: number;
  readonly archived: number;
  readonly nightTokens: number;
}

/** A conversation's memory: the episode id → dialog id map and the texts of its turns. */
interface Loaded {
  readonly memory: Tidepool;
  readonly clock: FixedClock;
  readonly dia: Map<string, string>;
  readonly dir: string;
}

async function openConversation(conv: BenchConversation, config: object): Promise<Loaded> {
  const dir = mkdtempSync(join(tmpdir(), 'tidepool-lifetime-'));
  const first = Math.min(...conv.sessions.map((s) => s.at));
  const clock = new FixedClock(first);
  const memory = await openMemory({ clock, path: join(dir, 'memory.db'), space: 'bench', embedder: 'none', warn: () => {}, config });
  return { memory, clock, dia: new Map(), dir };
}

/** Records one session as it happened: the clock stands at its last turn, each turn keeps its own time. */
async function recordSession(l: Loaded, conv: BenchConversation, n: number): Promise<void> {
  const turns = locomoTurns(conv).filter((t) => t.sessionN === n);
  if (turns.length === 0) return;
  l.clock.set(Math.max(l.clock.now(), turns[turns.length - 1]!.at));
  const r = await l.memory.record({ turns: turns.map(({ diaId: _d, sessionN: _n, ...t }) => t) });
  r.ids.forEach((id, i) => l.dia.set(id, turns[i]!.diaId));
}

async function closeConversation(l: Loaded): Promise<void> {
  await l.memory.close();
  rmSync(l.dir, { recursive: true, force: true });
}

/** Asks every question without side effects at the clock's time and counts what the memory holds. */
async function checkpoint(
  l: Loaded,
  conv: BenchConversation,
  questions: readonly BenchQuestion[],
  nightTokens: number,
  count: TokenCounter,
): Promise<ConvCheckpoint> {
  const ctx = appContextOf(l.memory);
  const textOf = new Map(conv.sessions.flatMap((s) => s.turns.map((t) => [t.diaId, t.text] as const)));
  const block = await buildContext(ctx, {}, { sideEffects: false });
  const contextTokens = count(block.text);
  const scored: Scored[] = [];
  const searchK = Math.max(...KS, 10);
  for (const q of questions) {
    const hits = await l.memory.recall({ query: q.question, limit: searchK, layers: ['episode'] }, { sideEffects: false });
    const ranked = dedupeRanked(hits.map((h) => l.dia.get(h.id)).filter((d): d is string => d !== undefined));
    const pre = await prefetch(ctx, { text: q.question }, { sideEffects: false });
    const injected = normaliseForMatch(`${block.text}\n${pre.text}`);
    const got = q.evidence.filter((id) => {
      const text = textOf.get(id);
      return text !== undefined && turnReceived(text, injected);
    }).length;
    scored.push({
      recall: KS.map((k) => recallAtK(ranked, q.evidence, k)),
      injected: q.evidence.length === 0 ? 0 : got / q.evidence.length,
      contextTokens,
      prefetchTokens: count(pre.text),
    });
  }
  const knowledge: Record<string, number> = {};
  for (const s of KNOWLEDGE_STATUSES) knowledge[s] = await ctx.scope.knowledge.count([s]);
  const page = (includeArchived: boolean) =>
    ctx.scope.episodes.timeline({ limit: 1, offset: 0, order: 'desc', includeArchived }).then((p) => p.total);
  const all = await page(true);
  const live = await page(false);
  return { scored, knowledge, live, archived: all - live, nightTokens };
}

function summarise(name: string, parts: readonly ConvCheckpoint[]): LifetimeCheckpoint {
  const scored = parts.flatMap((p) => p.scored);
  const r = (v: number): number => roundTo(v, DIGITS);
  const recall: Record<string, number> = {};
  KS.forEach((k, i) => (recall[String(k)] = r(mean(scored.map((s) => s.recall[i] as number)))));
  const knowledge: Record<string, number> = {};
  for (const s of KNOWLEDGE_STATUSES) knowledge[s] = parts.reduce((n, p) => n + (p.knowledge[s] ?? 0), 0);
  return {
    name,
    recall,
    injected_recall: r(mean(scored.map((s) => s.injected))),
    context_tokens: percentile(scored.map((s) => s.contextTokens), 50),
    prefetch_tokens: percentile(scored.map((s) => s.prefetchTokens), 50),
    knowledge,
    episodes: { live: parts.reduce((n, p) => n + p.live, 0), archived: parts.reduce((n, p) => n + p.archived, 0) },
    night_tokens: parts.reduce((n, p) => n + p.nightTokens, 0),
  };
}

/** Mutable counters of one mode's run. */
interface ModeStats {
  outcomes: Record<string, number>;
  scriptMs: number;
  nightMs: number;
  failures: string[];
}

/**
 * Lives one conversation in one night mode: sessions at their times, the nightly cycle (`script all`, then the night,
 * as `serve`'s schedule runs them) after every session day, then a night every day up to each checkpoint.
 */
async function liveConversation(
  conv: BenchConversation,
  questions: readonly BenchQuestion[],
  mode: NightMode,
  server: MockNightServer | undefined,
  later: ReadonlyArray<{ name: string; days: number }>,
  stats: ModeStats,
  count: TokenCounter,
): Promise<ConvCheckpoint[]> {
  const config = {
    sleep:
      mode === 'mock' && server
        ? { model: 'openai:mock-night', openaiBaseUrl: server.url }
        : { model: 'none' },
  };
  const l = await openConversation(conv, config);
  const usedAtStart = server ? server.usage() : undefined;
  const spent = (): number => {
    if (!server || !usedAtStart) return 0;
    const u = server.usage();
    return u.input + u.output - usedAtStart.input - usedAtStart.output;
  };
  try {
    const schedule = scheduleNightlySleep(appContextOf(l.memory), {
      onNight: (n: ScheduledNight) => {
        stats.outcomes[n.outcome] = (stats.outcomes[n.outcome] ?? 0) + 1;
        if (n.outcome === 'failed' && stats.failures.length < 10) stats.failures.push(`${conv.id}: night: ${n.message}`);
        if (n.script) {
          stats.scriptMs += n.script.ms;
          if (!n.script.ok && stats.failures.length < 10) stats.failures.push(`${conv.id}: script: ${n.script.failed.join(', ')}`);
        }
      },
    });
    // The bench drives the schedule itself, night by night on its own clock; the timer never fires.
    schedule.stop();
    const at = appContextOf(l.memory).config.sleep.at;
    const night = async (t: number): Promise<void> => {
      l.clock.set(t);
      const t0 = performance.now();
      await schedule.runDue(t);
      stats.nightMs += performance.now() - t0;
    };
    let due: number | undefined;
    for (const s of [...conv.sessions].sort((a, b) => a.at - b.at)) {
      if (due !== undefined && due <= s.at) {
        await night(due);
        due = undefined;
      }
      await recordSession(l, conv, s.n);
      due = nextRunAt(l.clock.now(), at);
    }
    const end = questionTime(conv);
    const out: ConvCheckpoint[] = [];
    let next = due ?? nextRunAt(end, at);
    const until = async (t: number): Promise<void> => {
      for (; next <= t; next += DAY_MS) await night(next);
      l.clock.set(t);
    };
    await until(end);
    out.push(await checkpoint(l, conv, questions, spent(), count));
    for (const c of later) {
      await until(end + c.days * DAY_MS);
      out.push(await checkpoint(l, conv, questions, spent(), count));
    }
    return out;
  } finally {
    await closeConversation(l);
  }
}

/** `day0`: the conversation recorded at its own times into a memory that never sleeps, asked the day after. */
async function dayZero(conv: BenchConversation, questions: readonly BenchQuestion[], count: TokenCounter): Promise<ConvCheckpoint> {
  const l = await openConversation(conv, { sleep: { model: 'none' } });
  try {
    for (const s of [...conv.sessions].sort((a, b) => a.at - b.at)) await recordSession(l, conv, s.n);
    l.clock.set(questionTime(conv));
    return await checkpoint(l, conv, questions, 0, count);
  } finally {
    await closeConversation(l);
  }
}

/**
 * Runs the lifetime benchmark: for each conversation a fresh SQLite memory per mode whose clock follows the data,
 * questioned (categories 1-4) at `day0`, `end` and the later checkpoints. Returns the report and the run's own figures.
 */
export async function runLifetimeBench(options: LifetimeBenchOptions): Promise<{ report: LifetimeReport; info: LifetimeRunInfo }> {
  const dataset = options.dataset ?? loadLocomo(options.dataPath ?? '');
  const name = options.datasetName ?? (options.dataPath ? basename(options.dataPath) : 'dataset');
  const modes = options.modes ?? NIGHT_MODES;
  const later = options.later ?? LATER_CHECKPOINTS;
  const count = options.countTokens ?? countBenchTokens;
  const conversations = dataset.conversations.slice(0, options.limitConversations ?? dataset.conversations.length);
  const asked = (conv: BenchConversation): BenchQuestion[] =>
    dataset.questions.filter((q) => q.convId === conv.id && q.category >= 1 && q.category <= 4);
  const info: LifetimeRunInfo = { wallMs: {}, nights: {}, scriptMs: {}, nightMs: {}, cachedTokens: {}, stepTokens: {}, failures: [] };
  const t0 = performance.now();
  const day0: ConvCheckpoint[] = [];
  for (const conv of conversations) day0.push(await dayZero(conv, asked(conv), count));
  const day0Ms = performance.now() - t0;
  options.onProgress?.(`day0: ${conversations.length} conversation(s) in ${(day0Ms / 1000).toFixed(1)} s`);
  const out: LifetimeMode[] = [];
  for (const mode of modes) {
    const m0 = performance.now();
    const stats: ModeStats = { outcomes: {}, scriptMs: 0, nightMs: 0, failures: [] };
    const server = mode === 'mock' ? await startMockNightServer() : undefined;
    const perConv: ConvCheckpoint[][] = [];
    try {
      for (const conv of conversations) {
        const c0 = performance.now();
        perConv.push(await liveConversation(conv, asked(conv), mode, server, later, stats, count));
        options.onProgress?.(`${mode} ${conv.id}: lived and asked in ${((performance.now() - c0) / 1000).toFixed(1)} s`);
      }
    } finally {
      info.cachedTokens[mode] = server?.usage().cached ?? 0;
      info.stepTokens[mode] = Object.fromEntries(
        Object.entries(server?.usage().steps ?? {}).map(([k, v]) => [k, v.input + v.output]),
      );
      const rejected = server?.usage().rejected ?? 0;
      if (rejected > 0) stats.failures.push(`the mock model rejected ${rejected} request(s): a prompt it does not know`);
      await server?.close();
    }
    const names = ['end', ...later.map((c) => c.name)];
    out.push({
      nights: mode,
      checkpoints: [summarise('day0', day0), ...names.map((n, i) => summarise(n, perConv.map((c) => c[i]!)))],
    });
    info.wallMs[mode] = Math.round(performance.now() - m0 + (out.length === 1 ? day0Ms : 0));
    info.nights[mode] = stats.outcomes;
    info.scriptMs[mode] = Math.round(stats.scriptMs);
    info.nightMs[mode] = Math.round(stats.nightMs);
    info.failures.push(...stats.failures.map((f) => `${mode}: ${f}`));
  }
  const questions = conversations.reduce((n, c) => n + asked(c).length, 0);
  return { report: { dataset: name, questions, modes: out }, info };
}
