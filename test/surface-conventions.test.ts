/**
 * One id and field convention on REST and MCP, and an inclusive `to` day on both (issue 23): the same memory read
 * through the Hono app and the MCP SDK client gives `e12`/`k7` ids and snake_case fields.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, type HttpApp } from '../src/surfaces/http/http-app.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';

let mem: TempMemory;
let http: HttpApp;
let client: Client;

// A turn on 30 October at 10:00 UTC, two days before the test clock (T0, 1 November).
const DAY = '2026-10-30';

beforeAll(async () => {
  mem = await tempMemory();
  http = createHttpApp({ memory: mem.memory, version: 'test', mcpServer: (session) => createMcpServer(mem.memory, { session }) });
  await mem.memory.record({ content: 'the kiln reached 1240 degrees', session: 'kiln', at: `${DAY}T10:00:00Z` });
  await mem.memory.remember({ text: 'The kiln needs a new thermocouple', key: 'kiln.part' });
  const server = await createMcpServer(mem.memory, {});
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'conventions-test', version: '1.0.0' });
  await client.connect(b);
});

afterAll(async () => {
  await client.close();
  await http.close();
  await mem.cleanup();
});

const get = async (path: string) => (await http.app.request(path)).json() as Promise<Record<string, unknown>>;

describe('REST', () => {
  it('returns timeline items and recall hits with prefixed ids and snake_case fields', async () => {
    const page = (await get('/v1/timeline?session=kiln')) as { items: Array<Record<string, unknown>> };
    expect(page.items[0]).toMatchObject({ id: expect.stringMatching(/^e\d+$/), text: 'the kiln reached 1240 degrees', occurred_at: Date.parse(`${DAY}T10:00:00Z`), archived: false });
    expect(page.items[0]).not.toHaveProperty('occurredAt');
    const hits = (await get('/v1/recall?q=thermocouple')) as { hits: Array<Record<string, unknown>> };
    expect(hits.hits[0]).toMatchObject({ id: expect.stringMatching(/^k\d+$/), layer: 'knowledge' });
    expect(hits.hits[0]).toHaveProperty('created_at');
    expect(hits.hits[0]).not.toHaveProperty('createdAt');
    const remembered = await (await http.app.request('/v1/remember', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'The kiln shelf is cracked' }) })).json();
    expect(remembered).toMatchObject({ id: expect.stringMatching(/^k\d+$/), episode_id: expect.stringMatching(/^e\d+$/) });
  });

  it('reads `to` given as a bare date as the end of that day', async () => {
    expect(((await get(`/v1/timeline?session=kiln&to=${DAY}`)) as { total: number }).total).toBe(1);
    expect(((await get('/v1/timeline?session=kiln&to=2026-10-29')) as { total: number }).total).toBe(0);
    expect(((await get(`/v1/recall?q=kiln%20degrees&until=${DAY}&layers=episode`)) as { hits: unknown[] }).hits).toHaveLength(1);
  });
});

describe('MCP', () => {
  it('reads `to` given as a bare date as the end of that day, with the same item shape as REST', async () => {
    const on = (await client.callTool({ name: 'timeline', arguments: { session: 'kiln', to: DAY } })) as unknown as { structuredContent: { total: number; items: unknown[] } };
    expect(on.structuredContent.total).toBe(1);
    const rest = (await get(`/v1/timeline?session=kiln&to=${DAY}`)) as { items: unknown[] };
    expect(on.structuredContent.items).toEqual(rest.items);
    const before = (await client.callTool({ name: 'timeline', arguments: { session: 'kiln', to: '2026-10-29' } })) as unknown as { structuredContent: { total: number } };
    expect(before.structuredContent.total).toBe(0);
  });
});
