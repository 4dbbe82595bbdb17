/** Start-up benchmark: medians of repeated whole-process runs of CLI commands, with bare node beside them. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile } from '../percentile.js';
import { createScratchDatabase } from '../scratch-database.js';

/** One measured command. */
export interface StartupRow {
  readonly name: string;
  readonly median_ms: number;
  readonly p90_ms: number;
  /** Median CPU time (user + system) of the child, which the machine's load disturbs less than wall time; null where unknown. */
  readonly cpu_median_ms: number | null;
  /** Median wall time over the bare `node` + better-sqlite3 baseline's. */
  readonly x_baseline: number;
}

/** The report. */
export interface StartupReport {
  readonly runs: number;
  readonly bin: string;
  readonly rows: readonly StartupRow[];
}

/** Options. */
export interface StartupBenchOptions {
  /** Timed runs per command (one untimed warm-up run precedes them). */
  readonly runs: number;
  /** The launcher measured (default: this clone's bin/tidepool.js run by this node). */
  readonly bin?: string;
  /**
   * A PostgreSQL server's URL: `recall` and the hook are also measured on a database of their own there (created for
   * the run, dropped after), beside node loading node-postgres alone.
   */
  readonly db?: string;
  readonly onProgress?: (line: string) => void;
}

const PROMPT = { prompt: 'Which port does the staging database use?', hook_event_name: 'UserPromptSubmit' };
const HOOK_INPUT = JSON.stringify({ session_id: 's1', ...PROMPT });
/** Hook input in a session of its own at each run (`kind` names the case in the session id). */
const inNewSession =
  (kind: string, fields: Record<string, string>) =>
  (run: number): string =>
    JSON.stringify({ session_id: `${kind}-${process.pid}-${Date.now()}-${run}`, ...fields });
/** A new session's start: the hook prints the session-start block (the memory among it). */
const SESSION_START = inNewSession('start', { hook_event_name: 'SessionStart', source: 'startup' });
/**
 * The prompt in a session of its own at each run, so that the hook injects the memory every time (in `s1` it is
 * injected once, and later runs show only that nothing is new): the path of a prompt that brings a memory back.
 */
const HOOK_INJECTS = inNewSession('inject', PROMPT);
/** A Chinese prompt that brings back the Chinese memory seeded for it, in a session of its own at each run. */
const HOOK_INJECTS_ZH = inNewSession('inject-zh', { prompt: '你还记得老王养的那只猫吗？', hook_event_name: 'UserPromptSubmit' });

/**
 * CPU time (user + system, ms) of this process's reaped children, from /proc/self/stat (Linux; 10 ms ticks), or
 * undefined elsewhere.
 */
function childrenCpuMs(): number | undefined {
  try {
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis start at field 3.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // cutime + cstime, at USER_HZ = 100
  } catch {
    return undefined;
  }
}

/** A command's stdin: the same text each run, or one made for the run. */
type Input = string | ((run: number) => string);

