/** Every MCP tool as a client sees it (SDK client, all toolsets): each parameter described, read-only tools marked. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';

type Listed = Awaited<ReturnType<Client['listTools']>>['tools'][number];

let mem: TempMemory;
let client: Client;
let tools: Listed[];

beforeAll(async () => {
  mem = await tempMemory();
  const server = await createMcpServer(mem.memory, { toolsets: 'all' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'descriptions-test', version: '1.0.0' });
  await client.connect(b);
  tools = (await client.listTools()).tools;
});

afterAll(async () => {
  await client.close();
  await mem.cleanup();
});

/** Tools that only read: an agent (and a client's auto-approval) may call them freely. */
const READ_ONLY = [
  'recall', 'know', 'timeline', 'briefing', 'self', 'gaps',
  'memory_recall', 'memory_search', 'context_search', 'context_timeline', 'memory_read_profiles', 'memory_read_self_concept',
  'memory_read_snapshot', 'memory_read_threads', 'memory_graph', 'memory_attention_heatmap', 'memory_soft_clusters',
  'journal_search', 'journal_read', 'journal_lint', 'journal_stats', 'sleep_status',
];

describe('MCP tool definitions', () => {
  it('describes every parameter of every tool', () => {
    const missing: string[] = [];
    for (const t of tools) {
      const props = (t.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(props)) {
        if (!schema.description || schema.description.trim().length < 3) missing.push(`${t.name}.${name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(tools.length).toBeGreaterThan(20);
  });

  it('marks every tool that only reads with readOnlyHint: true, and every other tool with false', () => {
    const byName = new Map(tools.map((t) => [t.name, t]));
    // Every name above must be a registered tool, or the list would silently stop checking a renamed one.
    expect(READ_ONLY.filter((n) => !byName.has(n))).toEqual([]);
    const readOnly = READ_ONLY;
    for (const name of readOnly) expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(true);
    for (const t of tools) expect(typeof t.annotations?.readOnlyHint, t.name).toBe('boolean');
    const marked = tools.filter((t) => t.annotations?.readOnlyHint === true).map((t) => t.name).sort();
    expect(marked).toEqual([...readOnly].sort());
  });
});
