/**
 * Script-layer benchmark (issue 9): `script all` over N synthetic narratives with 384-d vectors, and importing N
 * turns from a generated Claude Code transcript. Targets on the 2-core dev machine: 100,000 narratives under 60 s,
 * 100,000 turns under 30 s.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFileInput } from '../app/import-file-input.js';
import { narrativeIndexText } from '../app/index-text.js';
import type { ScriptAllEntry } from '../app/script-jobs.js';
import { appContextOf, type Tidepool } from '../app/tidepool.js';
import { openMemory } from '../boot/open-memory.js';
import { FixedClock } from '../core/clock.js';
import { DotKernel, type DotEngine } from '../script/dot-kernel.js';
import { DEFAULT_SEED, mulberry32 } from '../script/seeded-rng.js';
import { buildSoftClusters } from '../script/soft-clusters.js';
import { computeWeight } from '../script/weight-policy.js';
import { describeMachine, formatMachine, type MachineInfo } from './machine-info.js';
import { JsDotProducts } from './js-dot-products.js';
import { hashEmbedding, HASH_EMBEDDING_DIMS } from './scale/hash-embedding.js';
import { createRng, type SeededRandom } from '../script/seeded-rng.js';
import { zipfSampler } from './scale/zipf-sampler.js';
import { syntheticEpisodes, syntheticLine } from './scale/synthetic-episodes.js';
import { PEOPLE, ZH } from './scale/vocabulary.js';

/** Options of {@link runScriptBench}. */
export interface ScriptBenchOptions {
  /** Narratives for `script all` (default 100,000). */
  narratives?: number;
  /** Turns for the import (default: as many as narratives). */
  turns?: number;
  seed?: number;
  /** Runs of each dot-product engine in the comparison (default 3; the median counts). */
  dotRepeats?: number;
  onProgress?: (line: string) => void;
}

/** The two dot-product engines on the same vectors: medians in milliseconds, ratios WASM-over-JS speed. */
export interface DotEngineComparison {
  vectors: number;
  repeats: number;
  /** Soft clustering of every vector (the `soft-clusters` job's computation), median per engine. */
  clusterWasmMs: number;
  clusterJsMs: number;
  /** clusterJsMs / clusterWasmMs: above 1 the WebAssembly kernel is faster. */
  clusterRatio: number;
  /** `script all` with the JS engine instead, projected: scriptAllMs − clusterWasmMs + clusterJsMs, over scriptAllMs. */
  scriptAllRatio: number;
  /** The scores kernel alone: 256 rows × k centroids, repeated; median per engine. */
  kernelWasmMs: number;
  kernelJsMs: number;
  kernelRatio: number;
}

/** What the benchmark measured; times in milliseconds. */
export interface ScriptBenchReport {
  machine: MachineInfo;
  narratives: number;
  dims: number;
  /** Building the synthetic memory (not part of the target). */
  setupMs: number;
  scriptAllMs: number;
  /** CPU time of the process during `script all` (user + system): the figure a busy shared machine distorts least. */
  scriptAllCpuMs: number;
  jobs: Array<{ job: string; ok: boolean; ms: number | null; error?: string }>;
  turns: number;
  importMs: number;
  importCpuMs: number;
  imported: number;
  /** A second import of the same file (every turn skipped). */
  reimportMs: number;
  dotEngines: DotEngineComparison;
}

const T0 = Date.UTC(2025, 0, 1);
const TAGS = [
  'sync',
  'deploy',
  'database',
  'review',
  'family',
  'health',
  'travel',
  'music',
  '调试',
  '数据库',
  '家人',
  '旅行',
];
const ROLES = ['判断', '执行', '审查', 'lead', 'helper', 'reviewer'];

