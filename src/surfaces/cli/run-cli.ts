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

// What an option can look like: `-k`, `-abc`, `-p5`, `--key`, `--key=value with spaces`, `--`. Anything else that
// starts with a dash (`-----BEGIN…`, `- buy milk`, `-5 degrees`) can only be text.
const OPTION_SHAPED = /^(?:--?|--?[A-Za-z][^\s=]*(?:=[\s\S]*)?)$/;
const TEXT_MARK = '\u0000tidepool-text-';

/**
 * A command that takes an argument starting with a dash as text when it cannot be an option, so
 * `tidepool remember "-----BEGIN…"` works as `tidepool remember -- "-----BEGIN…"` does; option-shaped words are
 * still options (and unknown ones still errors), and an option's own value is left to commander.
 */
export class TextArgCommand extends Command {
  override createCommand(name?: string): Command {
    return new TextArgCommand(name);
  }

  override parseOptions(args: string[]): { operands: string[]; unknown: string[] } {
    const held = new Map<string, string>();
    let literal = false;
    const marked = args.map((a, i) => {
      if (a === '--') literal = true;
      if (literal || !a.startsWith('-') || OPTION_SHAPED.test(a)) return a;
      const prev = args[i - 1];
      const takesValue = prev !== undefined && this.options.some((o) => (o.long === prev || o.short === prev) && (o.required || o.optional));
      if (takesValue) return a;
      const mark = `${TEXT_MARK}${i}`;
      held.set(mark, a);
      return mark;
    });
    const r = super.parseOptions(marked);
    const back = (xs: string[]) => xs.map((x) => held.get(x) ?? x);
    return { operands: back(r.operands), unknown: back(r.unknown) };
  }
}

/** Builds the program. */
export function buildProgram(deps: CliDeps, registrars: readonly CommandRegistrar[]): Command {
  const program = new TextArgCommand('tidepool')
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
