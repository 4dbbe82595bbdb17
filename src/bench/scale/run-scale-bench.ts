// Runs the scale benchmark: ingest rates, recall latency, size on disk and peak memory at growing corpus sizes.
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { describeMachine } from '../machine-info.js';
import type { MachineInfo } from '../machine-info.js';
import { measureScaleRun } from './measure-scale-run.js';
import type { ScaleRow, ScaleRunParams } from './measure-scale-run.js';
import type { ScaleSystemFactory } from './scale-system.js';
import type { ScaleWorkerRequest } from './scale-worker.js';

/** Options of {@link runScaleBench}. */
export interface ScaleBenchOptions {
  /** Corpus sizes, run in ascending order; default 10,000, 100,000, 1,000,000. */
  readonly sizes?: readonly number[];
  readonly factories: readonly ScaleSystemFactory[];
  /** Queries timed per size and mode; default 200. */
  readonly queries?: number;
  /** Single-call ingests timed after the batch load; default 1,000. */
  readonly singleCalls?: number;
  /** Items per `ingestBatch` call; default 1,000. */
  readonly batchSize?: number;
  /** Hits asked per query; default 10. */
  readonly k?: number;
  readonly seed?: number;
  /**
   * Memory bound for `storage: 'memory'` systems: a size is not run when the heap growth measured at
   * a smaller size, scaled up, would pass it, and an isolated run gets it as its V8 heap limit (an
   * in-memory index lives on the JS heap). Default: isolated, half the RAM, at most 16 GiB;
   * in-process, 80 % of this process's heap limit (passing it would kill the benchmark), at most half the RAM.
   */
  readonly memoryBoundBytes?: number;
  /**
   * Run every factory that has a `ref` in a child process of its own per size (default true), so
   * its peak RSS is its own and a crash or out-of-memory abort ends only that row.
   */
  readonly isolate?: boolean;
  readonly onProgress?: (line: string) => void;
}

export type { ScaleRow } from './measure-scale-run.js';

/** The scale report: machine, date, parameters and one row per system and size. */
export interface ScaleReport {
  readonly date: string;
  readonly machine: MachineInfo;
  readonly seed: number;
  readonly queries: number;
  readonly single_calls: number;
  readonly batch_size: number;
  /** Whether runs had a child process each (peak RSS then covers one system alone). */
  readonly isolated: boolean;
  readonly rows: ScaleRow[];
}

// Safety margin on the linear projection: indexes grow slightly faster than linearly (longer posting lists).
const PROJECTION_MARGIN = 1.25;
// An in-memory system asked first at a large size is measured on this many items to project its heap.
const PILOT_SIZE = 20_000;
// Exit code of a V8 out-of-memory abort (SIGABRT, 128 + 6).
const OOM_EXIT = 134;

