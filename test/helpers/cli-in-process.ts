/** Test helper: runs the CLI program in this process (its own `runCli` entry) against a given database and directory. */
import { PassThrough, Readable } from 'node:stream';
import { openMemory } from '../../src/boot/open-memory.js';
import type { CliDeps, CommonOptions } from '../../src/surfaces/cli/cli-deps.js';
import { registerImportCommand } from '../../src/surfaces/cli/import-command.js';
import { registerInjectCommands } from '../../src/surfaces/cli/inject-commands.js';
import { registerJournalCommand } from '../../src/surfaces/cli/journal-command.js';
import { CORE_REGISTRARS, runCli } from '../../src/surfaces/cli/run-cli.js';
import { registerSleepCommands } from '../../src/surfaces/cli/sleep-commands.js';
import { within } from './hostile.js';
import type { CliRun } from './run-cli.js';

/** A writable that keeps what it was given. */
function sink(): NodeJS.WritableStream & { text(): string } {
  const chunks: string[] = [];
  const s = new PassThrough();
  s.on('data', (c: Buffer) => chunks.push(c.toString()));
  return Object.assign(s, { text: () => chunks.join('') });
}

/**
 * Runs `argv` with the core, import, journal, context and sleep commands; `cwd` is what the commands see as the current
 * directory (relative paths still resolve from `process.cwd()`, so callers chdir there too).
 */
export async function runInProcess(argv: readonly string[], o: { db: string; cwd: string; stdin?: string; timeoutMs?: number }): Promise<CliRun> {
  const stdout = sink();
  const stderr = sink();
  const deps: CliDeps = {
    open: (c: CommonOptions) => openMemory({ path: o.db, space: c.space, embedder: 'none', warn: (m) => stderr.write(`tidepool: ${m}\n`) }),
    stdout,
    stderr,
    stdin: Readable.from(o.stdin ? [o.stdin] : []),
    version: 'test',
    env: { defaultDb: o.db, cwd: o.cwd },
  };
  // runCli reports process.exitCode when a command set it (lint, import): start each run from a clean slate.
  const saved = process.exitCode;
  process.exitCode = undefined;
  try {
    const registrars = [...CORE_REGISTRARS, registerImportCommand, registerJournalCommand, registerInjectCommands, registerSleepCommands];
    const code = await within(o.timeoutMs ?? 30_000, `tidepool ${argv.join(' ').slice(0, 200)}`, runCli(argv, deps, registrars));
    await new Promise((r) => setImmediate(r));
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    process.exitCode = saved;
  }
}
