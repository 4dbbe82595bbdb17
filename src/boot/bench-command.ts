/** `tidepool bench retrieval|bilingual|scale|…`: runs the benchmarks with Tidepool and its peers in one run (a composition root). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { TidepoolError } from '../core/errors.js';
import { defaultRetrievalPeers, defaultScalePeers } from '../bench/peers/default-peers.js';
import { renderRecallChart, renderRetrievalMarkdown } from '../bench/retrieval/render-retrieval-markdown.js';
import { crossValidate, recallConfig, renderCvMarkdown } from '../bench/retrieval/cross-validate.js';
import { runRetrievalBench } from '../bench/retrieval/run-retrieval-bench.js';
import { hashEmbedder } from '../bench/scale/hash-embedding.js';
import { renderLatencyChart, renderScaleMarkdown } from '../bench/scale/render-scale-markdown.js';
import { runScaleBench } from '../bench/scale/run-scale-bench.js';
import { TidepoolRetrievalSystem } from '../bench/tidepool-retrieval-system.js';
import { tidepoolHybridScaleFactory, tidepoolPostgresScaleFactory, tidepoolScaleFactory } from '../bench/tidepool-scale-system.js';
import { describeMachine, formatMachine } from '../bench/machine-info.js';
import { renderHttpMarkdown, runHttpBench } from '../bench/http/run-http-bench.js';
import { renderScriptBenchMarkdown, runScriptBench } from '../bench/script-bench.js';
import { renderSoakMarkdown, runSoakBench } from '../bench/soak/run-soak-bench.js';
import { renderTeamMarkdown, runTeamBench } from '../bench/team/run-team-bench.js';
import { renderDetectorBenchMarkdown, runDetectorBench } from '../bench/detector-bench.js';
import { renderRuleSetBenchMarkdown, runRuleSetBench } from '../bench/rule-set-bench.js';
import { generateParallelCorpus } from '../bench/bilingual/parallel-corpus.js';
import { renderBilingualMarkdown, runBilingualBench } from '../bench/bilingual/run-bilingual-bench.js';
import { NIGHT_MODES, runLifetimeBench, type NightMode } from '../bench/lifetime/run-lifetime-bench.js';
import { renderLifetimeChart, renderLifetimeMarkdown } from '../bench/lifetime/render-lifetime-markdown.js';
import { renderStartupMarkdown, runStartupBench } from '../bench/startup/run-startup-bench.js';
import { renderCrashMarkdown, runCrashBench } from '../bench/crash/run-crash-bench.js';
import type { CliDeps } from '../surfaces/cli/cli-deps.js';

/** Where the benchmarks look for LoCoMo when `--data` is not given: the shared development split. */
export const DEFAULT_LOCOMO = '../shared/data/locomo/dev.json';

/** Parses a positive integer option or throws an invalid_input error naming the flag. */
function positiveInt(flag: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new TidepoolError('invalid_input', `${flag} must be a positive integer, got "${raw}"`);
  return n;
}

/** Checks a `--db` option that must name a PostgreSQL server, or throws an invalid_input error saying so. */
function postgresUrl(raw: string, note = ''): string {
  if (!/^postgres(ql)?:\/\//iu.test(raw)) throw new TidepoolError('invalid_input', `--db must be a postgres:// URL${note}, got "${raw}"`, { field: 'db' });
  return raw;
}

/** Writes a bench's files into `dir` (created when missing); an object is written as indented JSON. */
function writeOutputs(dir: string, files: Record<string, string | object>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof body === 'string' ? body : `${JSON.stringify(body, null, 2)}\n`);
  }
}

/**
 * Prints a report (JSON with --json, else the machine line and its markdown) and, with --out, writes `<name>.json`,
 * `<name>.md` and the `extra` files there.
 */
function emitReport(
  deps: CliDeps,
  o: { out?: string; json?: boolean },
  name: string,
  report: object,
  markdown: string,
  extra: Record<string, string> = {},
): void {
  const md = `${formatMachine(describeMachine())}\n\n${markdown}`;
  if (o.out) writeOutputs(o.out, { [`${name}.json`]: report, [`${name}.md`]: md, ...extra });
  deps.stdout.write(o.json ? `${JSON.stringify(report)}\n` : `${md}\n`);
}

