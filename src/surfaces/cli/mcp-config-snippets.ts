/** The exact MCP configuration snippet each client expects for `tidepool serve --stdio`. */
import { TidepoolError } from '../../core/errors.js';

/** Clients `tidepool mcp-config` knows. */
export const MCP_CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex'] as const;
/** One client. */
export type McpClient = (typeof MCP_CLIENTS)[number];

/** A snippet: where it goes and its text (JSON or TOML). */
export interface McpConfigSnippet {
  client: McpClient;
  /** Where the snippet belongs. */
  file: string;
  format: 'json' | 'toml';
  text: string;
  /** The same as data. */
  config: Record<string, unknown>;
}

function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** Builds the snippet that starts `command args…` as the stdio server named `tidepool`. */
export function mcpConfigSnippet(client: string, command: string, args: readonly string[]): McpConfigSnippet {
  if (!(MCP_CLIENTS as readonly string[]).includes(client)) {
    throw new TidepoolError('invalid_input', `client: unknown client "${client}"; known: ${MCP_CLIENTS.join(', ')}`, { field: 'client' });
  }
  const server = { command, args: [...args] };
  switch (client as McpClient) {
    case 'claude-code': {
      const config = { mcpServers: { tidepool: { type: 'stdio', ...server } } };
      return { client: 'claude-code', file: '.mcp.json in the project root (or: claude mcp add-json tidepool \'<the tidepool entry>\')', format: 'json', text: JSON.stringify(config, null, 2), config };
    }
    case 'claude-desktop': {
      const config = { mcpServers: { tidepool: server } };
      return { client: 'claude-desktop', file: 'claude_desktop_config.json (Settings → Developer → Edit Config)', format: 'json', text: JSON.stringify(config, null, 2), config };
    }
    case 'cursor': {
      const config = { mcpServers: { tidepool: server } };
      return { client: 'cursor', file: '~/.cursor/mcp.json (all projects) or .cursor/mcp.json (this project)', format: 'json', text: JSON.stringify(config, null, 2), config };
    }
    case 'vscode': {
      const config = { servers: { tidepool: { type: 'stdio', ...server } } };
      return { client: 'vscode', file: '.vscode/mcp.json in the workspace', format: 'json', text: JSON.stringify(config, null, 2), config };
    }
    case 'codex': {
      const config = { mcp_servers: { tidepool: server } };
      const text = `[mcp_servers.tidepool]\ncommand = ${tomlString(command)}\nargs = [${args.map(tomlString).join(', ')}]\n`;
      return { client: 'codex', file: '~/.codex/config.toml', format: 'toml', text, config };
    }
  }
}
