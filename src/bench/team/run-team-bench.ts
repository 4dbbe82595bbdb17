/**
 * Team benchmark (issue 20.4): several real `tidepool serve --http` processes on ONE PostgreSQL database under mixed
 * load — ingest, keyed and unkeyed remember, recall — with `tidepool sleep --model none` nights run by another process
 * meanwhile. Every acknowledged write is counted and looked up in the database afterwards: "lost" is what a server
 * acknowledged and the database does not hold.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { percentile, roundTo } from '../percentile.js';
import { createScratchDatabase } from '../scratch-database.js';
import { createRng } from '../../script/seeded-rng.js';
import { syntheticEpisodes } from '../scale/synthetic-episodes.js';

/** Options of {@link runTeamBench}. */
export interface TeamOptions {
  /** A PostgreSQL server (postgres://…); the run creates a database of its own there and drops it after. */
  db: string;
  /** Servers started on that database; default 3. */
  servers?: number;
  /** How long the load runs; default 30 s. */
  seconds?: number;
  /** Requests in flight at once, spread over the servers (closed loop); default 12. */
  concurrency?: number;
  /** Turns ingested before the load starts, so recall has something to search; default 2,000. */
  seedTurns?: number;
  /** Seconds between the starts of two nights (a `tidepool sleep --model none` process); default 10. */
  nightEvery?: number;
  /** Connections in each server's pool (TIDEPOOL_PG_POOL_SIZE); default the servers' own (10). */
  poolSize?: number;
  /** The launcher (default: this clone's bin/tidepool.js). */
  bin?: string;
  onProgress?: (line: string) => void;
}

const OPS = ['recall', 'ingest', 'remember_keyed', 'remember'] as const;
type Op = (typeof OPS)[number];
/** Share of each operation in the load. */
const MIX: Record<Op, number> = { recall: 0.5, ingest: 0.3, remember_keyed: 0.1, remember: 0.1 };
/** Keys the keyed remembers write; few, so servers write the same key at once. */
const KEYS = 8;
const SPACE = 'team';

/** One operation's figures. */
export interface TeamOpRow {
  op: Op;
  requests: number;
  errors: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** What {@link runTeamBench} measured. */
export interface TeamReport {
  servers: number;
  seconds: number;
  concurrency: number;
  seedTurns: number;
  poolSize: number | null;
  requests: { total: number; perSecond: number };
  ops: TeamOpRow[];
  errors: { total: number; samples: string[] };
  /** Acknowledged writes (2xx) and how many of them the database does not hold afterwards. */
  writes: { acknowledged: number; lost: number; keys: number; keysWithOneLiveEntry: number; lostSamples: string[] };
  nights: { started: number; ok: number; failed: number; p50Ms: number; maxMs: number; samples: string[] };
}

interface Server {
  url: string;
  child: ChildProcess;
  stderr: string[];
}

const defaultBin = () => fileURLToPath(new URL('../../../bin/tidepool.js', import.meta.url));

function childEnv(o: TeamOptions): NodeJS.ProcessEnv {
  // A config file of the user's own must not change what is measured; the pool size, when given, goes by env.
  return {
    ...process.env,
    TIDEPOOL_CONFIG: '/nonexistent/tidepool-team-bench.json',
    ...(o.poolSize ? { TIDEPOOL_PG_POOL_SIZE: String(o.poolSize) } : {}),
  };
}

/** Starts `tidepool serve --http --port 0` on `db` and resolves with its URL once it listens. */
function startServer(bin: string, db: string, env: NodeJS.ProcessEnv): Promise<Server> {
  const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--db', db, '--space', SPACE], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  return new Promise<Server>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (d: Buffer) => {
      text += d.toString();
      stderr.push(d.toString());
      const found = /serving MCP at (http:\/\/[^\s]+)\/mcp/.exec(text);
      if (found) resolve({ url: found[1]!, child, stderr });
    });
    child.once('exit', (code) => reject(new Error(`tidepool serve exited with ${code}: ${text.slice(-500)}`)));
  });
}

async function stopServer(s: Server): Promise<void> {
  if (s.child.exitCode !== null) return;
  const exited = new Promise<void>((r) => s.child.once('exit', () => r()));
  s.child.kill('SIGTERM');
  const timer = setTimeout(() => s.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Runs `tidepool sleep --model none --force` on `db`; resolves with its exit code, time and the end of its output. */
function night(bin: string, db: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; ms: number; tail: string }> {
  const began = performance.now();
  const child = spawn(process.execPath, [bin, 'sleep', '--model', 'none', '--force', '--db', db, '--space', SPACE, '--json'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, ms: performance.now() - began, tail: out.slice(-300) })));
}

interface Sample {
  op: Op;
  ms: number;
  ok: boolean;
}

