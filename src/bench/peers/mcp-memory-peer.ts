// The official MCP memory server (@modelcontextprotocol/server-memory) as a peer, driven over its real stdio interface.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TidepoolError } from '../../core/errors.js';
import type { BenchConversation } from '../locomo.js';
import { questionKeywords } from '../question-keywords.js';
import type { RetrievalSystem } from '../retrieval-system.js';

/**
 * How questions reach `search_nodes`, which keeps an entity when the whole query is a
 * case-insensitive substring of its name, type or one observation (server-memory `searchNodes`):
 * - `verbatim`: the question as typed, one call;
 * - `keywords`: one call per keyword of the question (what an agent does with a substring search),
 *   entities ranked by how many keywords matched, ties in the server's (insertion) order.
 */
export type McpMemoryMode = 'verbatim' | 'keywords';

interface SearchResult {
  entities?: Array<{ name: string }>;
}

function serverEntryPoint(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@modelcontextprotocol/server-memory/package.json')), 'dist', 'index.js');
}

/**
 * One entity per dialog turn: `name` = diaId, `entityType` = speaker, `observations` =
 * [`"<speaker>: <text>"`], the same text the other peers index. A fresh server process and
 * JSONL file per conversation; every search is a real MCP `tools/call` over stdio, so its latency
 * includes the JSON-RPC round trip and the server re-reading its file, as in real use.
 */
export class McpMemoryPeer implements RetrievalSystem {
  readonly name = 'mcp-memory';
  readonly mode: McpMemoryMode;
  #client: Client | undefined;
  #dir: string | undefined;

  constructor(options: { mode?: McpMemoryMode } = {}) {
    this.mode = options.mode ?? 'keywords';
  }

  async load(conv: BenchConversation): Promise<void> {
    await this.close();
    const dir = mkdtempSync(join(tmpdir(), 'tidepool-bench-mcp-memory-'));
    this.#dir = dir;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [serverEntryPoint()],
      env: { ...getDefaultEnvironment(), MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'tidepool-bench', version: '0.1.0' });
    await client.connect(transport);
    this.#client = client;
    const entities = conv.sessions.flatMap((s) =>
      s.turns.map((t) => ({ name: t.diaId, entityType: t.speaker, observations: [`${t.speaker}: ${t.text}`] })),
    );
    const res = await client.callTool({ name: 'create_entities', arguments: { entities } });
    if (res.isError) throw new TidepoolError('io_failed', `server-memory refused create_entities for ${conv.id}`);
  }

  async #searchNodes(query: string): Promise<string[]> {
    const client = this.#client;
    if (!client) return [];
    const res = await client.callTool({ name: 'search_nodes', arguments: { query } });
    const found = (res.structuredContent ?? {}) as SearchResult;
    return (found.entities ?? []).map((e) => e.name);
  }

  async search(question: string, k: number): Promise<string[]> {
    if (this.mode === 'verbatim') return (await this.#searchNodes(question)).slice(0, k);
    const score = new Map<string, number>();
    // Sequential calls, as an agent issues them one tool call at a time.
    for (const term of questionKeywords(question)) {
      for (const name of await this.#searchNodes(term)) score.set(name, (score.get(name) ?? 0) + 1);
    }
    // Map keeps first-seen order and Array.sort is stable, so ties keep the order of first return.
    return [...score.entries()].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name]) => name);
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    if (client) await client.close();
    if (this.#dir) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
  }
}
