/** Tools over derived tables once the script layer and the sleep have filled them: graph, clusters, heatmap, gaps, know, self. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { driverOf, seedNarrative, seedTopicCluster } from './injection-seed.js';
import { resultText } from './mcp-tool-cases.js';
import { appContextOf } from '../src/app/tidepool.js';

let mem: TempMemory;
let client: Client;

beforeEach(async () => {
  mem = await tempMemory();
  const server = await createMcpServer(mem.memory, { toolsets: 'all' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'derived', version: '1.0.0' });
  await client.connect(b);
});
afterEach(async () => {
  await client.close();
  await mem.cleanup();
});

const call = async (name: string, args: Record<string, unknown> = {}) => {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError, resultText(r)).toBeFalsy();
  return { text: resultText(r), data: r.structuredContent as Record<string, unknown> };
};

describe('derived reads', () => {
  it('memory_graph answers by pair (roles beside their own entity), by entity and with the top nodes', async () => {
    const db = driverOf(mem.memory);
    const n1 = await seedNarrative(mem.memory, { gesture: 'Ana judged the design, Ben reviewed it', weight: 0.7, daysAgo: 2 });
    const n2 = await seedNarrative(mem.memory, { gesture: 'Ben led the retro with Ana', weight: 0.6, daysAgo: 1 });
    const t = mem.clock.now();
    for (const [e, c] of [['Ana', 5], ['Ben', 3], ['Cy', 1]] as const) {
      await db.run('INSERT INTO graph_nodes (space, entity, mention_count, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)', ['default', e, c, t - 86_400_000 * 3, t]);
    }
    await db.run('INSERT INTO graph_edges (space, entity_a, entity_b, narrative_id, role_a, role_b, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', ['default', 'Ana', 'Ben', n1, 'judge', 'review', t - 2 * 86_400_000]);
    await db.run('INSERT INTO graph_edges (space, entity_a, entity_b, narrative_id, role_a, role_b, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', ['default', 'Ben', 'Ana', n2, 'lead', 'attend', t - 86_400_000]);
    await db.run('INSERT INTO graph_cooccur (space, entity_a, entity_b, cooccur_count) VALUES (?, ?, ?, ?)', ['default', 'Ana', 'Ben', 2]);
    const pair = await call('memory_graph', { pair: 'ana, Ben' });
    expect(pair.text.split('\n')).toEqual([
      'Ana & Ben: 2 shared narrative(s)',
      expect.stringMatching(new RegExp(`^- \\[n${n2} .*\\] Ben=lead, Ana=attend: Ben led the retro with Ana$`)),
      expect.stringMatching(new RegExp(`^- \\[n${n1} .*\\] Ana=judge, Ben=review: Ana judged the design, Ben reviewed it$`)),
    ]);
    expect((await call('memory_graph', { entity: 'ben' })).text).toMatch(/^Ben: 3 mentions, first .*\n- with Ana: 2×$/);
    expect((await call('memory_graph', { limit: 2 })).text).toBe('- Ana: 5 mentions\n- Ben: 3 mentions');
    expect((await call('memory_graph', { entity: 'Zed' })).text).toMatch(/does not know "Zed"/);
  });

  it('memory_soft_clusters lists clusters and shows one with its nearest members and adjacent clusters', async () => {
    const db = driverOf(mem.memory);
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push(await seedNarrative(mem.memory, { gesture: `Kiln note ${i}`, weight: 0.5, daysAgo: 1 }));
    const t = mem.clock.now();
    for (const [name, count] of [['kiln · glaze', 12], ['ci · cache', 4]] as const) {
      await db.run('INSERT INTO emb_clusters (space, name, centroid, member_count, total_hits, created_at, updated_at) VALUES (?, ?, NULL, ?, 0, ?, ?)', ['default', name, count, t, t]);
    }
    for (const [i, id] of ids.entries()) await db.run('INSERT INTO emb_cluster_members (space, cluster_id, narrative_id, distance) VALUES (?, ?, ?, ?)', ['default', 1, id, 0.5 - i * 0.01]);
    await db.run('INSERT INTO emb_cluster_adjacency (space, cluster_a, cluster_b, shared_count) VALUES (?, ?, ?, ?)', ['default', 1, 2, 3]);
    expect((await call('memory_soft_clusters')).text).toBe('- #1 kiln · glaze: 12 members, 1 adjacent\n- #2 ci · cache: 4 members, 1 adjacent');
    const one = await call('memory_soft_clusters', { cluster_id: 1 });
    const lines = one.text.split('\n');
    expect(lines[0]).toBe('#1 kiln · glaze: 12 members');
    expect(lines.slice(1, 11)).toHaveLength(10);
    expect(lines[1]).toBe(`- n${ids[11]} (distance 0.390): Kiln note 11`);
    expect(lines[11]).toBe('- adjacent #2 ci · cache: 3 shared');
    expect((await call('memory_soft_clusters', { cluster_id: 9 })).text).toMatch(/no soft cluster 9; known ids: 1, 2/);
  });

  it('memory_attention_heatmap labels hits by topic cluster, breaks them down by source and lists the never-lit clusters', async () => {
    const n1 = await seedNarrative(mem.memory, { gesture: 'Kiln cone six', weight: 0.5, daysAgo: 1 });
    const n2 = await seedNarrative(mem.memory, { gesture: 'Glaze cooling ramp', weight: 0.5, daysAgo: 1 });
    const db = driverOf(mem.memory);
    await seedTopicCluster(mem.memory, 'pottery', 6);
    await db.run('UPDATE topic_clusters SET narrative_ids = ? WHERE name = ?', [JSON.stringify([n1, n2]), 'pottery']);
    await seedTopicCluster(mem.memory, 'travel', 5);
    await call('memory_search', { query: 'kiln cone' });
    await call('memory_recall', {});
    const h = await call('memory_attention_heatmap', { days: 7 });
    expect(h.text).toMatch(/^## Attention, last 7 days: 3 hits/);
    expect(h.text).toMatch(/100\.0% · 3 hits · .* · pottery/);
    expect(h.text).toMatch(/### By source\n- recall \(browse\): 2\n- search \(manual\): 1/);
    expect(h.text).toMatch(/### Never lit \(1\)\ntravel/);
  });

  it('gaps lists subjects mentioned often but barely linked; know returns reliable and provisional knowledge, never quarantined', async () => {
    for (let i = 0; i < 3; i++) await mem.memory.remember({ text: `Kestrel fact number ${i}`, subject: 'Kestrel' });
    await mem.memory.remember({ text: 'Kestrel uses pnpm workspaces', subject: 'Kestrel', kind: 'procedure' });
    const bad = await mem.memory.remember({ text: 'Kestrel is written in Go', subject: 'Kestrel' });
    await appContextOf(mem.memory).store.forSpace('default').knowledge.setStatus([Number(bad.id.slice(1))], 'quarantined', mem.clock.now());
    expect((await call('gaps')).text).toBe('- Kestrel (mentioned 4×, 0 links)');
    const all = await call('know', { subject: 'kestrel', limit: 10 });
    expect((all.data.entries as unknown[]).length).toBe(4);
    expect(all.text).not.toContain('written in Go');
    const searched = await call('know', { query: 'Kestrel written Go pnpm' });
    expect(searched.text).not.toContain('written in Go');
    expect(searched.text).toContain('pnpm workspaces');
    const procedures = await call('know', { kinds: ['procedure'] });
    expect(procedures.text).toMatch(/^- \[k\d+ procedure, provisional, strength [\d.]+\] Kestrel: Kestrel uses pnpm workspaces$/);
  });

  it('self shows the self-concept and the self-image the sleep stores', async () => {
    await mem.memory.writeSelfConcept({ field: 'fact', content: 'I am the Kestrel build agent.' });
    await driverOf(mem.memory).run('INSERT INTO self_concept (space, field, content, updated_at) VALUES (?, ?, ?, ?)', ['default', 'self_image.works_on', 'Mostly CI and the sync engine.', mem.clock.now()]);
    const s = await call('self');
    expect(s.text).toBe('- fact: I am the Kestrel build agent.\n- works on: Mostly CI and the sync engine.');
    expect(s.data).toMatchObject({ image: { works_on: 'Mostly CI and the sync engine.' } });
  });

  it('briefing says when the asked day has none but a newer one exists', async () => {
    await driverOf(mem.memory).run('INSERT INTO briefings (space, day, headline, body, created_at) VALUES (?, ?, ?, ?, ?)', ['default', '2026-10-30', 'While you were away: 1 new, 0 reinforced, 0 forgotten from 5 episodes.', 'body', mem.clock.now()]);
    expect((await call('briefing', { day: '2026-10-01' })).text).toBe('no briefing for 2026-10-01; the newest is from 2026-10-30 (call briefing without a day to read it)');
    expect((await call('briefing')).data).toMatchObject({ briefing: { day: '2026-10-30' }, today: false });
  });
});
