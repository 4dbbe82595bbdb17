/** The MCP tools and the context block on the PostgreSQL engine (embedded PGlite): the same SQL areas, the other dialect. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContext } from '../src/app/injection/context-block.js';
import { appContextOf, Tidepool } from '../src/app/tidepool.js';
import { FixedClock } from '../src/core/clock.js';
import { parseConfig } from '../src/core/config.js';
import { openPostgresStore } from '../src/store/postgres/open-postgres.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { driverOf, seedNarrative, seedTopicCluster } from './injection-seed.js';
import { exerciseAllTools, resultText, TOOL_NAMES } from './mcp-tool-cases.js';

// The toolsets this file covers; the journal and sleep toolsets test their own engines.
const NAMES = new Set<string>([...TOOL_NAMES.core, ...TOOL_NAMES.tideline, ...TOOL_NAMES.continuity]);

describe('MCP on PGlite', () => {
  let memory: Tidepool;
  let client: Client;
  beforeAll(async () => {
    const store = await openPostgresStore('pglite://memory');
    memory = new Tidepool(
      { store, config: parseConfig({}), clock: new FixedClock(Date.UTC(2026, 10, 1, 12)), embedder: undefined, space: 'default', warn: () => undefined },
      () => store.close(),
    );
    const server = await createMcpServer(memory, { toolsets: 'core,tideline,continuity' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: 'pg', version: '1.0.0' });
    await client.connect(b);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await memory?.close();
  });

  it('answers every tool with valid arguments and names the field of invalid ones', async () => {
    expect(await exerciseAllTools(client, NAMES)).toBe(NAMES.size * 2);
  });

  it('reads the graph, soft clusters and gaps, and builds the context block', async () => {
    const db = driverOf(memory);
    const t = appContextOf(memory).clock.now();
    const n = await seedNarrative(memory, { gesture: 'Ana judged, Ben reviewed', weight: 0.8, daysAgo: 1, tags: ['review'] });
    await db.run('INSERT INTO graph_nodes (space, entity, mention_count, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)', ['default', 'Ana', 2, t, t]);
    await db.run('INSERT INTO graph_nodes (space, entity, mention_count, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)', ['default', 'Ben', 1, t, t]);
    await db.run('INSERT INTO graph_edges (space, entity_a, entity_b, narrative_id, role_a, role_b, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', ['default', 'Ana', 'Ben', n, 'judge', 'review', t]);
    await db.run('INSERT INTO graph_cooccur (space, entity_a, entity_b, cooccur_count) VALUES (?, ?, ?, ?)', ['default', 'Ana', 'Ben', 1]);
    await db.run('INSERT INTO emb_clusters (space, name, centroid, member_count, total_hits, created_at, updated_at) VALUES (?, ?, NULL, ?, 0, ?, ?)', ['default', 'review', 1, t, t]);
    const [{ id }] = (await db.all<{ id: unknown }>('SELECT id FROM emb_clusters')) as [{ id: unknown }];
    await db.run('INSERT INTO emb_cluster_members (space, cluster_id, narrative_id, distance) VALUES (?, ?, ?, ?)', ['default', Number(id), n, 0.2]);
    await seedTopicCluster(memory, 'review', 7);
    expect(resultText(await client.callTool({ name: 'memory_graph', arguments: { pair: 'Ben,Ana' } }))).toMatch(/Ana=judge, Ben=review: Ana judged, Ben reviewed/);
    expect(resultText(await client.callTool({ name: 'memory_graph', arguments: { entity: 'ana' } }))).toMatch(/^Ana: 2 mentions[\s\S]*- with Ben: 1×/);
    expect(resultText(await client.callTool({ name: 'memory_soft_clusters', arguments: { cluster_id: Number(id) } }))).toMatch(/distance 0\.200\): Ana judged/);
    for (let i = 0; i < 3; i++) await memory.remember({ text: `Kiln fact ${i}`, subject: 'Kiln' });
    expect(resultText(await client.callTool({ name: 'gaps', arguments: {} }))).toContain('- Kiln (mentioned 3×, 0 links)');
    const block = await buildContext(appContextOf(memory), { session: 'pg' });
    expect(block.text).toContain('## Weighty recent memories\n- Ana judged, Ben reviewed');
    expect(block.text).toContain('Topics: review(7)');
    expect(block.text).toContain('## Current goal');
  });
});
