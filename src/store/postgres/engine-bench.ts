/** Measures one store engine at a given size: ingest rate, lexical/substring/vector latency (numbers for docs/scaling.md). */
import { pathToFileURL } from 'node:url';
import { mulberry32 } from '../../script/seeded-rng.js';
import { segmentForIndex } from '../../script/segment-text.js';
import type { NewEpisode } from '../port.js';
import type { SqlStore } from '../sql/sql-store.js';

/** What one engine measured. */
export interface EngineBenchResult {
  engine: string;
  rows: number;
  /** Rows per second, 100 rows per transaction (a `record` batch). */
  batchRowsPerSec: number;
  /** Rows per second, one row per transaction (a `remember`). */
  singleRowsPerSec: number;
  lexicalMs: { p50: number; p95: number };
  substringMs: { p50: number; p95: number };
  vectorMs: { p50: number; p95: number };
  vectors: number;
  dim: number;
}

const EN = 'deploy staging database port sync engine cache latency error retry token budget memory agent session tool shell query index vector cluster night sleep briefing review'.split(' ');
const ZH = '咖啡 同步 数据库 部署 日志 缓存 错误 记忆 会话 工具'.split(' ');

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
}

async function timed(n: number, f: (i: number) => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await f(i);
    xs.push(performance.now() - t);
  }
  return { p50: pct(xs, 50), p95: pct(xs, 95) };
}

/** Fills `store` with `rows` synthetic episodes (and `vectors` vectors of `dim`) in a fresh space, then queries it. */
export async function benchEngine(engine: string, store: SqlStore, rows: number, vectors = 2000, dim = 256): Promise<EngineBenchResult> {
  const space = `bench-${Date.now().toString(36)}`;
  const r = mulberry32(7);
  const sentence = () => {
    const w = Array.from({ length: 12 }, () => (r() < 0.15 ? ZH[Math.floor(r() * ZH.length)]! : EN[Math.floor(r() * EN.length)]!));
    return w.join(' ');
  };
  const row = (i: number): NewEpisode => {
    const content = `${sentence()} #${i}`;
    return {
      kind: 'turn', role: 'user', speaker: null, content, session: `s${i % 50}`, tool: null, ok: null, source: 'bench', ref: null,
      meta: {}, durable: false, occurredAt: 1_700_000_000_000 + i, createdAt: 1_700_000_000_000 + i, embedPending: false,
      index: { body: segmentForIndex(content), extra: '', raw: content },
    };
  };
  const single = Math.min(500, Math.floor(rows / 10));
  let t = performance.now();
  for (let i = 0; i < rows - single; i += 100) {
    const batch = Array.from({ length: Math.min(100, rows - single - i) }, (_, j) => row(i + j));
    await store.transaction((tx) => tx.forSpace(space).episodes.insertMany(batch));
  }
  const batchRowsPerSec = Math.round(((rows - single) / (performance.now() - t)) * 1000);
  t = performance.now();
  for (let i = rows - single; i < rows; i++) await store.transaction((tx) => tx.forSpace(space).episodes.insertMany([row(i)]));
  const singleRowsPerSec = Math.round((single / (performance.now() - t)) * 1000);
  // Steady state: planner statistics as autovacuum (PostgreSQL) or `PRAGMA optimize` (SQLite) would leave them.
  await store.db.run('ANALYZE');
  const lexicalMs = await timed(100, (i) => store.forSpace(space).search.lexical('episode', [EN[i % EN.length]!, ZH[i % ZH.length]!], { limit: 20 }));
  const substringMs = await timed(100, (i) => store.forSpace(space).search.substring('episode', `#${1000 + i * 7}`, { limit: 20 }));
  const v = () => Float32Array.from({ length: dim }, () => r() * 2 - 1);
  for (let i = 1; i <= vectors; i++) await store.forSpace(space).vectors.put('episode', i, 'bench', v(), 1);
  await store.forSpace(space).vectors.nearest('episode', 'bench', v(), 10); // builds the ANN index where there is one
  const vectorMs = await timed(30, () => store.forSpace(space).vectors.nearest('episode', 'bench', v(), 10));
  await store.rows.eraseSpace(space);
  return { engine, rows, batchRowsPerSec, singleRowsPerSec, lexicalMs, substringMs, vectorMs, vectors, dim };
}

// `node --import tsx src/store/postgres/engine-bench.ts <rows> <vectors> <location>…` (`:memory:`, a path, pglite://, postgres://).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [rowsArg, vectorsArg, ...locations] = process.argv.slice(2);
  for (const loc of locations) {
    const pgLike = /^(postgres(ql)?|pglite):\/\//i.test(loc);
    const store = pgLike
      ? await (await import('./open-postgres.js')).openPostgresStore(loc)
      : await (await import('../sqlite/open-sqlite.js')).openSqliteStore(loc);
    try {
      const name = pgLike ? loc.replace(/\/\/[^@/]*@/, '//').replace(/\?.*$/, '') : `sqlite ${loc}`;
      console.log(JSON.stringify(await benchEngine(name, store, Number(rowsArg ?? 10000), Number(vectorsArg ?? 2000))));
    } finally {
      await store.close();
    }
  }
}