/** Starts the servers on a fresh database, drives them for `seconds`, then checks every acknowledged write. */
export async function runTeamBench(o: TeamOptions): Promise<TeamReport> {
  const serverCount = o.servers ?? 3;
  const seconds = o.seconds ?? 30;
  const concurrency = o.concurrency ?? 12;
  const seedTurns = o.seedTurns ?? 2000;
  const nightEvery = o.nightEvery ?? 10;
  const bin = o.bin ?? defaultBin();
  const env = childEnv(o);
  const scratch = await createScratchDatabase(o.db, 'team');
  const servers: Server[] = [];
  try {
    // Started together: they migrate the new database at the same moment (one waits for the other's lock).
    const started = await Promise.allSettled(Array.from({ length: serverCount }, () => startServer(bin, scratch.url, env)));
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    o.onProgress?.(`${serverCount} servers on ${scratch.url.replace(/\/\/[^@/]*@/, '//')}`);

    const post = async (server: Server, route: string, body: unknown) => {
      const res = await fetch(`${server.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const gen = syntheticEpisodes({ seed: 21, startAt: Date.now() - 2 * 86_400_000 });
    const ackedTurns: string[] = [];
    for (let done = 0; done < seedTurns; ) {
      const n = Math.min(500, seedTurns - done);
      const turns = Array.from({ length: n }, (_, i) => {
        const e = gen.next().value;
        return { role: e.role, content: e.text, session: e.sessionId, speaker: e.speaker, at: e.at, ref: `seed-${done + i}` };
      });
      const r = await post(servers[done % serverCount]!, '/v1/ingest', { turns });
      if (r.status !== 201) throw new Error(`seeding failed: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      ackedTurns.push(...turns.map((t) => t.ref));
      done += n;
    }
    o.onProgress?.(`seeded ${seedTurns} turns`);
    // Untimed warm-up: each server's first recalls load the segmenter and plan the first statements.
    for (const server of servers) {
      for (const q of ['deploy the report', '部署 报告', 'meeting notes today']) await fetch(`${server.url}/v1/recall?q=${encodeURIComponent(q)}`);
    }

    const rng = createRng(seconds * 1000 + concurrency);
    const live = syntheticEpisodes({ seed: 22 });
    const queries = syntheticEpisodes({ seed: 21, startAt: Date.now() - 2 * 86_400_000 });
    const samples: Sample[] = [];
    const errorSamples: string[] = [];
    const ackedNotes: string[] = [];
    const ackedKeyed = new Map<string, string[]>();
    let next = 0;
    const pickOp = (): Op => {
      let r = rng.next();
      for (const op of OPS) if ((r -= MIX[op]) < 0) return op;
      return 'recall';
    };
    const one = async (): Promise<void> => {
      const i = next++;
      const server = servers[i % serverCount]!;
      const op = pickOp();
      const began = performance.now();
      let ok = false;
      let detail = '';
      try {
        if (op === 'recall') {
          const words = queries.next().value.text.split(/\s+/).slice(0, 3).join(' ');
          const res = await fetch(`${server.url}/v1/recall?q=${encodeURIComponent(words)}&limit=10`);
          detail = (await res.text()).slice(0, 200);
          ok = res.status === 200;
          detail = `${res.status} ${detail}`;
        } else if (op === 'ingest') {
          const e = live.next().value;
          const ref = `load-${i}`;
          const r = await post(server, '/v1/ingest', { content: e.text, role: e.role, speaker: e.speaker, session: `team-${i % 50}`, ref });
          ok = r.status === 201;
          if (ok) ackedTurns.push(ref);
          detail = `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
        } else {
          const key = op === 'remember_keyed' ? `team.k${i % KEYS}` : undefined;
          const text = `team note ${i}: ${live.next().value.text}`;
          const r = await post(server, '/v1/remember', { text, ...(key ? { key } : {}) });
          ok = r.status === 201;
          if (ok && key) ackedKeyed.set(key, [...(ackedKeyed.get(key) ?? []), text]);
          else if (ok) ackedNotes.push(text);
          detail = `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
        }
      } catch (e) {
        detail = `threw ${e instanceof Error ? e.message : String(e)}`;
      }
      samples.push({ op, ms: performance.now() - began, ok });
      if (!ok && errorSamples.length < 10) errorSamples.push(`${op} via server ${i % serverCount}: ${detail}`);
    };

    const nightMs: number[] = [];
    const nightSamples: string[] = [];
    let nightsOk = 0;
    let nightsFailed = 0;
    const t0 = performance.now();
    const deadline = t0 + seconds * 1000;
    // Nights back to back from their own process, one every `nightEvery` seconds (never two at once).
    const nights = (async () => {
      for (let at = t0 + nightEvery * 1000; at < deadline; at += nightEvery * 1000) {
        const wait = at - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const r = await night(bin, scratch.url, env);
        nightMs.push(r.ms);
        if (r.code === 0) nightsOk++;
        else {
          nightsFailed++;
          if (nightSamples.length < 5) nightSamples.push(`exit ${r.code}: ${r.tail}`);
        }
      }
    })();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline) await one();
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;
    await nights;
    o.onProgress?.(`load done: ${samples.length} requests in ${roundTo(elapsed, 1)} s; checking writes`);

    const written = await checkWrites(scratch.url, ackedTurns, ackedNotes, ackedKeyed);
    const ms = (x: number) => (Number.isNaN(x) ? 0 : roundTo(x, 1));
    const ops = OPS.map((op): TeamOpRow => {
      const s = samples.filter((x) => x.op === op);
      const lat = s.map((x) => x.ms);
      return { op, requests: s.length, errors: s.filter((x) => !x.ok).length, perSecond: roundTo(s.length / elapsed, 1), p50Ms: ms(percentile(lat, 50)), p99Ms: ms(percentile(lat, 99)) };
    });
    const errors = samples.filter((x) => !x.ok).length;
    return {
      servers: serverCount, seconds: roundTo(elapsed, 1), concurrency, seedTurns, poolSize: o.poolSize ?? null,
      requests: { total: samples.length, perSecond: roundTo(samples.length / elapsed, 1) },
      ops,
      errors: { total: errors, samples: errorSamples },
      writes: { acknowledged: ackedTurns.length + ackedNotes.length + [...ackedKeyed.values()].reduce((n, v) => n + v.length, 0), ...written },
      nights: { started: nightMs.length, ok: nightsOk, failed: nightsFailed, p50Ms: ms(percentile(nightMs, 50)), maxMs: ms(Math.max(0, ...nightMs)), samples: nightSamples },
    };
  } finally {
    await Promise.all(servers.map(stopServer));
    await scratch.drop();
  }
}

