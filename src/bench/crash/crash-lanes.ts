/**
 * The crash bench's writers. A lane runs one kind of real writer process in a loop — CLI `remember` and `record`,
 * `serve --http` under request load, `import`, a night, a journal `tend` — until its kill moment, then SIGKILLs the
 * process running at that moment. Acknowledged writes (exit 0 with their ids, HTTP 2xx) go to `acks`.
 */
import { request } from 'node:http';
import type { Ack } from './crash-acks.js';
import { factText, importFile, turnText, writeTag } from './crash-workload.js';
import { pause, spawnKillable, type ChildEnd, type KillableChild } from './killable-process.js';

/** What a lane needs for one round. */
export interface LaneRound {
  round: number;
  /** The lane's number, part of every tag it writes. */
  lane: number;
  /** When the round ends for this lane (the process running then is killed), in ms from the round's start. */
  windowMs: number;
  /** The lane's pace across rounds: how long one of its processes takes to end on its own, ms (updated here). */
  pace: { ms: number };
  rng: () => number;
  bin: string;
  db: string;
  /** A scratch folder for import files. */
  dir: string;
  acks: Ack[];
}

/** What a lane did in one round. */
export interface LaneResult {
  /** Processes that were still running when SIGKILLed. */
  kills: number;
  /** Processes that ended on their own. */
  exits: number;
  /** Exits other than 0 that are not an expected refusal; each with its stderr. */
  failures: string[];
  /** Expected refusals: a night that found another night running (exit 8). */
  busy: number;
}

/** One process of a lane: its arguments (before `--db … --json`), stdin, and what its JSON answer acknowledges. */
export interface LaneCall {
  args: string[];
  stdin?: string;
  env?: Record<string, string>;
  /** Exit codes that are an expected refusal, not a failure. */
  busyCodes?: number[];
  onOk(json: unknown): void;
}

/** Half of a lane's processes are killed at a random moment of their expected run, the rest run to their end. */
const KILL_SHARE = 0.5;

/** Ends `child` at `deadline` (performance.now()) unless it ended before; says whether it was killed running. */
async function untilDeadline(child: KillableChild, deadline: number): Promise<{ end: ChildEnd; killed: boolean }> {
  const early = await Promise.race([child.ended, pause(Math.max(0, deadline - performance.now())).then(() => undefined)]);
  if (early) return { end: early, killed: false };
  const end = await child.kill();
  return { end, killed: end.signal === 'SIGKILL' };
}

/**
 * Runs `make(call)` processes one after another until the round's end, killing the one running then. Each process
 * is also, with probability {@link KILL_SHARE}, killed at a moment drawn over 1.2 × the lane's pace, so kills land
 * in start-up, opening the file, the write and the exit alike; the others acknowledge writes.
 */
export async function laneLoop(r: LaneRound, make: (call: number) => LaneCall): Promise<LaneResult> {
  const out: LaneResult = { kills: 0, exits: 0, failures: [], busy: 0 };
  const roundEnd = performance.now() + r.windowMs;
  for (let call = 0; ; call++) {
    const c = make(call);
    const started = performance.now();
    const killAt = r.rng() < KILL_SHARE ? Math.min(roundEnd, started + r.rng() * 1.2 * r.pace.ms) : roundEnd;
    const child = spawnKillable([r.bin, ...c.args, '--db', r.db, '--json'], { ...(c.stdin === undefined ? {} : { stdin: c.stdin }), ...(c.env ? { env: c.env } : {}) });
    const { end, killed } = await untilDeadline(child, killAt);
    if (killed) out.kills += 1;
    else {
      out.exits += 1;
      r.pace.ms = 0.8 * r.pace.ms + 0.2 * (performance.now() - started);
      if (end.code === 0) c.onOk(JSON.parse(end.stdout));
      else if (end.code !== null && c.busyCodes?.includes(end.code)) out.busy += 1;
      else out.failures.push(`${c.args.slice(0, 2).join(' ')} exit ${end.code}: ${end.stderr.trim().slice(0, 300)}`);
    }
    if (performance.now() >= roundEnd) return out;
  }
}