/** Registers `bench` with its `retrieval`, `lifetime`, `bilingual`, `scale`, `http`, `team`, `script`, `soak`, `startup`, `detectors` and `crash` subcommands. */
export function registerBenchCommand(program: Command, deps: CliDeps): void {
  const bench = program
    .command('bench')
    .description('benchmarks: retrieval quality on LoCoMo (on day 0 and over a year of nights) and on a parallel English/Chinese corpus, scale, HTTP load, many servers on one PostgreSQL memory (team), script layer, soak, start-up, secret and PII detectors, crash safety under SIGKILL (npm run bench)');

  bench
    .command('retrieval', { isDefault: true })
    .description('LoCoMo evidence recall@k, NDCG, session recall, budget recall and latency for Tidepool and its peers')
    .option('--data <file>', 'a LoCoMo-shaped JSON file', DEFAULT_LOCOMO)
    .option('--conversations <n>', 'only the first n conversations')
    .option('--no-mcp', 'skip the MCP memory server peer (slow: one stdio round trip per keyword)')
    .option('--hybrid', 'also run the hybrid modes with the deterministic 384-d hashing embedder')
    .option('--archived', 'also run Tidepool with every episode moved to the archive (mode lexical-archived)')
    .option('--cv', 'leave-one-conversation-out cross-validation of the recall defaults instead (Tidepool only)')
    .option('--db <url>', 'also run Tidepool on this PostgreSQL server (postgres://…; a database per conversation, dropped after), beside SQLite')
    .option('--out <dir>', 'write report.json, report.md and recall.svg there')
    .option('--json', 'print the report as JSON')
    .action(async (o: { data: string; conversations?: string; mcp: boolean; hybrid?: boolean; archived?: boolean; cv?: boolean; db?: string; out?: string; json?: boolean }) => {
      if (o.db !== undefined) {
        postgresUrl(o.db, ' (SQLite is always measured)');
        if (o.cv) throw new TidepoolError('invalid_input', '--cv runs on SQLite only: leave out --db', { field: 'db' });
      }
      if (o.cv) {
        const report = await crossValidate({
          dataPath: resolve(deps.env.cwd, o.data), datasetName: basename(o.data),
          system: (recall) => new TidepoolRetrievalSystem({ config: recallConfig(recall) }),
          onProgress: (l) => deps.stderr.write(`${l}\n`),
        });
        emitReport(deps, o, 'retrieval-cv', report, renderCvMarkdown(report));
        return;
      }
      const systems = [
        new TidepoolRetrievalSystem(),
        ...(o.db ? [new TidepoolRetrievalSystem({ postgres: o.db })] : []),
        ...(o.archived ? [new TidepoolRetrievalSystem({ archived: true })] : []),
        ...(o.hybrid ? [new TidepoolRetrievalSystem({ embedder: hashEmbedder })] : []),
        ...(o.hybrid && o.db ? [new TidepoolRetrievalSystem({ embedder: hashEmbedder, postgres: o.db })] : []),
        ...(o.hybrid && o.archived ? [new TidepoolRetrievalSystem({ embedder: hashEmbedder, archived: true })] : []),
        ...defaultRetrievalPeers({ mcp: o.mcp, ...(o.hybrid ? { embedder: hashEmbedder } : {}) }),
      ];
      const limit = o.conversations === undefined ? undefined : Number(o.conversations);
      if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
        throw new TidepoolError('invalid_input', `--conversations must be a positive integer, got "${o.conversations}"`);
      }
      const report = await runRetrievalBench({
        dataPath: resolve(deps.env.cwd, o.data), systems, limitConversations: limit,
        onProgress: (l) => deps.stderr.write(`${l}\n`),
      });
      emitReport(deps, o, 'retrieval', report, renderRetrievalMarkdown(report), { 'recall.svg': renderRecallChart(report) });
    });

  bench
    .command('lifetime')
    .description('memory over time: LoCoMo conversations lived session by session with a night after every session day, then a night a day for a year; Recall@k, injected recall, tokens, knowledge and episodes at day0, end, +30d, +180d, +365d')
    .option('--data <file>', 'a LoCoMo-shaped JSON file', DEFAULT_LOCOMO)
    .option('--nights <mode>', 'none (no model) or mock (a deterministic OpenAI-compatible server on 127.0.0.1); default both')
    .option('--conversations <n>', 'only the first n conversations')
    .option('--write <dir>', 'write lifetime.json, lifetime.md and lifetime.svg there')
    .option('--json', 'print the report as JSON')
    .action(async (o: { data: string; nights?: string; conversations?: string; write?: string; json?: boolean }) => {
      if (o.nights !== undefined && !(NIGHT_MODES as readonly string[]).includes(o.nights)) {
        throw new TidepoolError('invalid_input', `--nights must be one of ${NIGHT_MODES.join(', ')}, got "${o.nights}"`, { field: 'nights' });
      }
      const limit = o.conversations === undefined ? undefined : positiveInt('--conversations', o.conversations);
      const { report, info } = await runLifetimeBench({
        dataPath: resolve(deps.env.cwd, o.data),
        modes: o.nights === undefined ? NIGHT_MODES : [o.nights as NightMode],
        limitConversations: limit,
        onProgress: (l) => deps.stderr.write(`${l}\n`),
      });
      emitReport(deps, { out: o.write, json: o.json }, 'lifetime', report, renderLifetimeMarkdown(report, info), {
        'lifetime.svg': renderLifetimeChart(report),
      });
    });

  bench
    .command('bilingual')
    .description('recall on a seeded, generated parallel LoCoMo-shaped corpus, English and Chinese side by side (Tidepool lexical and minisearch)')
    .option('--seed <n>', 'generator seed', '1')
    .option('--conversations <n>', 'conversations to generate', '10')
    .option('--write <dir>', 'also write the generated corpora there as en.json and zh.json (for `bench retrieval --data`)')
    .option('--out <dir>', 'write bilingual.json and bilingual.md there')
    .option('--json', 'print the report as JSON')
    .action(async (o: { seed: string; conversations: string; write?: string; out?: string; json?: boolean }) => {
      const seed = Number(o.seed);
      if (!Number.isInteger(seed) || seed < 0) throw new TidepoolError('invalid_input', `--seed must be a non-negative integer, got "${o.seed}"`);
      const corpus = generateParallelCorpus({ seed, conversations: positiveInt('--conversations', o.conversations) });
      if (o.write) {
        writeOutputs(o.write, { 'en.json': corpus.en, 'zh.json': corpus.zh });
      }
      const report = await runBilingualBench({ seed, corpus, onProgress: (l) => deps.stderr.write(`${l}\n`) });
      emitReport(deps, o, 'bilingual', report, renderBilingualMarkdown(report));
    });

  bench
    .command('scale')
    .description('ingest rate, recall p50/p95/p99 (a first pass right after the ingest and a second one), DB size and peak RSS at growing sizes, with minisearch and orama')
    .option('--sizes <list>', 'comma-separated corpus sizes', '10000,100000,1000000')
    .option('--queries <n>', 'queries timed per size and mode', '200')
    .option('--no-hybrid', 'skip the hybrid (384-d vectors) rows')
    .option('--no-peers', 'measure Tidepool only')
    .option('--db <url>', 'also measure Tidepool on this PostgreSQL server (postgres://…; a scratch database per run, dropped after)')
    .option('--out <dir>', 'write scale.json, scale.md and latency.svg there')
    .option('--json', 'print the report as JSON')
    .action(async (o: { sizes: string; queries: string; hybrid: boolean; peers: boolean; db?: string; out?: string; json?: boolean }) => {
      const sizes = o.sizes.split(',').map((s) => Number(s.trim()));
      if (sizes.some((n) => !Number.isInteger(n) || n <= 0)) throw new TidepoolError('invalid_input', `--sizes must be positive integers, got "${o.sizes}"`);
      if (o.db !== undefined) postgresUrl(o.db, ' (SQLite is always measured)');
      // SQLite (the embedded default) always runs; --db puts the PostgreSQL rows beside it in the same run.
      const factories = [
        tidepoolScaleFactory,
        ...(o.db ? [tidepoolPostgresScaleFactory(o.db)] : []),
        ...(o.hybrid ? [tidepoolHybridScaleFactory, ...(o.db ? [tidepoolPostgresScaleFactory(o.db, true)] : [])] : []),
        ...(o.peers ? defaultScalePeers() : []),
      ];
      const report = await runScaleBench({ sizes, factories, queries: Number(o.queries), onProgress: (l) => deps.stderr.write(`${l}\n`) });
      emitReport(deps, o, 'scale', report, renderScaleMarkdown(report), { 'latency.svg': renderLatencyChart(report) });
    });

  bench
    .command('http')
    .description('HTTP API load: autocannon drives recall and ingest on 127.0.0.1; requests/s, p50/p99 latency, errors')
    .option('--sizes <list>', 'comma-separated memory sizes', '10000,100000')
    .option('--seconds <n>', 'seconds per route', '10')
    .option('--connections <n>', 'concurrent connections', '10')
    .option('--readers <list>', 'recall reader-thread counts compared in one run (default: 0 and max(2, cores - 1))')
    .option('--json', 'print the rows as JSON')
    .action(async (o: { sizes: string; seconds: string; connections: string; readers?: string; json?: boolean }) => {
      const sizes = o.sizes.split(',').map((s) => Number(s.trim()));
      if (sizes.some((n) => !Number.isInteger(n) || n <= 0)) throw new TidepoolError('invalid_input', `--sizes must be positive integers, got "${o.sizes}"`);
      const readers = o.readers?.split(',').map((s) => Number(s.trim()));
      if (readers?.some((n) => !Number.isInteger(n) || n < 0)) throw new TidepoolError('invalid_input', `--readers must be integers ≥ 0, got "${o.readers}"`);
      const rows = await runHttpBench({ sizes, seconds: Number(o.seconds), connections: Number(o.connections), ...(readers ? { readers } : {}), onProgress: (l) => deps.stderr.write(`${l}\n`) });
      deps.stdout.write(o.json ? `${JSON.stringify(rows)}\n` : `${formatMachine(describeMachine())}\n\n${renderHttpMarkdown(rows)}\n`);
    });

  bench
    .command('team')
    .description('many servers, one memory: N `tidepool serve --http` processes on one PostgreSQL database under mixed load (ingest, keyed and unkeyed remember, recall) with `sleep --model none` nights from another process; req/s, p50/p99 per operation, errors, and acknowledged writes missing afterwards')
    .requiredOption('--db <url>', 'a PostgreSQL server (postgres://…); the run creates a database of its own there and drops it after')
    .option('--servers <n>', 'servers started on that database', '3')
    .option('--seconds <n>', 'how long the load runs', '30')
    .option('--concurrency <n>', 'requests in flight at once, spread over the servers', '12')
    .option('--seed <n>', 'turns ingested before the load', '2000')
    .option('--night-every <n>', 'seconds between the starts of two nights', '10')
    .option('--pool <n>', "connections in each server's pool (default: the servers' own, 10)")
    .option('--out <dir>', 'also write team.json and team.md there')
    .option('--json', 'print the report as JSON')
    .action(async (o: { db: string; servers: string; seconds: string; concurrency: string; seed: string; nightEvery: string; pool?: string; out?: string; json?: boolean }) => {
      postgresUrl(o.db);
      const report = await runTeamBench({
        db: o.db, servers: positiveInt('--servers', o.servers), seconds: positiveInt('--seconds', o.seconds),
        concurrency: positiveInt('--concurrency', o.concurrency), seedTurns: Number(o.seed) === 0 ? 0 : positiveInt('--seed', o.seed),
        nightEvery: positiveInt('--night-every', o.nightEvery), ...(o.pool ? { poolSize: positiveInt('--pool', o.pool) } : {}),
        onProgress: (l) => deps.stderr.write(`${l}\n`),
      });
      emitReport(deps, o, 'team', report, renderTeamMarkdown(report));
    });

  bench
    .command('script')
    .description('script layer: `script all` over N narratives with 384-d vectors, and importing N transcript turns')
    .option('--narratives <n>', 'narratives in the memory `script all` runs over', '100000')
    .option('--turns <n>', 'turns in the generated Claude Code transcript to import (default: as many as narratives)')
    .option('--json', 'print the report as JSON')
    .action(async (o: { narratives: string; turns?: string; json?: boolean }) => {
      const narratives = positiveInt('--narratives', o.narratives);
      const turns = o.turns === undefined ? narratives : positiveInt('--turns', o.turns);
      const report = await runScriptBench({ narratives, turns, onProgress: (l) => deps.stderr.write(`${l}\n`) });
      deps.stdout.write(o.json ? `${JSON.stringify(report)}\n` : `${renderScriptBenchMarkdown(report)}\n`);
    });

  bench
    .command('soak')
    .description('soak: a steady rate of recall/ingest/remember over HTTP on 127.0.0.1 with a sleep night every few seconds; errors, p50/p99 per 10 s window, RSS and DB growth')
    .option('--seconds <n>', 'how long the load runs', '120')
    .option('--rate <n>', 'requests started per second (60 % recall, 35 % ingest, 5 % remember)', '50')
    .option('--sleep-every <n>', 'seconds between the starts of two nights', '30')
    .option('--model <spec>', "the nights' model", 'none')
    .option('--seed <n>', 'turns in the memory before the load starts', '2000')
    .option('--json', 'print the report as JSON')
    .action(async (o: { seconds: string; rate: string; sleepEvery: string; model: string; seed: string; json?: boolean }) => {
      const report = await runSoakBench({
        seconds: positiveInt('--seconds', o.seconds), rate: positiveInt('--rate', o.rate), sleepEvery: positiveInt('--sleep-every', o.sleepEvery),
        model: o.model, seedTurns: positiveInt('--seed', o.seed), onProgress: (l) => deps.stderr.write(`${l}\n`),
      });
      deps.stdout.write(o.json ? `${JSON.stringify(report)}\n` : `${formatMachine(describeMachine())}\n\n${renderSoakMarkdown(report)}\n`);
    });

  bench
    .command('startup')
    .description('start-up: medians of repeated whole-process runs of `tidepool --version`, `recall` and the Claude Code hooks (the prompt hook with nothing new, when it injects and for a Chinese prompt, session start), with bare node and node + better-sqlite3 beside them')
    .option('--runs <n>', 'timed runs per command (after one warm-up)', '15')
    .option('--bin <path>', 'the tidepool to measure (default: this clone\'s bin/tidepool.js); e.g. an installed package\'s node_modules/.bin/tidepool')
    .option('--db <url>', 'also measure recall and the hook on PostgreSQL: a database of their own on this server (postgres://…), dropped after')
    .option('--out <dir>', 'also write startup.json and startup.md there')
    .option('--json', 'print the report as JSON')
    .action(async (o: { runs: string; bin?: string; db?: string; out?: string; json?: boolean }) => {
      if (o.db !== undefined) postgresUrl(o.db);
      const report = await runStartupBench({
        runs: positiveInt('--runs', o.runs),
        ...(o.bin ? { bin: resolve(deps.env.cwd, o.bin) } : {}),
        ...(o.db ? { db: o.db } : {}),
        onProgress: (l) => deps.stderr.write(`${l}\n`),
      });
      emitReport(deps, o, 'startup', report, renderStartupMarkdown(report));
    });

  bench
    .command('crash')
    .description('crash safety: rounds of real writers (CLI remember/record, serve --http under load, import, nights with model none and a mock model, journal tend) on one SQLite file, each SIGKILLed at a random moment; every acknowledged write and the file\'s integrity checked after each round')
    .option('--kills <n>', 'stop after this many SIGKILLs of running writers, once each kind of writer has been killed', '50')
    .option('--round-ms <n>', 'length of a kill round in ms (checks run between rounds)', '12000')
    .option('--seed <n>', 'seed of the kill moments and writes', '1')
    .option('--out <dir>', 'write crash.json and crash.md there')
    .option('--json', 'print the report as JSON')
    .action(async (o: { kills: string; roundMs: string; seed: string; out?: string; json?: boolean }) => {
      const report = await runCrashBench({
        kills: positiveInt('--kills', o.kills), roundMs: positiveInt('--round-ms', o.roundMs), seed: positiveInt('--seed', o.seed),
        onProgress: (l) => deps.stderr.write(`${l}\n`),
      });
      emitReport(deps, o, 'crash', report, renderCrashMarkdown(report));
      // A lost write or a broken file fails the command, so a script (or CI) running the bench notices.
      if (report.lost > 0 || report.integrityFailures > 0) process.exitCode = 1;
    });

  bench
    .command('detectors')
    .description('secret and PII detectors on a seeded, generated held-out corpus (English and Chinese): recall and false positives by language, kind and family')
    .option('--n <n>', 'cases to generate', '2000')
    .option('--seed <n>', 'generator seed', '1')
    .option('--json', 'print the report as JSON')
    .option('--rules', 'instead: the secret detector on examples generated from the gitleaks rule set\'s own regexes, the issue\'s missed formats and the near-misses (needs the devDependency randexp)')
    .option('--per-rule <n>', 'with --rules: examples per gitleaks rule', '5')
    .action(async (o: { n: string; seed: string; json?: boolean; rules?: boolean; perRule: string }) => {
      const seed = Number(o.seed);
      if (!Number.isInteger(seed) || seed < 0) throw new TidepoolError('invalid_input', `--seed must be a non-negative integer, got "${o.seed}"`);
      if (o.rules) {
        const r = await runRuleSetBench({ seed, perRule: positiveInt('--per-rule', o.perRule) });
        deps.stdout.write(o.json ? `${JSON.stringify(r)}\n` : `${renderRuleSetBenchMarkdown(r)}\n`);
        return;
      }
      const report = runDetectorBench({ n: positiveInt('--n', o.n), seed });
      deps.stdout.write(o.json ? `${JSON.stringify(report)}\n` : `${renderDetectorBenchMarkdown(report)}\n`);
    });
}
