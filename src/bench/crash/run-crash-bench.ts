/**
 * Crash bench (`tidepool bench crash --kills N`): rounds of real writer processes on one SQLite file — CLI
 * `remember` and `record`, `serve --http` under request load, `import`, nights with model `none` and with a mock
 * model, a journal `tend` — all running at once, each SIGKILLed at its own random moment. After every round the file
 * is checked (SQLite and FTS5 integrity, indexes in step, journal days) with every write acknowledged that round; at
 * the end every write acknowledged in the whole run is checked again.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockNightServer } from '../lifetime/mock-night-server.js';
import { roundTo } from '../percentile.js';
import { mulberry32 } from '../../script/seeded-rng.js';
import type { Ack } from './crash-acks.js';
import { checkAfterRound } from './crash-check.js';
import { httpLane } from './crash-http-lane.js';
import { cliRecordLane, cliRememberLane, importLane, nightLane, type LaneResult, type LaneRound } from './crash-lanes.js';
import { TendLane } from './crash-tend-lane.js';

/** Options of {@link runCrashBench}. */
export interface CrashBenchOptions {
  /**
   * Stop after this many SIGKILLs of running writers, once every lane has been killed at least once (at most
   * {@link EXTRA_ROUNDS} rounds more for that); default 50.
   */
  kills?: number;
  /** Length of a round, ms: each lane's round ends (its running process killed) between half of it and all of it. Default 12,000. */
  roundMs?: number;
  seed?: number;
  /** The launcher run (default: this clone's bin/tidepool.js). */
  bin?: string;
  onProgress?: (line: string) => void;
}

/** Per writer kind. */
export interface CrashLaneReport {
  lane: string;
  kills: number;
  exits: number;
  failures: number;
  busy: number;
}

/** What {@link runCrashBench} measured. */
export interface CrashBenchReport {
  seed: number;
  rounds: number;
  kills: number;
  /** Acknowledged writes by surface, and their total. */
  acknowledged: { total: number; cli: number; http: number; import: number; turns: number };
  tendsFinished: number;
  /** Acknowledged writes not found (by id and text) after a round or at the end: must be 0. */
  lost: number;
  /** Rounds whose integrity checks failed: must be 0. */
  integrityFailures: number;
  /** Writer exits that were neither 0 nor an expected refusal (a night finding another night running). */
  unexpectedExits: number;
  samples: string[];
  lanes: CrashLaneReport[];
  dbMb: number;
  wallS: number;
}

const LANES = ['cli remember', 'cli record', 'http', 'import', 'night none', 'night mock', 'journal tend'] as const;

/**
 * Rounds run past the kill target while a lane has no kill yet. A lane's process running at the round's end is
 * killed, but one that exits in the same instant ends on its own (only a SIGKILL that lands counts): a short run of
 * 14 kills is often a single round, where that left a lane untested.
 */
const EXTRA_ROUNDS = 5;

