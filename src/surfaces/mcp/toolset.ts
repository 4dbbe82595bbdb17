/** What a toolset is and how a tool is declared: a zod input shape, annotations, and a body returning text + data. */
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Tidepool } from '../../app/tidepool.js';
import { runTool, type ToolOutput } from './tool-result.js';

/** What every toolset's tools receive. */
export interface ToolsetDeps {
  memory: Tidepool;
  /** The MCP session (stdio: one per process; HTTP: the transport's session id). */
  session: string;
  /** SOUL.md text when the server has one. */
  soul: () => Promise<string | undefined>;
  /** May `forget` erase the whole space? Over HTTP only an admin token may, as for `DELETE /v1/spaces`. */
  eraseSpace: boolean;
  /**
   * The journal's default workspace besides those registered to the space: the server's directory for the local user
   * (stdio, tokenless loopback). Undefined for a token caller, who reaches only its own space's registered workspaces.
   */
  journalHome: string | undefined;
}

/** A named group of tools, enabled with `--toolsets`. */
export interface Toolset {
  name: string;
  /** One line for `--help` and the server instructions. */
  summary: string;
  /** How an agent should use these tools, for the server instructions. */
  guide: string;
  /** Tool names, pinned by a test against what `register` registers. */
  tools: readonly string[];
  register(server: McpServer, deps: ToolsetDeps): void;
}

/** Tool behaviour hints (MCP annotations). */
export interface ToolHints {
  readOnly: boolean;
  destructive?: boolean;
  idempotent: boolean;
}

/** A tool: name, description an agent can act on, a zod input shape, hints and a body. */
export interface ToolSpec<S extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: S;
  hints: ToolHints;
  run(args: z.output<z.ZodObject<S>>): Promise<ToolOutput>;
}

/** Registers one tool; bad or unknown arguments are refused with the field named, errors become `isError` results. */
export function addTool<S extends z.ZodRawShape>(server: McpServer, spec: ToolSpec<S>): void {
  server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      // Strict: a misspelt argument is named in an error instead of being ignored.
      inputSchema: z.object(spec.input).strict(),
      annotations: {
        title: spec.title,
        readOnlyHint: spec.hints.readOnly,
        destructiveHint: spec.hints.destructive ?? false,
        idempotentHint: spec.hints.idempotent,
        openWorldHint: false,
      },
    },
    (args) => runTool(() => spec.run(args)),
  );
}

/** `YYYY-MM-DD HH:MM` UTC. */
export function isoMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}
