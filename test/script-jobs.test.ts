/** The script jobs end to end on a real SQLite file: known clusters, edges and tracks, DF boundaries, determinism. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readGraph } from '../src/app/read-graph.js';
import type { ScriptJobResult } from '../src/app/script-jobs.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { startEmbedServer, type MockEmbedServer } from './helpers/mock-embed-server.js';
import { T0, tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

const MIN = 60_000;
let t: TempMemory | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

function db(m: TempMemory) {
  return (appContextOf(m.memory).store as SqlStore).db;
}

type ResultOf<J> = ScriptJobResult extends infer R
  ? R extends { job: infer K }
    ? J extends K
      ? R
      : never
    : never
  : never;

function as<J extends ScriptJobResult['job']>(r: ScriptJobResult, job: J): ResultOf<J> {
  expect(r.job).toBe(job);
  return r as ResultOf<J>;
}

describe('script topics', () => {
  it('keeps 数据库 (in 3 of 12 narratives) and drops 调试 and 同步 (in all 12) as generic', async () => {
    t = await tempMemory();
    for (let i = 1; i <= 12; i++) {
      const g = `第${i}次调试同步服务${i <= 3 ? '，数据库连接池耗尽' : ''}`;
      await t.memory.write({ gesture: g, importance: 3, emotional: 2, unresolved: 2, tags: ['调试'] });
    }
    const r = as(await t.memory.script('topics'), 'topics');
    expect(r.maxDf).toBe(4); // max(minFreq + 1, ⌊12 · 0.2⌋)
    const names = r.clusters.map((c) => c.name);
    expect(names).toContain('数据库');
    expect(r.clusters.find((c) => c.name === '数据库')!.size).toBe(3);
    expect(names.some((n) => n.includes('调试') || n.includes('同步'))).toBe(false);
    expect(JSON.stringify(r)).not.toContain('"调试"');
    const stored = await appContextOf(t.memory).store.forSpace('default').derived.topicClusters({ minSize: 1, limit: 100 });
    expect(stored.map((c) => c.name).sort()).toEqual([...names].sort());
    expect(stored.find((c) => c.name === '数据库')!.narrativeIds).toHaveLength(3);
  });

  it('holds the DF boundaries on English words: 3 ≤ DF < max(4, ⌊N·0.2⌋)', async () => {
    t = await tempMemory();
    // 25 narratives: maxDf = 5. kubernetes in 4 and grafana in 3 are kept; terraform in 5 (generic) and ansible in 2 (rare) are not.
    const counts: Record<string, number> = { kubernetes: 4, grafana: 3, terraform: 5, ansible: 2 };
    for (let i = 0; i < 25; i++) {
      const words = Object.entries(counts)
        .filter(([, n]) => i < n)
        .map(([w]) => w);
      await t.memory.write({
        gesture: `note ${String.fromCharCode(97 + (i % 26))}zq${i} ${words.join(' ')}`.trim(),
        at: T0 - (25 - i) * MIN,
      });
    }
    const r = as(await t.memory.script('topics'), 'topics');
    expect(r.maxDf).toBe(5);
    const names = r.clusters.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['kubernetes', 'grafana']));
    expect(names).not.toContain('terraform');
    expect(names).not.toContain('ansible');
    expect(r.clusters.find((c) => c.name === 'kubernetes')!.size).toBe(4);
    expect(r.dropped.generic).toBeGreaterThanOrEqual(2); // terraform and "note"
  });

  it('is deterministic and, with --merge, joins words that always appear together', async () => {
    t = await tempMemory();
    // 25 narratives (maxDf 5): the postgres words in 4, the redis words in 3.
    for (let i = 0; i < 25; i++) {
      const extra = i < 4 ? ' postgres vacuum bloat' : i < 7 ? ' redis eviction' : '';
      await t.memory.write({
        gesture: `entry ${String.fromCharCode(97 + i)}qq${extra}`,
        at: T0 - (25 - i) * MIN,
      });
    }
    const a = as(await t.memory.script('topics'), 'topics');
    const b = as(await t.memory.script('topics'), 'topics');
    expect(b.clusters).toEqual(a.clusters);
    expect(a.clusters.map((c) => c.name)).toEqual(['bloat', 'postgres', 'vacuum', 'eviction', 'redis']);
    const merged = as(await t.memory.script('topics', { merge: true }), 'topics');
    expect(merged.clusters.map((c) => [c.name, c.size])).toEqual([
      ['bloat / postgres / vacuum', 4],
      ['eviction / redis', 3],
    ]);
    expect(
      (await appContextOf(t.memory).store.forSpace('default').derived.topicClusters({ minSize: 1, limit: 10 })).map(
        (c) => c.name,
      ),
    ).toEqual(['bloat / postgres / vacuum', 'eviction / redis']);
  });
});

describe('script soft-clusters', () => {
  // Three meanings on three axes; the small fourth-to-eighth coordinates tell items of one meaning apart.
  const GROUPS: Array<[RegExp, number]> = [
    [/deploy/, 0],
    [/旅行/, 1],
    [/database/, 2],
  ];
  let embed: MockEmbedServer;
  beforeAll(async () => {
    embed = await startEmbedServer((text) => {
      const v = new Array<number>(8).fill(0);
      for (const [re, axis] of GROUPS) if (re.test(text)) v[axis] = 1;
      v[3 + (text.length % 5)] = 0.1;
      return v;
    });
  });
  afterAll(async () => embed.close());

  async function fill(m: TempMemory) {
    const texts = [
      ...[1, 2, 3, 4, 5].map((i) => `the deploy pipeline failed at step ${i}, deploy rollback again`),
      ...['和家人去海边旅行', '计划秋天的旅行', '旅行的照片整理好了', '旅行预算超了', '下次旅行去山里'],
      ...[1, 2, 3, 4, 5].map((i) => `database migration ${i} locked the database table`),
    ];
    for (const [i, gesture] of texts.entries()) await m.memory.write({ gesture, at: T0 - (20 - i) * MIN });
  }

  it('skips with a clear message when no narrative has a vector', async () => {
    t = await tempMemory();
    await t.memory.write({ gesture: 'no embedder here' });
    const r = as(await t.memory.script('soft-clusters'), 'soft-clusters');
    expect(r.status).toBe('skipped');
    expect(r.status === 'skipped' && r.message).toMatch(/configure an embedder/);
    expect(await appContextOf(t.memory).store.forSpace('default').derived.softClusters()).toEqual([]);
  });

  it('clusters by meaning (Chinese and English), 3 memberships each, same clusters on every rebuild', async () => {
    t = await tempMemory({ config: { embedder: { provider: 'tideline', url: embed.url, attempts: 1 } } });
    await fill(t);
    const r = as(await t.memory.script('soft-clusters'), 'soft-clusters');
    if (r.status !== 'built') throw new Error(r.message);
    expect(r).toMatchObject({ model: 'tideline-local', dim: 8, narratives: 15, k: 5 });
    const members = await appContextOf(t.memory).store.forSpace('default').derived.softClusterMemberships();
    expect(members).toHaveLength(45);
    const group = new Map<number, number>();
    for (const n of await appContextOf(t.memory).store.forSpace('default').narratives.texts())
      group.set(
        n.id,
        GROUPS.findIndex(([re]) => re.test(n.content)),
      );
    // Each narrative's nearest cluster holds only narratives of its own meaning.
    const nearest = new Map<number, { cluster: number; distance: number }>();
    for (const m of members) {
      const cur = nearest.get(m.narrativeId);
      if (!cur || m.distance < cur.distance)
        nearest.set(m.narrativeId, { cluster: m.clusterId, distance: m.distance });
    }
    const meaningsOf = new Map<number, Set<number>>();
    for (const [id, { cluster }] of nearest)
      meaningsOf.set(cluster, (meaningsOf.get(cluster) ?? new Set()).add(group.get(id)!));
    for (const meanings of meaningsOf.values()) expect(meanings.size).toBe(1);
    const names = r.clusters.map((c) => c.name).join(' | ');
    expect(names).toMatch(/deploy/);
    expect(names).toMatch(/旅行/);
    expect(names).toMatch(/database/);

    const again = as(await t.memory.script('soft-clusters'), 'soft-clusters');
    if (again.status !== 'built') throw new Error(again.message);
    expect(again.clusters.map((c) => [c.name, c.memberCount])).toEqual(
      r.clusters.map((c) => [c.name, c.memberCount]),
    );
    expect((await appContextOf(t.memory).store.forSpace('default').derived.softClusters()).map((c) => c.name).sort()).toEqual(
      r.clusters.map((c) => c.name).sort(),
    );
  });
});

describe('script attention', () => {
  it("relabels the log by today's topic clusters and rebuilds the per-cluster stats", async () => {
    t = await tempMemory();
    for (let i = 0; i < 12; i++) {
      const g = i < 3 ? `the redis cache evicted keys again (${i})` : `routine standup number ${i}`;
      await t.memory.write({ gesture: g, at: T0 - (12 - i) * MIN });
    }
    await t.memory.recall({ query: 'redis cache' });
    t.clock.advance(MIN);
    await t.memory.recall({ query: 'redis' });
    await t.memory.script('topics');
    const r = as(await t.memory.script('attention', { days: 7 }), 'attention');
    expect(r.events).toBeGreaterThanOrEqual(2);
    const redis = r.heatmap.clusters.find(
      (c) => c.cluster === 'redis' || c.cluster === 'cache' || c.cluster === 'evicted' || c.cluster === 'key',
    );
    expect(redis).toBeDefined();
    const stats = await db(t).all<{ cluster: string; hit_count: number }>(
      'SELECT cluster, hit_count FROM attention_stats WHERE space = ? ORDER BY cluster',
      ['default'],
    );
    expect(stats.reduce((s, x) => s + Number(x.hit_count), 0)).toBe(r.events);
    expect(stats.map((s) => s.cluster)).toContain(redis!.cluster);
    expect(r.markdown).toContain('Attention, last 7 days');
    // Running it again rebuilds the same stats instead of adding to them.
    await t.memory.script('attention');
    const again = await db(t).all<{ cluster: string; hit_count: number }>(
      'SELECT cluster, hit_count FROM attention_stats WHERE space = ? ORDER BY cluster',
      ['default'],
    );
    expect(again).toEqual(stats);
  });
});

describe('script entity-graph', () => {
  it('builds nodes, role edges and co-occurrences that memory_graph reads, by entity, by pair and at the top', async () => {
    t = await tempMemory();
    await t.memory.write({
      gesture: '我们一起修好了同步服务',
      entities_role: 'A=判断+执行; 阿明(小明)=审查',
      at: T0 - 3 * MIN,
    });
    await t.memory.write({
      gesture: 'Ana reviewed the deploy',
      entities_role: 'Ana=review; A=lead',
      at: T0 - 2 * MIN,
    });
    await t.memory.write({ gesture: 'again with 阿明', entities_role: '阿明=审查; A=执行', at: T0 - MIN });
    const r = as(await t.memory.script('entity-graph'), 'entity-graph');
    expect(r).toMatchObject({ narratives: 3, nodes: 3, edges: 3, pairs: 2 });
    expect(r.top[0]).toMatchObject({ entity: 'A', mentionCount: 3 });
    const top = await readGraph(appContextOf(t.memory), {});
    expect(top.kind === 'top' && top.nodes.map((n) => [n.entity, n.mentionCount])).toEqual([
      ['A', 3],
      ['阿明', 2],
      ['Ana', 1],
    ]);
    const entity = await readGraph(appContextOf(t.memory), { entity: '阿明' });
    expect(entity.kind === 'entity' && entity.partners).toEqual([{ entity: 'A', count: 2 }]);
    const pair = await readGraph(appContextOf(t.memory), { pair: '阿明,A' });
    expect(pair.kind).toBe('pair');
    // Each role stays beside its own entity whatever order the pair was asked in (SEEDS T-15).
    if (pair.kind === 'pair') {
      expect(pair.edges.map((e) => [e.entityA, e.roleA, e.entityB, e.roleB])).toEqual([
        ['阿明', '审查', 'A', '执行'],
        ['A', '判断+执行', '阿明', '审查'],
      ]);
    }
    await t.memory.script('entity-graph');
    expect((await readGraph(appContextOf(t.memory), {})).kind === 'top').toBe(true);
    expect(
      await db(t).get<{ n: number }>('SELECT COUNT(*) AS n FROM graph_edges WHERE space = ?', ['default']),
    ).toEqual({ n: 3 });
  });
});

describe('script recurrence and normalize', () => {
  it('recurrence follows tag frequency with the write-time mapping; a second run changes nothing', async () => {
    t = await tempMemory();
    const ids: number[] = [];
    for (let i = 0; i < 4; i++)
      ids.push(
        Number(
          (
            await t.memory.write({ gesture: `sync note ${i}`, tags: ['sync'], at: T0 - (5 - i) * MIN })
          ).id.slice(1),
        ),
      );
    const lone = Number((await t.memory.write({ gesture: 'alone', tags: ['solo'], at: T0 })).id.slice(1));
    // Knock the stored scores off, as an old Tideline database or a bug would leave them.
    await appContextOf(t.memory).store.forSpace('default').narratives.writeScores(
      [...ids, lone].map((id) => ({ id, recurrence: 5 })),
    );
    const r = as(await t.memory.script('recurrence'), 'recurrence');
    expect(r.changed).toBe(5);
    const rows = await appContextOf(t.memory).store.forSpace('default').narratives.getMany([...ids, lone]);
    // 3 others share "sync" → 3; nobody shares "solo" → 1 (SEEDS §1.5.2: 0 / 1-2 / 3-5 / 6-10 / 11+).
    expect(rows.map((n) => [n.id, n.recurrence]).sort((a, b) => a[0]! - b[0]!)).toEqual([
      ...ids.map((id) => [id, 3]),
      [lone, 1],
    ]);
    expect(as(await t.memory.script('recurrence'), 'recurrence').changed).toBe(0);
  });

  it("normalize rescales the newest 50 to Tideline's average 0.6 (0.5 here) when they average above its 0.7, once", async () => {
    t = await tempMemory();
    for (let i = 0; i < 8; i++)
      await t.memory.write({
        gesture: `big moment ${i}`,
        importance: 5,
        emotional: 5,
        unresolved: 5,
        at: T0 - (8 - i) * MIN,
      });
    const ids = (await appContextOf(t.memory).store.forSpace('default').narratives.scoreRows()).map((n) => n.id);
    await appContextOf(t.memory).store.forSpace('default').narratives.writeScores(
      ids.map((id) => ({ id, weight: 0.9 })),
    );
    const r = as(await t.memory.script('normalize'), 'normalize');
    expect(r.changed).toBe(8);
    const weights = (await appContextOf(t.memory).store.forSpace('default').narratives.scoreRows()).map((n) => n.weight);
    expect(weights.reduce((a, b) => a + b, 0) / weights.length).toBeCloseTo(0.5, 3);
    expect(r.bands).toEqual({ high: 0, mid: 8, low: 0 });
    expect(as(await t.memory.script('normalize'), 'normalize').changed).toBe(0);
  });
});

describe('script scan', () => {
  it('reports the four tracks: unlinked narratives, unread chunks (≥ 3 turns, ≤ 10-minute gaps), missing embeddings', async () => {
    t = await tempMemory();
    const linked = await t.memory.record({
      turns: [{ role: 'user', content: 'already solidified', session: 'old', at: T0 - 60 * MIN }],
    });
    await t.memory.write({
      gesture: 'has links',
      source_links: [linked.ids[0]!.slice(1)],
      at: T0 - 30 * MIN,
    });
    const unlinked = await t.memory.write({ gesture: 'no links', at: T0 - 20 * MIN });
    t.clock.advance(MIN);
    const burst = (session: string, start: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        role: (i % 2 ? 'assistant' : 'user') as 'user',
        content: `${session} turn ${i}`,
        session,
        at: start + i * 2 * MIN,
      }));
    const a = await t.memory.record({ turns: burst('s-a', T0, 3) });
    await t.memory.record({ turns: burst('s-b', T0, 2) });
    // A gap over 10 minutes starts a new chunk: 3 + 3 turns in one session give two chunks.
    const c = await t.memory.record({ turns: [...burst('s-c', T0, 3), ...burst('s-c', T0 + 30 * MIN, 3)] });
    const r = as(await t.memory.script('scan'), 'scan');
    expect(r.scan.trackA).toEqual({ count: 1, narrativeIds: [Number(unlinked.id.slice(1))] });
    expect(r.scan.trackB.chunks.map((ch) => ch.episodeIds)).toEqual([
      a.ids.map((id) => Number(id.slice(1))),
      c.ids.slice(0, 3).map((id) => Number(id.slice(1))),
      c.ids.slice(3).map((id) => Number(id.slice(1))),
    ]);
    expect(r.scan.trackB.droppedTurns).toBe(2);
    expect(r.scan.trackC.count).toBe(2); // no embedder: every narrative waits for one
    expect(r.scan.trackD.count).toBe(12);
    expect(r.markdown).toContain(`context_ids: [${a.ids.map((id) => id.slice(1)).join(', ')}]`);
    expect(r.markdown).toContain('[ASSISTANT] s-a turn 1');
  });
});

describe('script backfill-links', () => {
  it('links a narrative to the episodes of ±2 h that share a keyword, and leaves linked narratives alone', async () => {
    t = await tempMemory();
    const near = await t.memory.record({
      turns: [
        { role: 'user', content: 'the kafka consumer lags behind', session: 's', at: T0 - 30 * MIN },
        { role: 'assistant', content: 'restarting the kafka broker', session: 's', at: T0 - 20 * MIN },
        { role: 'user', content: 'lunch plans?', session: 's', at: T0 - 10 * MIN },
        { role: 'user', content: 'kafka again, three hours later', session: 's', at: T0 + 180 * MIN },
      ],
    });
    const n = await t.memory.write({ gesture: 'I finally fixed the kafka lag', at: T0 });
    const other = await t.memory.write({ gesture: 'kafka was mentioned', source_links: ['99'], at: T0 });
    const r = as(await t.memory.script('backfill-links'), 'backfill-links');
    expect(r).toMatchObject({ unlinked: 1, linked: 1, links: 2 });
    const got = await appContextOf(t.memory).store.forSpace('default').narratives.get(Number(n.id.slice(1)));
    expect(got!.sourceLinks).toEqual(near.ids.slice(0, 2).map((id) => Number(id.slice(1))));
    expect(
      (await appContextOf(t.memory).store.forSpace('default').narratives.get(Number(other.id.slice(1))))!.sourceLinks,
    ).toEqual([99]);
    expect(as(await t.memory.script('backfill-links'), 'backfill-links')).toMatchObject({
      unlinked: 0,
      linked: 0,
    });
  });
});

describe('script all', () => {
  it('runs every job in order and a second run leaves the derived tables as they were', async () => {
    t = await tempMemory();
    for (let i = 0; i < 15; i++) {
      await t.memory.write({
        gesture: i % 5 === 0 ? `postgres vacuum stalled ${i}` : `weekly planning ${i}`,
        tags: i % 2 ? ['ops'] : ['plan'],
        entities_role: i % 5 === 0 ? 'Ana=lead; Ben=review' : undefined,
        at: T0 - (15 - i) * MIN,
      });
    }
    const seen: string[] = [];
    const first = await t.memory.scriptAll({}, (e) => seen.push(e.job));
    expect(first.ok).toBe(true);
    expect(seen).toEqual([
      'topics',
      'soft-clusters',
      'attention',
      'entity-graph',
      'recurrence',
      'normalize',
      'scan',
      'backfill-links',
    ]);
    const snapshot = async () => ({
      topics: await db(t!).all(
        'SELECT name, keywords, size, narrative_ids FROM topic_clusters WHERE space = ? ORDER BY name',
        ['default'],
      ),
      nodes: await db(t!).all('SELECT * FROM graph_nodes WHERE space = ? ORDER BY entity', ['default']),
      cooccur: await db(t!).all('SELECT * FROM graph_cooccur WHERE space = ? ORDER BY entity_a, entity_b', [
        'default',
      ]),
      weights: await db(t!).all(
        'SELECT id, recurrence, weight, source_links FROM narratives WHERE space = ? ORDER BY id',
        ['default'],
      ),
    });
    const before = await snapshot();
    expect(before.topics.length).toBeGreaterThan(0);
    expect(before.nodes).toHaveLength(2);
    expect((await t.memory.scriptAll()).ok).toBe(true);
    expect(await snapshot()).toEqual(before);
  });
});