/** Runs both measurements in fresh temp memories and returns the numbers. */
export async function runScriptBench(opts: ScriptBenchOptions = {}): Promise<ScriptBenchReport> {
  const n = opts.narratives ?? 100_000;
  const turns = opts.turns ?? n;
  const seed = opts.seed ?? 7;
  const log = opts.onProgress ?? (() => {});
  const dir = mkdtempSync(join(tmpdir(), 'tidepool-script-bench-'));
  try {
    const clock = new FixedClock(T0 + 400 * 86_400_000);
    const memory = await openMemory({
      path: join(dir, 'script.db'),
      clock,
      embedder: 'none',
      warn: () => {},
    });
    let setupMs: number;
    let scriptAllMs: number;
    let scriptAllCpuMs: number;
    let jobs: ScriptBenchReport['jobs'];
    try {
      const t = performance.now();
      await fillNarratives(memory, n, createRng(seed), log);
      setupMs = Math.round(performance.now() - t);
      log(`built ${n} narratives with ${HASH_EMBEDDING_DIMS}-d vectors in ${setupMs} ms; running script all`);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const all = await memory.scriptAll({}, (e) => log(describeJob(e)));
      scriptAllCpuMs = cpuMs(cpu);
      scriptAllMs = Math.round(performance.now() - started);
      jobs = all.jobs.map((e) =>
        e.ok
          ? { job: e.job, ok: true, ms: e.result.ms }
          : { job: e.job, ok: false, ms: null, error: e.error },
      );
    } finally {
      await memory.close();
    }
    log(`comparing the dot-product engines on ${n} vectors`);
    const dotEngines = compareDotEngines(n, seed, opts.dotRepeats ?? 3, scriptAllMs);
    const file = join(dir, `bench-session-${seed}.jsonl`);
    writeFileSync(file, claudeCodeTranscript(turns, seed));
    const importer = await openMemory({
      path: join(dir, 'import.db'),
      clock,
      embedder: 'none',
      warn: () => {},
    });
    try {
      const input = importFileInput(file);
      log(
        `importing ${turns} turns from a ${Math.round(statSync(file).size / 1e6)} MB Claude Code transcript`,
      );
      let t = performance.now();
      const cpu = process.cpuUsage();
      const first = await importer.importFile(input);
      const importCpuMs = cpuMs(cpu);
      const importMs = Math.round(performance.now() - t);
      t = performance.now();
      await importer.importFile(input);
      const reimportMs = Math.round(performance.now() - t);
      const imported = first.status === 'imported' ? first.imported : 0;
      return {
        machine: describeMachine(),
        narratives: n,
        dims: HASH_EMBEDDING_DIMS,
        setupMs,
        scriptAllMs,
        scriptAllCpuMs,
        jobs,
        turns,
        importMs,
        importCpuMs,
        imported,
        reimportMs,
        dotEngines,
      };
    } finally {
      await importer.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The WebAssembly SIMD kernel against plain typed arrays, on the same vectors (hash embeddings of synthetic
 * narrative lines, as `script all` clusters them), engines alternating run by run so load hits both alike.
 */
export function compareDotEngines(n: number, seed: number, repeats: number, scriptAllMs: number): DotEngineComparison {
  const rng = createRng(seed + 1);
  const items = Array.from({ length: n }, (_, id) => ({ id, vector: hashEmbedding(syntheticLine(rng, 0.1)) }));
  const engines: Array<[string, () => DotEngine]> = [
    ['wasm', () => new DotKernel()],
    ['js', () => new JsDotProducts()],
  ];
  const cluster: Record<string, number[]> = { wasm: [], js: [] };
  const kernel: Record<string, number[]> = { wasm: [], js: [] };
  for (let r = 0; r < repeats; r++) {
    for (const [name, make] of engines) {
      const t = performance.now();
      buildSoftClusters(items, { rng: mulberry32(DEFAULT_SEED), dotEngine: make });
      cluster[name]!.push(performance.now() - t);
      kernel[name]!.push(timeScores(make(), items.map((i) => i.vector)));
    }
  }
  const [cw, cj, kw, kj] = [median(cluster['wasm']!), median(cluster['js']!), median(kernel['wasm']!), median(kernel['js']!)];
  return {
    vectors: n,
    repeats,
    clusterWasmMs: Math.round(cw),
    clusterJsMs: Math.round(cj),
    clusterRatio: round2(cj / cw),
    scriptAllRatio: round2((scriptAllMs - cw + cj) / scriptAllMs),
    kernelWasmMs: round2(kw),
    kernelJsMs: round2(kj),
    kernelRatio: round2(kj / kw),
  };
}

/** Milliseconds for 20 passes of the scores kernel: 256 rows against 64 centroids of the vectors' width. */
function timeScores(engine: DotEngine, vectors: readonly Float32Array[]): number {
  const d = Math.ceil((vectors[0]?.length ?? 4) / 4) * 4;
  const [rows, k] = [256, 64];
  const x = engine.alloc(rows * d);
  const c = engine.alloc(k * d);
  const out = engine.alloc(rows * k);
  const f = engine.f32();
  for (let i = 0; i < rows; i++) f.set(vectors[i % vectors.length]!, x / 4 + i * d);
  for (let j = 0; j < k; j++) f.set(vectors[(j * 7919) % vectors.length]!, c / 4 + j * d);
  const t = performance.now();
  for (let p = 0; p < 20; p++) engine.scores(x, rows, c, k, d, out);
  return performance.now() - t;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since);
  return Math.round((u.user + u.system) / 1000);
}

function describeJob(e: ScriptAllEntry): string {
  return e.ok ? `  ${e.job}: ${e.result.ms} ms` : `  ${e.job}: FAILED ${e.error}`;
}

/** Writes `n` narratives (gesture, tags, entities_role, scores) and their hash vectors straight through the store. */
export async function fillNarratives(
  memory: Tidepool,
  n: number,
  rng: SeededRandom,
  log: (l: string) => void,
): Promise<void> {
  const { store } = appContextOf(memory);
  const space = memory.space;
  const tagRank = zipfSampler(TAGS.length, 1.1);
  const people = [...PEOPLE.slice(0, 20), ...ZH.people];
  const batch = 5000;
  for (let start = 0; start < n; start += batch) {
    await store.transaction(async (tx) => {
      await tx.spaces.ensure(space, T0);
      for (let i = start; i < Math.min(n, start + batch); i++) {
        const gesture = syntheticLine(rng, 0.1);
        const tags = [...new Set([TAGS[tagRank(rng)]!, TAGS[tagRank(rng)]!])];
        const scores = {
          importance: rng.between(1, 5),
          emotional: rng.between(1, 5),
          recurrence: 3,
          unresolved: rng.between(1, 5),
        };
        const entitiesRole = rng.chance(0.3)
          ? `${rng.pick(people)}=${rng.pick(ROLES)}; ${rng.pick(people)}=${rng.pick(ROLES)}`
          : null;
        const row = {
          kind: 'narrative' as const,
          ntype: 'general',
          content: gesture,
          gesture,
          context: null,
          moment: null,
          cognitionDirection: null,
          tags,
          entitiesRole,
          relatedEntities: [],
          sourceLinks: [],
          ...scores,
          weight: computeWeight(scores),
          createdAt: T0 + i * 300_000,
          embedPending: false,
        };
        const id = await tx.forSpace(space).narratives.insert({ ...row, index: narrativeIndexText(row) });
        await tx.forSpace(space).vectors.put('narrative', id, 'bench-hash', hashEmbedding(gesture), T0);
      }
    });
    if ((start / batch) % 4 === 3) log(`  ${Math.min(n, start + batch)} narratives`);
  }
}

/** A Claude Code transcript of `turns` turns: user and assistant text, every tenth assistant turn a tool call and result. */
export function claudeCodeTranscript(turns: number, seed: number): string {
  const gen = syntheticEpisodes({ seed, startAt: T0 });
  const lines: string[] = [];
  let k = 0;
  while (k < turns) {
    const e = gen.next().value;
    const base = {
      sessionId: `bench-${e.sessionId}`,
      uuid: `u-${k}`,
      timestamp: new Date(e.at).toISOString(),
      cwd: '/work/app',
    };
    if (e.role === 'assistant' && k % 10 === 1 && k + 1 < turns) {
      lines.push(
        JSON.stringify({
          ...base,
          type: 'assistant',
          message: {
            role: 'assistant',
            content: [
              {
                type: 'tool_use',
                id: `t${k}`,
                name: 'Bash',
                input: { command: `grep -rn "${e.text.slice(0, 20)}" src` },
              },
            ],
          },
        }),
      );
      lines.push(
        JSON.stringify({
          ...base,
          uuid: `u-${k}-r`,
          type: 'user',
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: `t${k}`, content: e.text }],
          },
        }),
      );
      k += 2;
      continue;
    }
    lines.push(
      JSON.stringify({
        ...base,
        type: e.role,
        message: { role: e.role, content: e.role === 'user' ? e.text : [{ type: 'text', text: e.text }] },
      }),
    );
    k++;
  }
  return `${lines.join('\n')}\n`;
}