/** Keys shared by every lane and round, so kills land inside supersedes (retire, insert, link). */
const KEYS = 5;

/** CLI `remember`, every other call keyed. */
export function cliRememberLane(r: LaneRound): Promise<LaneResult> {
  return laneLoop(r, (call) => {
    const tag = writeTag(r.round, r.lane, call);
    const key = call % 2 === 0 ? ['--key', `heron-${Math.floor(r.rng() * KEYS)}`] : [];
    return {
      args: ['remember', factText(tag), ...key],
      onOk: (j) => {
        const a = j as { id: string; episode_id?: string; episodeId?: string };
        const ep = a.episode_id ?? a.episodeId;
        r.acks.push({ kind: 'fact', via: 'cli', tag, id: a.id, ...(ep ? { episodeId: ep } : {}) });
      },
    };
  });
}

/** A batch of 2-6 turns of one session, one of them a tool result. */
function batch(tag: string, n: number): Array<Record<string, unknown>> {
  return Array.from({ length: n }, (_, j) =>
    j === n - 1 ? { role: 'tool', tool: 'run_tests', ok: j % 2 === 0, content: turnText(tag, j), session: tag } : { role: j % 2 === 0 ? 'user' : 'assistant', content: turnText(tag, j), session: tag },
  );
}

/** CLI `record` of a JSONL batch on stdin. */
export function cliRecordLane(r: LaneRound): Promise<LaneResult> {
  return laneLoop(r, (call) => {
    const tag = writeTag(r.round, r.lane, call);
    const turns = batch(tag, 2 + Math.floor(r.rng() * 5));
    return {
      args: ['record'],
      stdin: `${turns.map((t) => JSON.stringify(t)).join('\n')}\n`,
      onOk: (j) => r.acks.push({ kind: 'turns', via: 'cli', tag, ids: (j as { ids: string[] }).ids }),
    };
  });
}

/** `tidepool import` of a 20-60-turn transcript file. */
export function importLane(r: LaneRound): Promise<LaneResult> {
  return laneLoop(r, (call) => {
    const tag = writeTag(r.round, r.lane, call);
    const n = 20 + Math.floor(r.rng() * 41);
    const file = importFile(r.dir, tag, n);
    return {
      args: ['import', file, '--format', 'openai-jsonl'],
      onOk: (j) => {
        const imported = (j as { imported: number }).imported;
        r.acks.push({ kind: 'import', via: 'import', tag, n: imported });
      },
    };
  });
}

/** Exit code of a night that found another night of the space running (src/surfaces/cli/sleep-commands.ts). */
const NIGHT_BUSY = 8;
const DAY = 86_400_000;

/**
 * Nights (`sleep --model none`, or a model behind `env`'s OpenAI-compatible base URL), each a day later than the
 * last, so each has the day's writes to consolidate. `nextDay` is shared by the night lanes.
 */
export function nightLane(r: LaneRound, nextDay: () => number, model: string, env?: Record<string, string>): Promise<LaneResult> {
  return laneLoop(r, () => ({
    args: ['sleep', '--model', model, '--force', '--now', new Date(Date.now() + nextDay() * DAY).toISOString()],
    ...(env ? { env } : {}),
    busyCodes: [NIGHT_BUSY],
    onOk: () => undefined,
  }));
}

