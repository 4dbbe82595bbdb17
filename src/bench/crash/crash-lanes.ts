/**
 * The crash bench's process lanes (the HTTP lane is in crash-http-lane.ts, the journal lane in crash-tend-lane.ts):
 * each runs one kind of real writer process in a loop — CLI `remember`, `record`, `import`, a night — and SIGKILLs
 * some of them at random moments (see {@link laneLoop}). Acknowledged writes (exit 0 with their ids) go to `acks`.
 */
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
export const KEYS = 5;

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
export function batch(tag: string, n: number): Array<Record<string, unknown>> {
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