/**
 * Looks every acknowledged write up in the database itself: turns by their ref, notes by their text (any status: a
 * night may supersede a note, never drop it), and each key's values; a key must have exactly one live entry.
 */
async function checkWrites(
  url: string,
  turns: readonly string[],
  notes: readonly string[],
  keyed: ReadonlyMap<string, readonly string[]>,
): Promise<{ lost: number; keys: number; keysWithOneLiveEntry: number; lostSamples: string[] }> {
  const { default: pg } = await import('pg');
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const lostSamples: string[] = [];
    const missing = async (sql: string, wanted: readonly string[], label: string): Promise<number> => {
      const found = new Set((await db.query<{ v: string }>(sql, [SPACE, wanted])).rows.map((r) => r.v));
      const gone = wanted.filter((w) => !found.has(w));
      for (const g of gone.slice(0, 5 - lostSamples.length)) lostSamples.push(`${label}: ${g.slice(0, 80)}`);
      return gone.length;
    };
    let lost = await missing('SELECT ref AS v FROM episodes WHERE space = $1 AND ref = ANY($2)', turns, 'turn');
    lost += await missing('SELECT content AS v FROM knowledge WHERE space = $1 AND content = ANY($2)', notes, 'note');
    let keysWithOneLiveEntry = 0;
    for (const [key, values] of keyed) {
      lost += await missing(`SELECT content AS v FROM knowledge WHERE space = $1 AND content = ANY($2)`, values, `key ${key}`);
      const live = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM knowledge WHERE space = $1 AND key = $2 AND status NOT IN ('superseded', 'forgotten')",
        [SPACE, key],
      );
      if (Number(live.rows[0]?.n) === 1) keysWithOneLiveEntry++;
    }
    return { lost, keys: keyed.size, keysWithOneLiveEntry, lostSamples };
  } finally {
    await db.end();
  }
}

/** The report as markdown. */
export function renderTeamMarkdown(r: TeamReport): string {
  const lines = [
    `## Team: ${r.servers} servers on one PostgreSQL database, ${r.seconds} s, ${r.concurrency} requests in flight, ${r.seedTurns} turns seeded${r.poolSize ? `, pool ${r.poolSize} per server` : ''}`,
    '',
    `- requests: ${r.requests.total}, ${r.requests.perSecond} req/s; errors: **${r.errors.total}**${r.errors.samples.length ? ` (first: ${r.errors.samples[0]})` : ''}`,
    `- acknowledged writes: ${r.writes.acknowledged}, lost: **${r.writes.lost}**${r.writes.lostSamples.length ? ` (${r.writes.lostSamples.join('; ')})` : ''}; keys with exactly one live entry: ${r.writes.keysWithOneLiveEntry} of ${r.writes.keys}`,
    `- nights (\`tidepool sleep --model none\`, another process): ${r.nights.started} started, ${r.nights.ok} ok, ${r.nights.failed} failed; p50 ${r.nights.p50Ms} ms, max ${r.nights.maxMs} ms${r.nights.samples.length ? `; ${r.nights.samples[0]}` : ''}`,
    '',
    '| operation | requests | req/s | p50 ms | p99 ms | errors |',
    '|---|---:|---:|---:|---:|---:|',
    ...r.ops.map((x) => `| ${x.op.replace('_', ' ')} | ${x.requests} | ${x.perSecond} | ${x.p50Ms} | ${x.p99Ms} | ${x.errors} |`),
  ];
  return lines.join('\n');
}
