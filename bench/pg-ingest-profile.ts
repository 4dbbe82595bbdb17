/**
 * Where batched PostgreSQL ingest spends its time (issue 20): `record` of `bench scale`'s synthetic turns in batches
 * into a scratch database, with Node's CPU (`process.cpuUsage`), the PostgreSQL backends' CPU (`/proc/<pid>/stat`,
 * the server must run on this machine) and each statement's wall time, per 1,000 turns. Wall times on a shared
 * machine follow the load; the CPU figures are what compare across runs.
 * Run: `npx tsx bench/pg-ingest-profile.ts <postgres url | sqlite:> [turns=100000] [batch=1000]`; prints one JSON line
 * (KEEP=1 keeps the scratch database and prints its URL, or the SQLite file's path; STATEMENTS=0 leaves the statements
 * untimed, for the CPU figures without the timer's own cost).
 * Not part of the test suite.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openMemory } from '../src/boot/open-memory.js';
import { createScratchDatabase } from '../src/bench/scratch-database.js';
import { syntheticEpisodes } from '../src/bench/scale/synthetic-episodes.js';
import { timePgStatements } from './pg-statement-timer.js';

const url = process.argv[2];
if (!url) throw new Error('usage: pg-ingest-profile.ts <postgres url> [turns] [batch]');
const turns = Number(process.argv[3] ?? 100_000);
const batch = Number(process.argv[4] ?? 1000);

// Statement wall times by their first words (the pool's statements after each commit included: the GIN merge, the
// statistics' compaction).
const byStatement = new Map<string, { n: number; ms: number }>();
if (process.env.STATEMENTS !== '0') {
  timePgStatements((text) => (ms) => {
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 48);
    const s = byStatement.get(key) ?? { n: 0, ms: 0 };
    s.n++;
    s.ms += ms;
    byStatement.set(key, s);
  });
}

// utime + stime, in clock ticks (100/s), and minor page faults (each ~11-14 µs on the 2-core VM of issue 20).
const ticks = (pid: number): { cpu: number; faults: number } => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { cpu: Number(f[11]) + Number(f[12]), faults: Number(f[7]) };
};

// `sqlite:` measures the same record path on a SQLite file in a temp dir, for Node's share on the embedded engine.
const onSqlite = url === 'sqlite:';
const sqliteDir = onSqlite ? mkdtempSync(join(tmpdir(), 'tidepool-profile-')) : '';
const db = onSqlite
  ? { url: '', drop: async () => rmSync(sqliteDir, { recursive: true, force: true }), sizeBytes: async () => 0 }
  : await createScratchDatabase(url, 'profile');
const name = onSqlite ? '' : new URL(db.url).pathname.slice(1);
const admin = new pg.Client({ connectionString: onSqlite ? undefined : url });
if (!onSqlite) await admin.connect();
const backendTicks = async (): Promise<Map<number, { cpu: number; faults: number }>> => {
  if (onSqlite) return new Map();
  const r = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]);
  const m = new Map<number, { cpu: number; faults: number }>();
  for (const { pid } of r.rows) {
    try {
      m.set(pid, ticks(pid));
    } catch {
      // a backend that ended between the two reads
    }
  }
  return m;
};

try {
  const m = await openMemory({ ...(onSqlite ? { path: join(sqliteDir, 'memory.db') } : { url: db.url }), space: 'scale', embedder: 'none', warn: () => {} });
  const stream = syntheticEpisodes({ seed: 1 });
  // Warm-up batch (connections opened, statements planned once), not counted.
  const turn = () => {
    const i = stream.next().value;
    return { role: i.role, content: i.text, speaker: i.speaker, session: i.sessionId, at: i.at, ref: i.id };
  };
  await m.record({ turns: Array.from({ length: batch }, turn) });
  byStatement.clear();
  const pg0 = await backendTicks();
  const cpu0 = process.cpuUsage();
  const faults0 = process.resourceUsage().minorPageFault;
  const t0 = performance.now();
  for (let done = 0; done < turns; done += batch) await m.record({ turns: Array.from({ length: Math.min(batch, turns - done) }, turn) });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const nodeFaults = process.resourceUsage().minorPageFault - faults0;
  const pg1 = await backendTicks();
  let pgTicks = 0;
  let pgFaults = 0;
  for (const [pid, t] of pg1) {
    pgTicks += t.cpu - (pg0.get(pid)?.cpu ?? 0);
    pgFaults += t.faults - (pg0.get(pid)?.faults ?? 0);
  }
  const per1k = (ms: number) => Math.round((ms / turns) * 1000 * 10) / 10;
  console.log(
    JSON.stringify({
      turns,
      batch,
      per_s: Math.round(turns / (wallMs / 1000)),
      wall_ms_per_1k: per1k(wallMs),
      node_cpu_ms_per_1k: per1k((cpu.user + cpu.system) / 1000),
      pg_cpu_ms_per_1k: per1k(pgTicks * 10),
      node_faults_per_1k: per1k(nodeFaults),
      pg_faults_per_1k: per1k(pgFaults),
      pg_cpu_by_backend: [...pg1].map(([pid, t]) => per1k((t.cpu - (pg0.get(pid)?.cpu ?? 0)) * 10)).filter((x) => x > 0),
      statements_ms_per_1k: Object.fromEntries([...byStatement].sort((a, b) => b[1].ms - a[1].ms).map(([k, s]) => [k, { n: s.n, ms: per1k(s.ms) }])),
    }),
  );
  await m.close();
} finally {
  if (!onSqlite) await admin.end();
  if (!process.env.KEEP) await db.drop();
  else {
    console.error(onSqlite ? join(sqliteDir, 'memory.db') : db.url);
    process.exit(0);
  }
}
