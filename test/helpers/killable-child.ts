/** Test helper: a child process whose complete stdout lines can be awaited, and that can be SIGKILLed at any moment. */
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
  /** Sends SIGKILL (if still running) and resolves when the process is gone and its pipes are drained. */
  kill(): Promise<ChildEnd>;
  /** Resolves when the process has ended on its own or by a kill. */
  ended: Promise<ChildEnd>;
}

/** Spawns `node ...args` with piped stdout and stderr. */
export function spawnChild(args: readonly string[], env: Record<string, string> = {}): KillableChild {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, TIDEPOOL_CONFIG: '/nonexistent/config.json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stdout = '';
  let stderr = '';
  let partial = '';
  const waiters: Array<{ match: (l: string) => boolean; resolve: (l: string) => void }> = [];
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    const parts = (partial + d.toString()).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const w of waiters.splice(0)) {
        if (w.match(line)) w.resolve(line);
        else waiters.push(w);
      }
    }
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const ended = new Promise<ChildEnd>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, lines, stdout, stderr }));
  });
  return {
    pid: child.pid ?? -1,
    lines,
    waitForLine(match, timeoutMs = 60_000) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching line within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        waiters.push({
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
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return ended;
    },
    ended,
  };
}

/** Resolves after `ms` milliseconds. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
