/** Test helper: runs the built `tidepool` binary as a user would, capturing stdout, stderr and the exit code. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Absolute path of the executable. */
export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'tidepool.js');

/** Result of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Spawns `node bin/tidepool.js ...args`, optionally feeding stdin. */
export function runCli(args: readonly string[], opts: { stdin?: string; env?: Record<string, string>; cwd?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, TIDEPOOL_CONFIG: '/nonexistent/config.json', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.stdin ?? '');
  });
}
