// The script jobs' store reads and rebuilds on SQLite and on PGlite (the PostgreSQL code path): bulk reads, rebuilds, updates, state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countWeightBands, WEIGHT_BANDS } from '../../core/weight-scale.js';
import type { NewEpisode, NewNarrative, Store } from '../port.js';
import { openPostgresStore } from '../postgres/open-postgres.js';
import { openSqliteStore } from '../sqlite/open-sqlite.js';
import { mergeRanges } from './episode-sql.js';
import type { SqlStore } from './sql-store.js';
import { newEpisodeRow, newNarrativeRow } from '../../../test/helpers/store-rows.js';

const T0 = Date.UTC(2026, 10, 1, 12);
const MIN = 60_000;

function narrative(gesture: string, o: Partial<NewNarrative> = {}): NewNarrative {
  return newNarrativeRow(gesture, T0, o);
}

function episode(content: string, o: Partial<NewEpisode> = {}): NewEpisode {
  return newEpisodeRow(content, T0, o);
}

const ENGINES: Array<[string, () => Promise<Store>]> = [
  ['SQLite', () => openSqliteStore(':memory:')],
  ['PGlite', () => openPostgresStore('pglite://memory')],
];

describe.each(ENGINES)('script store on %s', (_name, open) => {
  let store: Store;
  const ids: number[] = [];
  beforeAll(async () => {
    store = await open();
    for (const s of ['a', 'b']) await store.spaces.ensure(s, T0);
    ids.push(
      await store.forSpace('a').narratives.insert(
        narrative('first', { tags: ['x'], entitiesRole: 'A=lead; B=review', weight: 0.9 }),
      ),
    );
    ids.push(
      await store.forSpace('a').narratives.insert(
        narrative('second', { sourceLinks: [7], createdAt: T0 + MIN, embedPending: true, weight: 0.5 }),
      ),
    );
    ids.push(
      await store.forSpace('a').narratives.insert(narrative('third', { createdAt: T0 + 2 * MIN, weight: 0.1 })),
    );
    await store.forSpace('b').narratives.insert(narrative('other space', { tags: ['x'], entitiesRole: 'C=solo' }));
  });
  afterAll(async () => store?.close());

  it('reads only the columns each job needs, filtered as asked, within the space', async () => {
    expect((await store.forSpace('a').narratives.texts()).map((n) => n.content)).toEqual([
      'first',
      'second',
      'third',
    ]);
    expect((await store.forSpace('a').narratives.texts({ unlinked: true })).map((n) => n.id)).toEqual([
      ids[0],
      ids[2],
    ]);
    expect(await store.forSpace('a').narratives.roles()).toEqual([
      { id: ids[0], entitiesRole: 'A=lead; B=review', createdAt: T0 },
    ]);
    expect((await store.forSpace('a').narratives.scoreRows({ tagged: true })).map((n) => [n.id, n.tags])).toEqual([
      [ids[0], ['x']],
    ]);
    expect((await store.forSpace('a').narratives.scoreRows({ newest: 2 })).map((n) => n.id)).toEqual([
      ids[1],
      ids[2],
    ]);
    expect(await store.forSpace('a').narratives.linkRows()).toEqual([
      { id: ids[0], sourceLinks: [], createdAt: T0, embedPending: false },
      { id: ids[1], sourceLinks: [7], createdAt: T0 + MIN, embedPending: true },
      { id: ids[2], sourceLinks: [], createdAt: T0 + 2 * MIN, embedPending: false },
    ]);
    expect(await store.forSpace('a').narratives.weightBands()).toEqual({ high: 1, mid: 1, low: 1 });
    expect(await store.forSpace('empty').narratives.weightBands()).toEqual({ high: 0, mid: 0, low: 0 });
  });

  it('counts weight bands in SQL exactly as the one JS table does, at and beside every boundary', async () => {
    await store.spaces.ensure('bands', T0);
    const weights = [0, 0.2499, 0.25, 0.5, 0.6249, 0.625, 1, ...WEIGHT_BANDS.map((b) => b.min).filter(Number.isFinite)];
    for (const [i, weight] of weights.entries()) await store.forSpace('bands').narratives.insert(narrative(`b${i}`, { weight }));
    expect(await store.forSpace('bands').narratives.weightBands()).toEqual(countWeightBands(weights));
    // Tideline's high ≥ 0.7 and mid ≥ 0.4 on our scale (core/weight-scale).
    expect(countWeightBands(weights)).toEqual({ high: 3, mid: 4, low: 2 });
  });

  it('replaces topic clusters wholesale and upserts by name', async () => {
    const row = (name: string, narrativeIds: number[]) => ({
      name,
      keywords: [name],
      size: narrativeIds.length,
      narrativeIds,
      lastActive: T0,
      avgWeight: 0.5,
    });
    await store.transaction((tx) =>
      tx.forSpace('a').derived.replaceTopicClusters([row('数据库', [1, 2, 3]), row('sync', [2, 3, 4])]),
    );
    await store.transaction((tx) => tx.forSpace('b').derived.replaceTopicClusters([row('other', [9])]));
    await store.transaction((tx) => tx.forSpace('a').derived.replaceTopicClusters([row('连接池', [1, 2, 3])]));
    expect((await store.forSpace('a').derived.topicClusters({ minSize: 1, limit: 10 })).map((c) => c.name)).toEqual([
      '连接池',
    ]);
    await store.forSpace('a').derived.upsertTopicClusters([row('连接池', [5, 6, 7, 8]), row('new', [1])]);
    const got = await store.forSpace('a').derived.topicClusters({ minSize: 1, limit: 10 });
    expect(got.map((c) => [c.name, c.size, c.narrativeIds])).toEqual([
      ['连接池', 4, [5, 6, 7, 8]],
      ['new', 1, [1]],
    ]);
    expect((await store.forSpace('b').derived.topicClusters({ minSize: 1, limit: 10 })).map((c) => c.name)).toEqual([
      'other',
    ]);
  });

  it('replaces soft clusters with fresh ids, members and adjacency, and reads back the routing model', async () => {
    const build = {
      clusters: [
        { name: 'alpha', centroid: [1, 0, 0], memberCount: 2 },
        { name: 'beta', centroid: [0, 1, 0], memberCount: 2 },
      ],
      memberships: [
        { narrativeId: ids[0]!, cluster: 0, distance: 0.1 },
        { narrativeId: ids[1]!, cluster: 0, distance: 0.3 },
        { narrativeId: ids[1]!, cluster: 1, distance: 0.2 },
        { narrativeId: ids[2]!, cluster: 1, distance: 0.05 },
      ],
      adjacency: [{ a: 0, b: 1, shared: 1 }],
    };
    await store.transaction((tx) =>
      tx.forSpace('a').derived.replaceSoftClusters(
        { ...build, clusters: [build.clusters[0]!], memberships: [], adjacency: [] },
        T0,
      ),
    );
    const second = await store.transaction((tx) => tx.forSpace('a').derived.replaceSoftClusters(build, T0 + 1));
    expect(second).toHaveLength(2);
    const model = await store.forSpace('a').derived.softClusterModel();
    expect(model.clusters.map((c) => [c.id, c.name, Array.from(c.centroid ?? [])])).toEqual([
      [second[0], 'alpha', [1, 0, 0]],
      [second[1], 'beta', [0, 1, 0]],
    ]);
    expect(model.adjacency).toEqual([{ a: second[0], b: second[1], shared: 1 }]);
    const members = await store.forSpace('a').derived.softClusterMemberships({ clusterIds: [second[1]!] });
    expect(members.map((m) => m.narrativeId)).toEqual([ids[2], ids[1]]);
    expect(await store.forSpace('a').derived.softClusterMemberships()).toHaveLength(4);
    expect((await store.forSpace('a').derived.softClusters()).map((c) => [c.name, c.memberCount, c.degree])).toEqual([
      ['alpha', 2, 1],
      ['beta', 2, 1],
    ]);
    await store.transaction((tx) =>
      tx.forSpace('a').derived.replaceAttentionStats(
        [{ cluster: 'alpha', hitCount: 3, lastHit: T0, lastItemId: ids[0]! }],
        [{ clusterId: second[0]!, hits: 3 }],
      ),
    );
    const hits = await (store as SqlStore).db.all<{ name: string; total_hits: unknown }>(
      'SELECT name, total_hits FROM emb_clusters WHERE space = ? ORDER BY id',
      ['a'],
    );
    expect(hits.map((h) => [h.name, Number(h.total_hits)])).toEqual([
      ['alpha', 3],
      ['beta', 0],
    ]);
  });

  it('replaces the entity graph and stores an empty role as NULL', async () => {
    const graph = {
      nodes: [
        { entity: 'A', mentionCount: 2, firstSeen: T0, lastSeen: T0 + 1 },
        { entity: 'B', mentionCount: 1, firstSeen: T0, lastSeen: T0 },
      ],
      edges: [{ entityA: 'B', roleA: 'review', entityB: 'A', roleB: '', narrativeId: 1, createdAt: T0 }],
      cooccur: [{ entityA: 'A', entityB: 'B', count: 1 }],
    };
    await store.transaction((tx) => tx.forSpace('a').derived.replaceEntityGraph(graph));
    await store.transaction((tx) => tx.forSpace('a').derived.replaceEntityGraph(graph));
    expect((await store.forSpace('a').derived.graphNodes(10)).map((n) => [n.entity, n.mentionCount])).toEqual([
      ['A', 2],
      ['B', 1],
    ]);
    expect(await store.forSpace('a').derived.graphPairEdges('A', 'B', 10)).toEqual([
      { entityA: 'B', roleA: 'review', entityB: 'A', roleB: null, narrativeId: 1, createdAt: T0 },
    ]);
    expect(await store.forSpace('a').derived.graphPartners('A', 10)).toEqual([{ entity: 'B', count: 1 }]);
  });

  it('updates scores partially and fills only links that are still empty', async () => {
    expect(
      await store.forSpace('a').narratives.writeScores([
        { id: ids[0]!, recurrence: 5 },
        { id: ids[2]!, weight: 0.75 },
      ]),
    ).toBe(2);
    const n0 = await store.forSpace('a').narratives.get(ids[0]!);
    const n2 = await store.forSpace('a').narratives.get(ids[2]!);
    expect([n0!.recurrence, n0!.weight, n2!.recurrence, n2!.weight]).toEqual([5, 0.9, 3, 0.75]);
    expect(await store.forSpace('b').narratives.writeScores([{ id: ids[0]!, weight: 0.1 }])).toBe(0);
    expect(
      await store.forSpace('a').narratives.fillSourceLinks([
        { narrativeId: ids[1]!, sourceLinks: [1] },
        { narrativeId: ids[2]!, sourceLinks: [3, 4] },
      ]),
    ).toBe(1);
    expect((await store.forSpace('a').narratives.get(ids[1]!))!.sourceLinks).toEqual([7]);
    expect((await store.forSpace('a').narratives.get(ids[2]!))!.sourceLinks).toEqual([3, 4]);
  });

  it('reads episodes by storage time and by event-time ranges, pending embeddings and refs', async () => {
    const { ids: eps } = await store.forSpace('a').episodes.insertMany([
      episode('old', { occurredAt: T0 - 60 * MIN, createdAt: T0, ref: 'r:1' }),
      episode('new', { occurredAt: T0 + 5 * MIN, createdAt: T0 + 10 * MIN, embedPending: true, ref: 'r:2' }),
      episode('done', { occurredAt: T0 + 6 * MIN, createdAt: T0 + 10 * MIN, consolidatedAt: T0 + 11 * MIN }),
    ]);
    expect((await store.forSpace('a').episodes.storedAfter(T0)).map((e) => e.content)).toEqual(['new']);
    expect((await store.forSpace('a').episodes.storedAfter(null)).map((e) => e.content)).toEqual(['old', 'new']);
    const inRanges = await store.forSpace('a').episodes.inRanges([
      [T0 + 4 * MIN, T0 + 7 * MIN],
      [T0 + 6 * MIN, T0 + 8 * MIN],
      [T0 - 61 * MIN, T0 - 59 * MIN],
    ]);
    expect(inRanges.map((e) => e.content)).toEqual(['old', 'new', 'done']);
    expect(await store.forSpace('a').vectors.pendingEmbeddings('episode', 10)).toEqual({ count: 1, ids: [eps[1]] });
    const refs = await store.forSpace('a').episodes.idsByRef(['r:1', 'r:2', 'r:missing']);
    expect([...refs]).toEqual([
      ['r:1', eps[0]],
      ['r:2', eps[1]],
    ]);
    expect((await store.forSpace('b').episodes.idsByRef(['r:1'])).size).toBe(0);
  });

  it('keeps a JSON state per space and key', async () => {
    expect(await store.forSpace('a').state.get('import:tideline:x.db')).toBeUndefined();
    await store.forSpace('a').state.put('import:tideline:x.db', { narratives: { '1': 5 } }, T0);
    await store.forSpace('a').state.put('import:tideline:x.db', { narratives: { '1': 6 } }, T0 + 1);
    expect(await store.forSpace('a').state.get('import:tideline:x.db')).toEqual({ narratives: { '1': 6 } });
    expect(await store.forSpace('b').state.get('import:tideline:x.db')).toBeUndefined();
  });
});

describe('mergeRanges', () => {
  it('joins overlapping and touching ranges, keeps gaps and drops inverted ones', () => {
    expect(
      mergeRanges([
        [5, 6],
        [1, 3],
        [3, 4],
        [10, 12],
        [11, 11],
        [9, 2],
      ]),
    ).toEqual([
      [1, 4],
      [5, 6],
      [10, 12],
    ]);
    expect(mergeRanges([])).toEqual([]);
  });
});
