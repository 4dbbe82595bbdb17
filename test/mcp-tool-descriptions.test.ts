/** Every MCP tool as a client sees it (SDK client, all toolsets): each parameter described, read-only tools marked. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { journalRoot, toolCases } from './mcp-tool-cases.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';

const JOURNAL_ROOT = journalRoot();

type Listed = Awaited<ReturnType<Client['listTools']>>['tools'][number];

let mem: TempMemory;
let client: Client;
let tools: Listed[];

beforeAll(async () => {
  mem = await tempMemory();
  const server = await createMcpServer(mem.memory, { toolsets: 'all', journalHome: JOURNAL_ROOT });
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

  it('answers with snake_case field names and prefixed ids, and takes the ids it prints (source_links: ["e1"])', async () => {
    const camel: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          if (/^[a-z]+[A-Z]/.test(k)) camel.push(`${path}.${k}`);
          // Config objects keep the config file's key names; user JSON is the user's (docs/http.md).
          if (!['config', 'meta', 'metadata', 'payload', 'features', 'versions'].includes(k)) walk(x, `${path}.${k}`);
        }
    };
    for (const c of toolCases(JOURNAL_ROOT)) {
      const r = await client.callTool({ name: c.name, arguments: c.valid });
      expect(r.isError, c.name).toBeFalsy();
      walk(r.structuredContent, c.name);
    }
    expect(camel).toEqual([]);
    const turn = (await client.callTool({ name: 'record', arguments: { content: 'we picked the blue logo', session: 'ids' } })) as unknown as { structuredContent: { ids: string[] } };
    const id = turn.structuredContent.ids[0]!;
    expect(id).toMatch(/^e\d+$/);
    const wrote = (await client.callTool({ name: 'memory_write', arguments: { gesture: 'I settled the logo question', source_links: [id] } })) as unknown as { isError?: boolean; structuredContent: { id: string } };
    expect(wrote.isError).toBeFalsy();
    const listed = (await client.callTool({ name: 'memory_recall', arguments: { limit: 1 } })) as unknown as { structuredContent: { narratives: Array<{ id: string; source_links: string[] }> } };
    expect(listed.structuredContent.narratives[0]).toMatchObject({ id: wrote.structuredContent.id, source_links: [id] });
  });
});