/** Runs kill rounds until `kills` writers were SIGKILLed and every lane once, checking after each round and at the end. */
export async function runCrashBench(o: CrashBenchOptions = {}): Promise<CrashBenchReport> {
  const target = o.kills ?? 50;
  const seed = o.seed ?? 1;
  const roundMs = o.roundMs ?? 12_000;
  const bin = o.bin ?? fileURLToPath(new URL('../../../bin/tidepool.js', import.meta.url));
  const rng = mulberry32(seed);
  const dir = mkdtempSync(join(tmpdir(), 'tidepool-crash-bench-'));
  const db = join(dir, 'memory.db');
  mkdirSync(join(dir, 'imports'));
  // The memory exists before any writer starts: a night on a path that holds no database is refused (`--db` must exist).
  execFileSync(process.execPath, [bin, 'init', '--db', db], { stdio: 'ignore' });
  const mock = await startMockNightServer();
  const mockEnv = { TIDEPOOL_OPENAI_BASE_URL: mock.url, TIDEPOOL_OPENAI_API_KEY: 'mock-key' };
  const tend = new TendLane(join(dir, 'journal'));
  const acks: Ack[] = [];
  const byLane = LANES.map((lane) => ({ lane, kills: 0, exits: 0, failures: 0, busy: 0 }));
  const samples: string[] = [];
  // A process's expected run until one has ended on its own (a CLI call on a loaded 2-core machine); an HTTP
  // server's life after it listens, which always ends by a kill, so it stays at this value.
  const paces = LANES.map((l) => ({ ms: l === 'http' ? 6_000 : 3_000 }));
  let day = 0;
  const nextDay = () => ++day;
  let kills = 0;
  let lost = 0;
  let integrityFailures = 0;
  let tendsFinished = 0;
  let round = 0;
  const t0 = performance.now();
  try {
    const untested = () => byLane.some((l) => l.kills === 0);
    for (let extra = 0; kills < target || (untested() && extra < EXTRA_ROUNDS); round++) {
      if (kills >= target) extra += 1;
      const mine: Ack[] = [];
      const results = await Promise.all(
        LANES.map((kind, lane): Promise<LaneResult> => {
          const r: LaneRound = { round, lane, windowMs: roundMs * (0.5 + rng() / 2), pace: paces[lane]!, rng, bin, db, dir: join(dir, 'imports'), acks: mine };
          if (kind === 'cli remember') return cliRememberLane(r);
          if (kind === 'cli record') return cliRecordLane(r);
          if (kind === 'http') return httpLane(r);
          if (kind === 'import') return importLane(r);
          if (kind === 'night none') return nightLane(r, nextDay, 'none');
          if (kind === 'night mock') return nightLane(r, nextDay, 'openai:mock', mockEnv);
          return tend.run(r);
        }),
      );
      results.forEach((x, i) => {
        const l = byLane[i]!;
        l.kills += x.kills;
        l.exits += x.exits;
        l.failures += x.failures.length;
        l.busy += x.busy;
        kills += x.kills;
        for (const f of x.failures) if (samples.length < 20) samples.push(`round ${round} ${LANES[i]}: ${f}`);
      });
      tendsFinished += tend.touched.filter((w) => w.finished).length;
      acks.push(...mine);
      const check = checkAfterRound(db, mine, tend.touched);
      if (check.integrity.length > 0) integrityFailures += 1;
      lost += check.lost.length;
      for (const p of [...check.integrity, ...check.lost]) if (samples.length < 20) samples.push(`round ${round}: ${p}`);
      o.onProgress?.(`round ${round}: ${kills} kills, ${acks.length} acknowledged, ${lost} lost, ${integrityFailures} integrity failures, ${Math.round((performance.now() - t0) / 1000)} s`);
    }
    // The whole run's acknowledgements once more: a later round (a night, a supersede) must not have lost one.
    const final = checkAfterRound(db, acks);
    lost += final.lost.length;
    if (final.integrity.length > 0) integrityFailures += 1;
    for (const p of [...final.integrity, ...final.lost]) if (samples.length < 20) samples.push(`final: ${p}`);
    const count = (via: string) => acks.filter((a) => a.via === via).length;
    return {
      seed, rounds: round, kills,
      acknowledged: { total: acks.length, cli: count('cli'), http: count('http'), import: count('import'), turns: acks.reduce((n, a) => n + (a.kind === 'turns' ? a.ids.length : a.kind === 'import' ? a.n : 1), 0) },
      tendsFinished, lost, integrityFailures,
      unexpectedExits: byLane.reduce((n, l) => n + l.failures, 0),
      samples, lanes: byLane, dbMb: roundTo(statSync(db).size / 1024 / 1024, 1), wallS: roundTo((performance.now() - t0) / 1000, 1),
    };
  } finally {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The report as markdown. */
export function renderCrashMarkdown(r: CrashBenchReport): string {
  const lanes = r.lanes.reduce<Map<string, CrashLaneReport>>((m, l) => {
    const x = m.get(l.lane) ?? { lane: l.lane, kills: 0, exits: 0, failures: 0, busy: 0 };
    m.set(l.lane, { lane: l.lane, kills: x.kills + l.kills, exits: x.exits + l.exits, failures: x.failures + l.failures, busy: x.busy + l.busy });
    return m;
  }, new Map());
  return [
    `Crash bench, seed ${r.seed}: **${r.kills} SIGKILLs** in ${r.rounds} rounds, ${r.wallS} s; database ${r.dbMb} MB at the end.`,
    '',
    '| kills | acknowledged writes (CLI / HTTP / import) | turns and facts in them | lost | integrity failures | unexpected exits | tends finished |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${r.kills} | ${r.acknowledged.total} (${r.acknowledged.cli} / ${r.acknowledged.http} / ${r.acknowledged.import}) | ${r.acknowledged.turns} | **${r.lost}** | **${r.integrityFailures}** | ${r.unexpectedExits} | ${r.tendsFinished} |`,
    '',
    '| writer | kills | ended on their own | unexpected exits | refused (night running) |',
    '|---|---:|---:|---:|---:|',
    ...[...lanes.values()].map((l) => `| ${l.lane} | ${l.kills} | ${l.exits} | ${l.failures} | ${l.busy} |`),
    ...(r.samples.length ? ['', 'First problems:', ...r.samples.map((s) => `- ${s}`)] : []),
  ].join('\n');
}