/** The report as markdown, for docs/BENCHMARKS.md. */
export function renderScriptBenchMarkdown(r: ScriptBenchReport): string {
  const rows = r.jobs.map((j) => `| ${j.job} | ${j.ok ? `${j.ms} ms` : `failed: ${j.error ?? ''}`} |`);
  return [
    formatMachine(r.machine),
    '',
    `### Script layer: \`script all\` over ${r.narratives.toLocaleString('en')} narratives (${r.dims}-d vectors)`,
    '',
    `Total **${(r.scriptAllMs / 1000).toFixed(1)} s** wall, ${(r.scriptAllCpuMs / 1000).toFixed(1)} s CPU (target < 60 s); building the memory took ${(r.setupMs / 1000).toFixed(1)} s.`,
    '',
    '| job | time |',
    '|---|---|',
    ...rows,
    '',
    `### Import: ${r.turns.toLocaleString('en')} turns from a Claude Code transcript`,
    '',
    `First import **${(r.importMs / 1000).toFixed(1)} s** wall, ${(r.importCpuMs / 1000).toFixed(1)} s CPU (target < 30 s), ${r.imported.toLocaleString('en')} episodes stored; ` +
      `importing the same file again ${(r.reimportMs / 1000).toFixed(1)} s (every turn skipped).`,
    '',
    `### Dot products: WebAssembly SIMD kernel vs plain typed arrays (${r.dotEngines.vectors.toLocaleString('en')} vectors, median of ${r.dotEngines.repeats})`,
    '',
    '| measure | WASM | JS | JS / WASM |',
    '|---|---|---|---|',
    `| soft clustering of every vector | ${r.dotEngines.clusterWasmMs} ms | ${r.dotEngines.clusterJsMs} ms | ${r.dotEngines.clusterRatio} |`,
    `| scores kernel, 20 × 256 rows × 64 centroids | ${r.dotEngines.kernelWasmMs} ms | ${r.dotEngines.kernelJsMs} ms | ${r.dotEngines.kernelRatio} |`,
    `| \`script all\` (projected) | ${r.scriptAllMs} ms | | ${r.dotEngines.scriptAllRatio} |`,
  ].join('\n');
}
