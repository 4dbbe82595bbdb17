/** A child process whose complete stdout lines can be awaited and that can be SIGKILLed at any moment (crash bench and crash tests). */
import { spawn } from 'node:child_process';

/** How a child ended, with every complete line it printed (a line cut by the kill is not one). */
export interface ChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: string[];
  stdout: string;
  stderr: string;
}

/** A running child. */
export interface KillableChild {
  pid: number;
  /** Complete stdout lines so far. */
  lines: string[];
  /** Resolves with the first complete line matching `match` (already printed or still to come). */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Resolves with the first complete stderr line matching `match`; rejects when the child ends first. */
  waitForStderr(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Sends SIGKILL (if still running) and resolves when the process is gone and its pipes are drained. */
  kill(): Promise<ChildEnd>;
  /** Whether the process is still running. */
  running(): boolean;
  /** Resolves when the process has ended on its own or by a kill. */
  ended: Promise<ChildEnd>;
}

/** Options of {@link spawnKillable}. */
export interface SpawnOptions {
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** Written to the child's stdin, which is then closed; without it stdin is ignored. */
  stdin?: string;
  cwd?: string;
}

type Waiter = { match: (l: string) => boolean; resolve: (l: string) => void };

/** Splits a stream into complete lines, calling `onLine` for each and waking the matching waiters. */
function lineSplitter(lines: string[], waiters: Waiter[]): (d: Buffer) => void {
  let partial = '';
  return (d) => {
    const parts = (partial + d.toString()).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const w of waiters.splice(0)) {
        if (w.match(line)) w.resolve(line);
        else waiters.push(w);
      }
    }
  };
}

/** Spawns `node ...args` with piped stdout and stderr (no user config file: `TIDEPOOL_CONFIG` points nowhere). */
export function spawnKillable(args: readonly string[], o: SpawnOptions = {}): KillableChild {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, TIDEPOOL_CONFIG: '/nonexistent/config.json', ...o.env },
    stdio: [o.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    ...(o.cwd ? { cwd: o.cwd } : {}),
  });
  const lines: string[] = [];
  const errLines: string[] = [];
  const waiters: Waiter[] = [];
  const errWaiters: Waiter[] = [];
  let stdout = '';
  let stderr = '';
  const onOut = lineSplitter(lines, waiters);
  const onErr = lineSplitter(errLines, errWaiters);
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
    onOut(d);
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    onErr(d);
  });
  // A child killed before it read its stdin makes the pipe fail with EPIPE: that is the kill, not an error.
  child.stdin?.on('error', () => undefined);
  if (o.stdin !== undefined) child.stdin!.end(o.stdin);
  const ended = new Promise<ChildEnd>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, lines, stdout, stderr }));
  });
  const waitIn = (seen: string[], list: Waiter[]) => (match: (l: string) => boolean, timeoutMs = 60_000) => {
    const hit = seen.find(match);
    if (hit !== undefined) return Promise.resolve(hit);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching line within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
      list.push({
        match,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
      });
      void ended.then((e) => {
        clearTimeout(timer);
        reject(new Error(`the child ended (code ${e.code}, ${e.signal}) before a matching line; stderr: ${e.stderr}`));
      });
    });
  };
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    pid: child.pid ?? -1,
    lines,
    waitForLine: waitIn(lines, waiters),
    waitForStderr: waitIn(errLines, errWaiters),
    kill() {
      if (running()) child.kill('SIGKILL');
      return ended;
    },
    running,
    ended,
  };
}

/** Resolves after `ms` milliseconds. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
