/**
 * The `tidepool` executable's composition root: reads config and env, opens memories, runs the CLI (`main`). `cli.ts`
 * calls it; the bundle bin/tidepool.js runs (dist/cli/cli-main.cjs) is built from this module.
 */
// First: it sets zod's mode before any module below builds or parses a schema.
import './zod-mode.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, defaultDbPath, importDirs, tidepoolPaths } from './load-config.js';
import { openMemory } from './open-memory.js';
import { TIDEPOOL_VERSION } from '../app/tidepool.js';
import { CORE_REGISTRARS, runCli, type CommandRegistrar } from '../surfaces/cli/run-cli.js';
import type { CliDeps, CommonOptions } from '../surfaces/cli/cli-deps.js';
import { serveCommand } from '../surfaces/cli/serve-command.js';
import { registerInjectCommands } from '../surfaces/cli/inject-commands.js';
import { registerIntegrationCommands } from '../surfaces/cli/integration-commands.js';
import { registerImportCommand } from '../surfaces/cli/import-command.js';
import { registerScriptCommand } from '../surfaces/cli/script-command.js';
import { registerJournalCommand } from '../surfaces/cli/journal-command.js';
import { registerTokenCommand } from '../surfaces/cli/token-command.js';
import { registerSleepCommands } from '../surfaces/cli/sleep-commands.js';
import { assertBindAllowed } from './bind-policy.js';
import { TidepoolError } from '../core/errors.js';

/** Command groups beyond the core ones, added by the composition root. */
export const EXTRA_REGISTRARS: CommandRegistrar[] = [
  // The MCP SDK, Hono and the schedulers load only when a server actually starts.
  serveCommand({
    stdio: async (m, o) => (await import('./serve.js')).serveRunners.stdio(m, o),
    http: async (m, o) => {
      await assertBindAllowed(m, o.host); // refuse before loading the server modules
      return (await import('./serve.js')).serveRunners.http(m, o);
    },
  }),
  registerTokenCommand,
  registerInjectCommands,
  registerSleepCommands,
  registerIntegrationCommands,
  registerJournalCommand,
  registerScriptCommand,
  registerImportCommand,
];

/** What `tidepool help` shows for `bench`; the command itself is registered only when it runs (see `benchRegistrar`). */
const BENCH_SUMMARY =
  'benchmarks: retrieval quality on LoCoMo (on day 0 and over a year of nights) and on a parallel English/Chinese corpus, scale, HTTP load, script layer, soak, start-up, secret and PII detectors (from a clone: npm run bench)';

/**
 * The `bench` command group. Its modules import the peers it compares against (minisearch, Orama, autocannon…),
 * which are devDependencies, so they are loaded only when `bench` is the command, and an installed package says
 * what to do instead of failing on a missing module.
 */
export async function benchRegistrar(argv: readonly string[]): Promise<CommandRegistrar> {
  if (argv[0] !== 'bench') return (program) => void program.command('bench').description(BENCH_SUMMARY);
  try {
    return (await import('./bench-command.js')).registerBenchCommand;
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec(String((e as Error).message))?.[1] ?? String(e);
    const message = /bench-command\.js$/.test(missing)
      ? 'the benchmarks are not part of the installed package: run them from a clone of the repository after `npm install` (npm run bench)'
      : `the benchmarks need the development dependencies (${missing} is missing): run them from a clone of the repository after \`npm install\` (npm run bench)`;
    return (program) =>
      void program
        .command('bench')
        .description(BENCH_SUMMARY)
        .helpOption(false)
        .allowUnknownOption()
        .allowExcessArguments()
        .action(() => {
          throw new TidepoolError('unavailable', message, { cause: e });
        });
  }
}

/**
 * Opens the memory named by common options, env and config file. A --db file that does not exist is created only
 * for a command that writes (or with --create): a mistyped path must not answer "nothing found" from a new, empty file.
 */
export async function openFromOptions(o: CommonOptions) {
  const config = loadConfig({ ...(o.db ? { db: o.db } : {}), ...(o.space ? { space: o.space } : {}) });
  const db = config.db ?? defaultDbPath();
  if (o.db !== undefined && !o.create && isFilePath(o.db) && !existsSync(o.db)) {
    throw new TidepoolError(
      'not_found',
      `no memory database at ${resolve(o.db)}: check the --db path, or create it with \`tidepool init --db ${o.db}\` (or add --create)`,
      { field: 'db' },
    );
  }
  if (o.db !== undefined && isFilePath(o.db) && !existsSync(o.db)) process.stderr.write(`tidepool: creating a new memory database at ${resolve(o.db)}\n`);
  // A command that answers once keeps its PostgreSQL reads on one connection: a second server process costs more
  // than the statements it would run beside the first (~40 ms of a recall at 100k, docs/scaling.md).
  const postgres = { ...config.postgres, parallelReads: o.serving === true && config.postgres.parallelReads };
  return openMemory({ config: { ...config, postgres }, db, space: config.space });
}

function isFilePath(db: string): boolean {
  return db !== ':memory:' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(db);
}

/** Runs the CLI for `argv` and exits with its code. */
export async function main(argv: readonly string[]): Promise<void> {
  const paths = tidepoolPaths();
  const deps: CliDeps = {
    open: openFromOptions,
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    version: TIDEPOOL_VERSION,
    env: {
      defaultDb: paths.db,
      cwd: process.cwd(),
      config: { path: paths.config, exists: existsSync(paths.config), source: paths.configSource },
      defaultDbSource: paths.dbSource,
      importDirs: importDirs(),
    },
  };
  const code = await runCli(argv, deps, [...CORE_REGISTRARS, ...EXTRA_REGISTRARS, await benchRegistrar(argv)]);
  process.exitCode = code;
}