/** Runs `argv` `runs` times after a warm-up; returns wall and CPU times in ms. */
function time(argv: readonly string[], env: NodeJS.ProcessEnv, runs: number, input: Input = '', prints?: string): { wall: number[]; cpu: number[] } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const stdin = typeof input === 'function' ? input(i) : input;
    const cpuBefore = childrenCpuMs();
    const start = process.hrtime.bigint();
    const r = spawnSync(argv[0]!, argv.slice(1), { input: stdin, env, stdio: ['pipe', prints === undefined ? 'ignore' : 'pipe', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const cpuAfter = childrenCpuMs();
    if (r.status !== 0) throw new Error(`${argv.join(' ')} exited with ${r.status}: ${String(r.stderr).slice(0, 300)}`);
    if (prints !== undefined && !String(r.stdout).includes(prints)) throw new Error(`${argv.join(' ')} did not print ${JSON.stringify(prints)}`);
    if (i === 0) continue;
    wall.push(ms);
    if (cpuBefore !== undefined && cpuAfter !== undefined) cpu.push(cpuAfter - cpuBefore);
  }
  return { wall, cpu };
}

const round = (n: number, digits = 0): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** Writes the one memory every measured command reads, and any `more`, into the database of `env`. */
function seed(tp: readonly string[], env: NodeJS.ProcessEnv, more: readonly string[] = []): void {
  for (const args of [['init'], ...['The staging database moved to port 6543', ...more].map((m) => ['remember', m])]) {
    const r = spawnSync(tp[0]!, [...tp.slice(1), ...args], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`tidepool ${args[0]} failed: ${r.stderr}`);
  }
}

/**
 * Writes turns about the staging database into the database of `env` (one `record` of JSON lines): the prompt then
 * brings back a block of over 2 KB (3.2 KB), longer in bytes than the prefetch budget's 1,200 tokens and within it in tokens, the
 * block of a memory in use (a short one fits by its bytes alone).
 */
function seedMany(tp: readonly string[], env: NodeJS.ProcessEnv): void {
  const turns = Array.from({ length: 24 }, (_, i) =>
    JSON.stringify({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `The staging database moved to port 6543 in sprint ${i + 1}; the release notes say which service reads it and who checks the backups.`,
      session: `sprint-${Math.floor(i / 6)}`,
    }),
  ).join('\n');
  const r = spawnSync(tp[0]!, [...tp.slice(1), 'record'], { env, input: `${turns}\n`, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tidepool record failed: ${r.stderr}`);
}

/**
 * Measures bare node, node loading better-sqlite3, and `tidepool --version`, `recall` on a one-memory English
 * database and `hook user-prompt-submit`, each as whole processes; with `db`, also `recall` and the hook on a
 * PostgreSQL database holding the same memory.
 */
export async function runStartupBench(o: StartupBenchOptions): Promise<StartupReport> {
  const bin = o.bin ?? fileURLToPath(new URL('../../../bin/tidepool.js', import.meta.url));
  const tp = bin.endsWith('.js') ? [process.execPath, bin] : [bin];
  const dir = mkdtempSync(join(tmpdir(), 'tidepool-startup-'));
  const env = { ...process.env, TIDEPOOL_DB: join(dir, 'm.db'), TIDEPOOL_CONFIG: join(dir, 'none.json'), HOME: dir };
  const scratch = o.db ? await createScratchDatabase(o.db, 'startup') : undefined;
  try {
    seed(tp, env);
    const longEnv = { ...env, TIDEPOOL_DB: join(dir, 'long.db') };
    seed(tp, longEnv);
    seedMany(tp, longEnv);
    const zhEnv = { ...env, TIDEPOOL_DB: join(dir, 'zh.db') };
    // A Chinese memory, for a prompt hook that cuts Chinese text (jieba).
    seed(tp, zhEnv, ['我上周在北京大学附近的咖啡馆见了老王，他养了一只虎斑猫']);
    const req = createRequire(import.meta.url);
    // A case: its name, command, stdin, environment, and what it must print at every run (a hook that injects).
    const cases: Array<[string, string[], Input?, NodeJS.ProcessEnv?, string?]> = [
      ['node -e 0', [process.execPath, '-e', '0']],
      ["node + require('better-sqlite3') (baseline)", [process.execPath, '-e', `require(${JSON.stringify(req.resolve('better-sqlite3'))})`]],
      ['tidepool --version', [...tp, '--version']],
      ['tidepool recall "staging port"', [...tp, 'recall', 'staging port']],
      ['tidepool hook user-prompt-submit', [...tp, 'hook', 'user-prompt-submit'], HOOK_INPUT],
      ['tidepool hook user-prompt-submit (injects)', [...tp, 'hook', 'user-prompt-submit'], HOOK_INJECTS, undefined, 'port 6543'],
      ['tidepool hook session-start', [...tp, 'hook', 'session-start'], SESSION_START, undefined, 'port 6543'],
      ['tidepool hook user-prompt-submit (injects ~2 KB)', [...tp, 'hook', 'user-prompt-submit'], HOOK_INJECTS, longEnv, 'sprint'],
      ['tidepool hook user-prompt-submit (Chinese, injects)', [...tp, 'hook', 'user-prompt-submit'], HOOK_INJECTS_ZH, zhEnv, '虎斑猫'],
    ];
    if (scratch) {
      const pgEnv = { ...env, TIDEPOOL_DB: scratch.url };
      seed(tp, pgEnv);
      cases.push(
        ["node + require('pg')", [process.execPath, '-e', `require(${JSON.stringify(req.resolve('pg'))})`]],
        ['tidepool recall "staging port" (PostgreSQL)', [...tp, 'recall', 'staging port'], undefined, pgEnv],
        ['tidepool hook user-prompt-submit (PostgreSQL)', [...tp, 'hook', 'user-prompt-submit'], HOOK_INPUT, pgEnv],
        ['tidepool hook user-prompt-submit (PostgreSQL, injects)', [...tp, 'hook', 'user-prompt-submit'], HOOK_INJECTS, pgEnv, 'port 6543'],
      );
    }
    const measured = cases.map(([name, argv, input, caseEnv, prints]) => {
      o.onProgress?.(`startup: ${name}`);
      return { name, ...time(argv, caseEnv ?? env, o.runs, input, prints) };
    });
    const base = percentile(measured[1]!.wall, 50);
    const rows = measured.map((m) => ({
      name: m.name,
      median_ms: round(percentile(m.wall, 50)),
      p90_ms: round(percentile(m.wall, 90)),
      cpu_median_ms: m.cpu.length ? round(percentile(m.cpu, 50)) : null,
      x_baseline: round(percentile(m.wall, 50) / base, 2),
    }));
    return { runs: o.runs, bin, rows };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

/** The report as a markdown table. */
export function renderStartupMarkdown(r: StartupReport): string {
  const lines = [
    `Whole-process start-up, median of ${r.runs} runs after one warm-up (${r.bin}):`,
    '',
    '| command | median wall ms | p90 wall ms | median CPU ms | × baseline (wall) |',
    '|---|---:|---:|---:|---:|',
    ...r.rows.map((x) => `| ${x.name} | ${x.median_ms} | ${x.p90_ms} | ${x.cpu_median_ms ?? '–'} | ${x.x_baseline} |`),
  ];
  return lines.join('\n');
}
