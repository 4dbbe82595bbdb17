/** Load benchmark of the HTTP API: autocannon drives recall and ingest on 127.0.0.1 at growing memory sizes. */
import { createRequire } from 'node:module';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defaultReaderCount } from '../../boot/reader-pool.js';
import { startHttpServer, type HttpHandle } from '../../boot/serve.js';
import { openMemory } from '../../boot/open-memory.js';
import { createRng } from '../../script/seeded-rng.js';
import { syntheticEpisodes } from '../scale/synthetic-episodes.js';

/** The part of autocannon's result this benchmark reads. */
interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

/** Runs autocannon in a child process of its own (bench/http/cannon-process.ts) and returns its result. */
function autocannon(o: Record<string, unknown>): Promise<CannonResult> {
  const here = fileURLToPath(import.meta.url);
  const ts = here.endsWith('.ts');
  const execArgv = process.execArgv.filter((a) => !/^--inspect/u.test(a));
  if (ts && !execArgv.some((a) => a.includes('tsx'))) execArgv.push('--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href);
  const child = fork(join(dirname(here), ts ? 'cannon-process.ts' : 'cannon-process.js'), [], { execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let result: CannonResult | undefined;
    child.once('message', (r) => (result = r as CannonResult));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`autocannon exited with ${code}`))));
    child.send(o);
  });
}

/** One measured route at one size. */
export interface HttpBenchRow {
  size: number;
  /** Reader threads answering recall (0: the main thread alone, as before issue 20). */
  readers: number;
  route: 'recall' | 'ingest';
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
}

/** Options of {@link runHttpBench}. */
export interface HttpBenchOptions {
  sizes: readonly number[];
  /** Seconds each route is driven; default 10. */
  seconds?: number;
  /** Concurrent connections; default 10. */
  connections?: number;
  /** Reader-thread counts to compare at each size, in one run; default 0 and `defaultReaderCount()`. */
  readers?: readonly number[];
  onProgress?: (line: string) => void;
}

const QUERIES = ['deploy pipeline', 'staging database', 'review meeting', 'sync race', 'release notes', 'budget', 'cache', 'migration plan'];

/** Seeds a fresh memory with `size` synthetic turns, serves it, and drives recall then ingest with autocannon. */
export async function runHttpBench(o: HttpBenchOptions): Promise<HttpBenchRow[]> {
  const rows: HttpBenchRow[] = [];
  for (const size of o.sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'tidepool-http-bench-'));
    const memory = await openMemory({ path: join(dir, 'bench.db'), embedder: 'none', warn: () => undefined });
    try {
      const gen = syntheticEpisodes({ seed: 7 });
      const t0 = Date.now();
      for (let done = 0; done < size; ) {
        const n = Math.min(2000, size - done);
        const turns = Array.from({ length: n }, () => {
          const e = gen.next().value;
          return { role: e.role, content: e.text, session: e.sessionId, speaker: e.speaker, at: e.at };
        });
        await memory.record({ turns });
        done += n;
      }
      o.onProgress?.(`seeded ${size} memories in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      const counts = o.readers ?? [0, defaultReaderCount()];
      const common = { connections: o.connections ?? 10, duration: o.seconds ?? 10 };
      // Every recall round first, on the same rows; ingest adds rows that match the recall queries.
      for (const readers of counts) {
        await served(memory, readers, async (server) => {
          // Each connection walks the same seeded sequence of queries (autocannon cycles through `requests`).
          const rng = createRng(size);
          const paths = Array.from({ length: 64 }, () => `/v1/recall?q=${encodeURIComponent(QUERIES[Math.floor(rng.next() * QUERIES.length)]!)}&limit=10`);
          const recall = await autocannon({ ...common, url: server.url, requests: paths.map((path) => ({ method: 'GET', path })) });
          rows.push(row(size, server.readers, 'recall', recall));
          o.onProgress?.(`recall @${size}, ${server.readers} readers: ${rows.at(-1)!.requestsPerSec} req/s`);
        });
      }
      for (const readers of counts) {
        await served(memory, readers, async (server) => {
          const ingest = await autocannon({ ...common, url: server.url, ingestTurns: true });
          rows.push(row(size, server.readers, 'ingest', ingest));
          o.onProgress?.(`ingest @${size}, ${server.readers} readers: ${rows.at(-1)!.requestsPerSec} req/s`);
        });
      }
    } finally {
      await memory.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

/** Serves `memory` with `readers` reader threads, started before the load begins, for the length of `fn`. */
async function served(memory: Awaited<ReturnType<typeof openMemory>>, readers: number, fn: (server: HttpHandle) => Promise<void>): Promise<void> {
  const server = await startHttpServer(memory, { host: '127.0.0.1', port: 0, readers });
  try {
    await server.readersReady();
    await fn(server);
  } finally {
    await server.close();
  }
}

function row(size: number, readers: number, route: HttpBenchRow['route'], r: CannonResult): HttpBenchRow {
  return {
    size, readers, route, requestsPerSec: Math.round(r.requests.average), p50Ms: r.latency.p50, p99Ms: r.latency.p99, requests: r.requests.total,
    errors: r.errors + r.timeouts + r.non2xx,
  };
}

/** Markdown table of the rows. */
export function renderHttpMarkdown(rows: readonly HttpBenchRow[]): string {
  const lines = ['| memories | readers | route | req/s | p50 ms | p99 ms | requests | errors |', '|---:|---:|---|---:|---:|---:|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.size} | ${r.readers} | ${r.route} | ${r.requestsPerSec} | ${r.p50Ms} | ${r.p99Ms} | ${r.requests} | ${r.errors} |`);
  return lines.join('\n');
}
