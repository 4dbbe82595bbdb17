/**
 * Where a lexical query's time goes (issue 20): the 200 queries `bench scale` asks at a size, asked through `recall`
 * of a kept database (a PostgreSQL URL, or a SQLite file path), with every statement's wall time taken around
 * node-postgres's `query`. Prints p50/p95 of the queries, a digest of their hit ids (equal digests: equal answers
 * across builds), the slowest queries with their statements, and the statements' total time by kind.
 * Make a database first: `KEEP=1 npx tsx bench/pg-ingest-profile.ts <postgres url> 100000` prints its URL.
 * Run: `npx tsx bench/pg-query-profile.ts <url> [size=100000]`; PASSES=2 asks every query twice (the second pass with
 * the counts remembered), TOP=n shows n slowest (8), KIND=<statement prefix> lists that kind's statements with their
 * query's number, POOL=n sizes the pool (`postgres.poolSize`), DUMP=<file> writes each query's time as JSON. Not part of the test suite.
 */
import { createHash } from 'node:crypto';
import { openMemory } from '../src/boot/open-memory.js';
import { queryFor } from '../src/bench/scale/measure-scale-run.js';
import { syntheticEpisodes } from '../src/bench/scale/synthetic-episodes.js';
import { timePgStatements } from './pg-statement-timer.js';
import { createRng } from '../src/script/seeded-rng.js';

const url = process.argv[2];
if (!url) throw new Error('usage: pg-query-profile.ts <postgres url | sqlite file> [size]');
const size = Number(process.argv[3] ?? 100_000);
const count = 200;
const passes = Number(process.env.PASSES ?? 1);
const top = Number(process.env.TOP ?? 8);

// Statement wall times, by the query they belong to (pg-statement-timer.ts).
const statements: Array<{ query: number; text: string; ms: number }> = [];
let current = -1;
timePgStatements((text) => {
  const at = current;
  return (ms) => statements.push({ query: at, text: text.replace(/\s+/g, ' ').slice(0, 160), ms });
});

// The bench's queries at this size: episodes spread evenly over the corpus, 2-3 keywords each (measure-scale-run.ts).
const stream = syntheticEpisodes({ seed: 1 });
const every = Math.max(1, Math.floor(size / count));
const sources: string[] = [];
for (let i = 0; i < size && sources.length < count; i++) {
  const item = stream.next().value;
  if (i % every === 0) sources.push(item.text);
}
const rng = createRng(1 ^ size);
const queries = sources.map((t) => queryFor(t, rng));

const m = await openMemory({
  ...(url.startsWith('postgres') ? { url } : { path: url }),
  space: 'scale',
  embedder: 'none',
  warn: () => {},
  ...(process.env.POOL ? { config: { postgres: { poolSize: Number(process.env.POOL) } } } : {}),
});
let times: number[] = [];
const cpuMs = (c: NodeJS.CpuUsage) => ((c.user + c.system) / 1000).toFixed(0);
const ids: string[] = [];
let cpu = process.cpuUsage();
for (let pass = 0; pass < passes; pass++) {
  cpu = process.cpuUsage();
  times = [];
  statements.length = 0;
  ids.length = 0;
  for (let i = 0; i < queries.length; i++) {
    current = i;
    const t0 = performance.now();
    const hits = await m.recall({ query: queries[i]!, limit: 10, layers: ['episode'] }, { sideEffects: false });
    times.push(performance.now() - t0);
    ids.push(hits.map((h) => h.id).join(','));
  }
  if (pass < passes - 1) {
    const s = [...times].sort((a, b) => a - b);
    console.log(`pass ${pass + 1}: p50 ${s[100]!.toFixed(1)} ms, p95 ${s[190]!.toFixed(1)} ms, Node CPU ${cpuMs(process.cpuUsage(cpu))} ms`);
  }
}
const lastCpu = cpuMs(process.cpuUsage(cpu));
await m.close();

const sorted = [...times].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
console.log(`queries ${queries.length}, pass ${passes}: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms, Node CPU ${lastCpu} ms`);
if (process.env.DUMP) (await import('node:fs')).writeFileSync(process.env.DUMP, JSON.stringify({ queries, times }));
console.log(`digest of the hit ids ${createHash('sha1').update(ids.join('\n')).digest('hex')}`);
for (const [ms, i] of times.map((t, i) => [t, i] as const).sort((a, b) => b[0] - a[0]).slice(Number(process.env.SKIP ?? 0), Number(process.env.SKIP ?? 0) + top)) {
  console.log(`\n#${i} ${ms.toFixed(1)} ms "${queries[i]}"`);
  for (const s of statements.filter((x) => x.query === i)) console.log(`  ${s.ms.toFixed(1).padStart(7)} ${s.text}`);
}
if (process.env.KIND) {
  const of = statements.filter((s) => s.text.startsWith(process.env.KIND!));
  console.log(`${process.env.KIND}: ${of.map((s) => `${s.query}:${s.ms.toFixed(1)}`).join(' ')}`);
}
const byKind = new Map<string, number[]>();
for (const s of statements) byKind.set(s.text.slice(0, 60), [...(byKind.get(s.text.slice(0, 60)) ?? []), s.ms]);
const total = (ms: number[]) => ms.reduce((a, b) => a + b, 0);
const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;
console.log('\nstatement time by kind (all queries): total ms, statements, median ms');
for (const [k, ms] of [...byKind].sort((a, b) => total(b[1]) - total(a[1])).slice(0, 14)) {
  console.log(`${total(ms).toFixed(0).padStart(7)} ${String(ms.length).padStart(5)} ${median(ms).toFixed(2).padStart(6)} ${k}`);
}
