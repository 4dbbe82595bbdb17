/** `tidepool serve`: the MCP server over stdio (`--stdio`) or Streamable HTTP at `/mcp` (`--http`, the default). */
import type { Command } from 'commander';
import type { Tidepool } from '../../app/tidepool.js';
import { TidepoolError } from '../../core/errors.js';
import { intOption, serving, withCommon, withMemory, type CliDeps, type CommonOptions } from './cli-deps.js';
import { soulReader } from './inject-commands.js';
import type { CommandRegistrar } from './run-cli.js';

/** Options every transport gets. */
export interface ServeOptions {
  /** `--toolsets` as given (comma-separated; `all`; default `core`). */
  toolsets?: string;
  /** Reads SOUL.md whenever a context block is built. */
  soul: () => Promise<string | undefined>;
}

/** The transports, supplied by boot (surfaces never import each other). */
export interface ServeRunners {
  /** Serves until stdin closes. */
  stdio(memory: Tidepool, o: ServeOptions): Promise<void>;
  /** Serves until the process is told to stop; `onListening` gets the base URL. */
  http(memory: Tidepool, o: ServeOptions & { host: string; port: number; onListening(url: string): void }): Promise<void>;
}

/** Registers `serve` with the given transports. */
export function serveCommand(runners: ServeRunners): CommandRegistrar {
  return (program: Command, deps: CliDeps) => {
    withCommon(
      program
        .command('serve')
        .description('run the MCP server (protocol revisions 2024-10-07 to 2026-07-28): --stdio for one client, --http (default) for Streamable HTTP at /mcp')
        .option('--stdio', 'speak MCP on stdin/stdout')
        .option('--http', 'serve Streamable HTTP at /mcp and GET /v1/health')
        .option('--port <n>', 'HTTP port (default 7077, or http.port)')
        .option('--host <host>', 'HTTP host (default 127.0.0.1; other hosts need API tokens)')
        .option('--toolsets <list>', 'core (default), tideline, continuity… comma-separated, or all')
        .option('--workspace <dir>', 'where SOUL.md is looked for (default: the current directory)'),
    ).action(async (o: CommonOptions & { stdio?: boolean; http?: boolean; port?: string; host?: string; toolsets?: string; workspace?: string }) => {
      if (o.stdio && o.http) throw new TidepoolError('invalid_input', 'choose one transport: --stdio or --http', { field: 'stdio' });
      await withMemory(deps, serving(o), async (m) => {
        const soul = soulReader(m, o.workspace ?? deps.env.cwd);
        if (o.stdio) return runners.stdio(m, { toolsets: o.toolsets, soul });
        const port = intOption('port', o.port) ?? m.config.http.port;
        const host = o.host ?? m.config.http.host;
        await runners.http(m, {
          toolsets: o.toolsets, soul, host, port,
          onListening: (url) =>
            deps.stderr.write(
              `tidepool: serving MCP at ${url}/mcp (space ${m.space})\n` +
                `tidepool: dashboard at ${url}/ and the REST API at ${url}/v1/ (docs/http.md); Ctrl-C stops\n`,
            ),
        });
      });
    });
  };
}
