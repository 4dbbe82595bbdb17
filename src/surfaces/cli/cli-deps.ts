/** What every CLI command receives: how to open the memory, where to write, and shared option helpers. */
import type { Command } from 'commander';
import type { Tidepool } from '../../app/tidepool.js';
import { snakeKeys } from '../../app/wire-format.js';
import { TidepoolError } from '../../core/errors.js';

/** Options every command takes. */
export interface CommonOptions {
  db?: string;
  space?: string;
  json?: boolean;
  debug?: boolean;
  /** Make the --db file when it does not exist (without it only init and the writing commands do). */
  create?: boolean;
  /**
   * A long-running command (`serve`): its searches may run statements on several PostgreSQL connections at once.
   * The others answer once and exit, and keep to one connection for their reads (config `postgres.parallelReads`).
   */
  serving?: boolean;
}

/** Injected by boot/: opening the memory is the composition root's job. */
export interface CliDeps {
  open(opts: CommonOptions): Promise<Tidepool>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  version: string;
  /** Environment facts the commands may show (never read by surfaces themselves). */
  env: {
    defaultDb: string;
    cwd: string;
    /** The config file and where the default paths came from (`xdg`, `legacy` ~/.tidepool, `env`), for doctor. */
    config?: { path: string; exists: boolean; source: string };
    defaultDbSource?: string;
    /** Where `import --from <tool>` looks: each tool's own transcript folder. */
    importDirs?: Readonly<Record<string, string>>;
  };
}

/** Adds --db, --space, --json and --debug to a command. */
export function withCommon(cmd: Command): Command {
  return cmd
    .option(
      '--db <path|url>',
      'memory database: a SQLite file or postgres:// URL (default $XDG_DATA_HOME/tidepool/memory.db, or TIDEPOOL_DB); a file that does not exist is an error unless the command writes (init, remember, record, write, import, restore, serve, token create, hook) or --create is given',
    )
    .option('--create', 'create the --db file if it does not exist')
    .option('--space <name>', 'memory space (default "default", or TIDEPOOL_SPACE)')
    .option('--json', 'print one JSON document on stdout')
    .option('--debug', 'print stack traces on errors');
}

/**
 * Marks a command as one that may create its --db file: a command that writes something there. Read-only commands
 * do not, so a mistyped path is an error instead of an empty database that answers "nothing found".
 */
export function creating(opts: CommonOptions): CommonOptions {
  return { ...opts, create: true };
}

/** Marks a command as a server's: it may create its --db file and it reads on several connections at once. */
export function serving(opts: CommonOptions): CommonOptions {
  return { ...creating(opts), serving: true };
}

/** Opens the memory, runs `fn`, and always closes it. */
export async function withMemory<T>(deps: CliDeps, opts: CommonOptions, fn: (m: Tidepool) => Promise<T>): Promise<T> {
  const m = await deps.open(opts);
  try {
    return await fn(m);
  } finally {
    await m.close();
  }
}

/** Prints `value` as JSON (field names snake_case, as on every surface) when --json is set, else the human text. */
export function print(deps: CliDeps, opts: CommonOptions, value: unknown, human: () => string): void {
  deps.stdout.write(opts.json ? `${JSON.stringify(snakeKeys(value))}\n` : `${human()}\n`);
}

/** Parses an integer flag, naming the flag on error. */
export function intOption(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v.trim())) throw new TidepoolError('invalid_input', `--${name} must be an integer, got "${v}"`, { field: name });
  return Number(v);
}

/** Parses a number flag, naming the flag on error. */
export function numberOption(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new TidepoolError('invalid_input', `--${name} must be a number, got "${v}"`, { field: name });
  return n;
}

/** Splits a comma-separated flag into trimmed, non-empty parts. */
export function listOption(v: string | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  return v.split(/[,，]/).map((s) => s.trim()).filter(Boolean);
}

/**
 * A flag that must be one of `allowed` (absent stays absent), naming the flag and the choices on error. The value
 * given is not repeated: a pasted credential must not reach the terminal log.
 */
export function choiceOption<T extends string>(name: string, v: string | undefined, allowed: readonly T[]): T | undefined {
  if (v === undefined) return undefined;
  const isAllowed = (p: string): p is T => (allowed as readonly string[]).includes(p);
  if (!isAllowed(v)) throw new TidepoolError('invalid_input', `--${name} must be one of ${allowed.join(', ')}`, { field: name });
  return v;
}

/** Splits a comma-separated flag whose parts must each be one of `allowed` ({@link choiceOption} for each part). */
export function choiceListOption<T extends string>(name: string, v: string | undefined, allowed: readonly T[]): T[] | undefined {
  return listOption(v)?.map((p) => choiceOption(name, p, allowed)!);
}

/** Reads all of stdin as text. */
export async function readStdin(deps: CliDeps): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of deps.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Short one-line rendering of a time. */
export function isoMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}