/** POSTs `body` to `url` with node:http (no browser headers, as a local program sends); status and parsed JSON. */
function post(url: string, path: string, body: string, type = 'application/json'): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', headers: { 'content-type': type, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) });
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The requests one HTTP client sends in turn: ingest batches, remembers (some keyed), `/v1/import` lines. */
async function httpWrite(r: LaneRound, url: string, next: () => number, out: LaneResult): Promise<void> {
  const call = next();
  const tag = writeTag(r.round, r.lane, call);
  const pick = call % 4;
  const fail = (route: string, a: { status: number; json: unknown }) => out.failures.push(`POST ${route} ${a.status}: ${JSON.stringify(a.json).slice(0, 200)}`);
  if (pick <= 1) {
    const a = await post(url, '/v1/ingest', JSON.stringify({ turns: batch(tag, 2 + Math.floor(r.rng() * 5)) }));
    if (a.status === 201) r.acks.push({ kind: 'turns', via: 'http', tag, ids: (a.json as { ids: string[] }).ids });
    else fail('/v1/ingest', a);
  } else if (pick === 2) {
    const key = r.rng() < 0.3 ? { key: `heron-${Math.floor(r.rng() * KEYS)}` } : {};
    const a = await post(url, '/v1/remember', JSON.stringify({ text: factText(tag), ...key }));
    const j = a.json as { id: string; episode_id?: string; episodeId?: string };
    const ep = j.episode_id ?? j.episodeId;
    if (a.status === 201) r.acks.push({ kind: 'fact', via: 'http', tag, id: j.id, ...(ep ? { episodeId: ep } : {}) });
    else fail('/v1/remember', a);
  } else {
    const tags = [tag, writeTag(r.round, r.lane, next()), writeTag(r.round, r.lane, next())];
    const a = await post(url, '/v1/import', tags.map((t) => JSON.stringify({ text: factText(t) })).join('\n'), 'application/x-ndjson');
    if (a.status !== 201) return void fail('/v1/import', a);
    const results = (a.json as { results: Array<{ id: string; episode_id?: string; episodeId?: string }> }).results;
    results.forEach((x, i) => {
      const ep = x.episode_id ?? x.episodeId;
      r.acks.push({ kind: 'fact', via: 'http', tag: tags[i]!, id: x.id, ...(ep ? { episodeId: ep } : {}) });
    });
  }
}

/**
 * `serve --http` on a free port, restarted until the round's end, with `clients` request loops while it runs. Each
 * server is killed at a moment drawn over 1.2 × the lane's pace (here: a server's life under load) from when it
 * listens; every fifth is killed at a moment from its spawn instead (so it lands in start-up and migration). A
 * request cut by the kill is not acknowledged.
 */
export async function httpLane(r: LaneRound, clients = 4): Promise<LaneResult> {
  const out: LaneResult = { kills: 0, exits: 0, failures: [], busy: 0 };
  const roundEnd = performance.now() + r.windowMs;
  let call = 0;
  const next = () => call++;
  for (let life = 0; performance.now() < roundEnd; life++) {
    const spawned = performance.now();
    const server = spawnKillable([r.bin, 'serve', '--http', '--port', '0', '--db', r.db]);
    let url: string | undefined;
    if (life % 5 !== 4) {
      const listening = server.waitForStderr((l) => l.includes('serving MCP at'), Math.max(1, roundEnd - spawned)).catch(() => undefined);
      const line = await listening;
      url = line ? /(http:\/\/127\.0\.0\.1:\d+)\/mcp/u.exec(line)?.[1] : undefined;
    }
    const killAt = Math.min(roundEnd, (url ? performance.now() : spawned) + r.rng() * 1.2 * r.pace.ms);
    const loop = async () => {
      while (url && performance.now() < killAt && server.running()) {
        try {
          await httpWrite(r, url, next, out);
        } catch {
          // The connection was cut by the kill: the write was never acknowledged.
          if (server.running() && performance.now() < killAt) out.failures.push('a request failed while the server ran');
        }
      }
    };
    const load = Promise.all(Array.from({ length: clients }, loop));
    await Promise.race([server.ended, pause(Math.max(0, killAt - performance.now()))]);
    const end = await server.kill();
    await load;
    if (end.signal === 'SIGKILL') out.kills += 1;
    else {
      out.exits += 1;
      out.failures.push(`serve exited on its own (code ${end.code}): ${end.stderr.trim().slice(0, 300)}`);
    }
  }
  return out;
}
