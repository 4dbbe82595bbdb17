/** Builds the `tidepool` program from the command registrars and runs it, translating errors in one place. */
import { Command, CommanderError } from 'commander';
import { isTidepoolError, type TidepoolErrorCode } from '../../core/errors.js';
import type { CliDeps } from './cli-deps.js';
import { registerAdminCommands } from './admin-commands.js';
import { registerDemoCommand } from './demo-command.js';
import { registerMemoryCommands } from './memory-commands.js';
import { registerReadCommands } from './read-commands.js';

/** Registers a group of commands; later surfaces (serve, journal, sleep…) add their own. */
export type CommandRegistrar = (program: Command, deps: CliDeps) => void;

/** The core command groups. */
export const CORE_REGISTRARS: readonly CommandRegistrar[] = [
  registerMemoryCommands,
  registerReadCommands,
  registerAdminCommands,
  registerDemoCommand,
];

/** Exit code per error code: scripts can tell bad input from a missing item from a refused secret. */
const EXIT: Partial<Record<TidepoolErrorCode, number>> = {
  invalid_input: 2, not_found: 3, secret_refused: 4, conflict: 5, unauthorized: 6, forbidden: 6, unavailable: 7, locked: 8,
};

/** Builds the program. */
export function buildProgram(deps: CliDeps, registrars: readonly CommandRegistrar[]): Command {
  const program = new Command('tidepool')
    .description('Tidepool: long-term memory for AI agents')
    .version(deps.version)
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => deps.stdout.write(s), writeErr: (s) => deps.stderr.write(s) });
  for (const r of registrars) r(program, deps);
  return program;
}

/** Runs argv; returns the exit code (never throws). */
export async function runCli(argv: readonly string[], deps: CliDeps, registrars: readonly CommandRegistrar[]): Promise<number> {
  const program = buildProgram(deps, registrars);
  const debug = argv.includes('--debug');
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (isTidepoolError(e)) {
      deps.stderr.write(`tidepool: ${e.message}\n`);
      if (debug && e.stack) deps.stderr.write(`${e.stack}\n`);
      return EXIT[e.code] ?? 1;
    }
    deps.stderr.write(`tidepool: ${(e as Error)?.message ?? String(e)}\n`);
    if (debug && e instanceof Error && e.stack) deps.stderr.write(`${e.stack}\n`);
    return 1;
  }
}