function workerEntry(): { path: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const ts = here.endsWith('.ts');
  const path = join(dirname(here), ts ? 'scale-worker.ts' : 'scale-worker.js');
  // Heap flags are set per run below; inspector flags would make children fight over one port.
  const execArgv = process.execArgv.filter((a) => !/^--(max-old-space-size|inspect)/u.test(a));
  if (ts && !execArgv.some((a) => a.includes('tsx'))) {
    execArgv.push('--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href);
  }
  return { path, execArgv };
}

/** Runs one measurement in a child process of its own, so peak RSS and crashes are its alone. */
function measureIsolated(
  factory: ScaleSystemFactory & { ref: NonNullable<ScaleSystemFactory['ref']> },
  size: number,
  p: ScaleRunParams,
  heapBoundBytes: number | undefined,
): Promise<ScaleRow> {
  const entry = workerEntry();
  // The flag is a backstop behind the projection; V8 needs some room just to start.
  const heapLimit = heapBoundBytes === undefined ? undefined : Math.max(heapBoundBytes, 256 * 2 ** 20);
  const heapFlag = heapLimit === undefined ? [] : [`--max-old-space-size=${Math.floor(heapLimit / 2 ** 20)}`];
  const child = fork(entry.path, [], { execArgv: [...entry.execArgv, ...heapFlag, '--expose-gc'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const req: ScaleWorkerRequest = {
    module: factory.ref.module,
    exportName: factory.ref.exportName,
    ...(factory.ref.args ? { args: factory.ref.args } : {}),
    size,
    params: p,
  };
  child.send(req);
  return new Promise((resolve) => {
    let row: ScaleRow | undefined;
    // The last row wins: the worker sends one before its size probe and one after.
    child.on('message', (m: ScaleRow) => (row = m));
    child.on('exit', (code, signal) => {
      if (row) return resolve(row);
      const oom = code === OOM_EXIT || /heap out of memory/iu.test(stderr);
      const base = { system: factory.name, storage: factory.storage, size };
      if (oom && heapLimit !== undefined) {
        return resolve({ ...base, status: 'not_run', reason: `not run: stopped when its heap passed the ${gib(heapLimit)} bound` });
      }
      const why = oom ? 'out of memory' : signal === 'SIGKILL' ? 'killed (SIGKILL: likely the kernel OOM killer)' : `exit ${code ?? signal}`;
      resolve({ ...base, status: 'failed', reason: `failed: ${why}: ${stderr.trim().split('\n').slice(-3).join(' ')}`.trim() });
    });
  });
}

function gib(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
}

/**
 * Measures every factory at every size (ascending), each run on a fresh instance fed the same
 * deterministic stream, one run at a time. Peak RSS is the running process's (a child per run when
 * isolated; the runtime and the generator are included); heap growth is the system's share. A
 * failing run becomes a `failed` row and the benchmark goes on.
 */
export async function runScaleBench(options: ScaleBenchOptions): Promise<ScaleReport> {
  const p: ScaleRunParams = {
    queries: options.queries ?? 200,
    singleCalls: options.singleCalls ?? 1000,
    batchSize: options.batchSize ?? 1000,
    k: options.k ?? 10,
    seed: options.seed ?? 1,
  };
  const isolate = options.isolate ?? true;
  const bound =
    options.memoryBoundBytes ??
    (isolate ? Math.min(0.5 * totalmem(), 16 * 2 ** 30) : Math.min(0.8 * getHeapStatistics().heap_size_limit, 0.5 * totalmem()));
  const run = (factory: ScaleSystemFactory, size: number, params: ScaleRunParams): Promise<ScaleRow> => {
    const ref = factory.ref;
    if (!isolate || !ref) return measureScaleRun(factory, size, params);
    return measureIsolated({ ...factory, ref }, size, params, factory.storage === 'memory' ? bound : undefined);
  };
  const sizes = [...(options.sizes ?? [10_000, 100_000, 1_000_000])].sort((a, b) => a - b);
  const rows: ScaleRow[] = [];
  for (const factory of options.factories) {
    let perItem: number | undefined;
    for (const size of sizes) {
      const say = (line: string): void => options.onProgress?.(`${factory.name} @ ${size}: ${line}`);
      try {
        if (factory.storage === 'memory' && perItem === undefined && size > PILOT_SIZE * 2) {
          const pilot = await run(factory, PILOT_SIZE, { ...p, queries: 1, singleCalls: 0 });
          perItem = (pilot.heap_growth_bytes ?? 0) / PILOT_SIZE;
        }
        const projected = perItem === undefined ? undefined : perItem * (size + p.singleCalls) * PROJECTION_MARGIN;
        if (factory.storage === 'memory' && projected !== undefined && projected > bound) {
          const reason = `not run: projected heap ${gib(projected)} > bound ${gib(bound)}`;
          rows.push({ system: factory.name, storage: factory.storage, size, status: 'not_run', reason });
          say(reason);
          continue;
        }
        const row = await run(factory, size, p);
        if (row.status === 'ok') perItem = Math.max(perItem ?? 0, (row.heap_growth_bytes ?? 0) / (size + p.singleCalls));
        rows.push(row);
        say(row.status === 'ok' ? `${row.batch_ingest_per_s}/s, lexical p50 ${row.lexical?.p50_ms} ms (${row.seconds} s)` : (row.reason ?? row.status));
      } catch (e) {
        const reason = `failed: ${e instanceof Error ? e.message : String(e)}`;
        rows.push({ system: factory.name, storage: factory.storage, size, status: 'failed', reason });
        say(reason);
      }
    }
  }
  return {
    date: new Date().toISOString(),
    machine: describeMachine(),
    seed: p.seed,
    queries: p.queries,
    single_calls: p.singleCalls,
    batch_size: p.batchSize,
    isolated: isolate,
    rows,
  };
}
