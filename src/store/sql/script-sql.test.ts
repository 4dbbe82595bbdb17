// The script area on SQLite and on PGlite (the PostgreSQL code path): bulk reads, rebuilds, updates, state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countWeightBands, WEIGHT_BANDS } from '../../core/weight-scale.js';
import type { NewEpisode, NewNarrative, Store } from '../port.js';
import { openPostgresStore } from '../postgres/open-postgres.js';
import { openSqliteStore } from '../sqlite/open-sqlite.js';
import { mergeRanges } from './script-sql.js';
import type { SqlStore } from './sql-store.js';

const T0 = Date.UTC(2026, 10, 1, 12);
const MIN = 60_000;

function narrative(gesture: string, o: Partial<NewNarrative> = {}): NewNarrative {
  return {
    kind: 'narrative',
    ntype: 'general',
    content: gesture,
    gesture,
    context: null,
    moment: null,
    cognitionDirection: null,
    tags: [],
    entitiesRole: null,
    relatedEntities: [],
    sourceLinks: [],
    importance: 3,
    emotional: 3,
    recurrence: 3,
    unresolved: 3,
    weight: 0.5,
    createdAt: T0,
    embedPending: false,
    index: { body: gesture, extra: '', raw: gesture },
    ...o,
  };
}

function episode(content: string, o: Partial<NewEpisode> = {}): NewEpisode {
  return {
    kind: 'turn',
    role: 'user',
    speaker: null,
    content,
    session: 's1',
    tool: null,
    ok: null,
    source: 'test',
    ref: null,
    meta: {},
    durable: false,
    occurredAt: T0,
    createdAt: T0,
    embedPending: false,
    index: { body: content, extra: '', raw: content },
    ...o,
  };
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
      await store.narratives.insert(
        'a',
        narrative('first', { tags: ['x'], entitiesRole: 'A=lead; B=review', weight: 0.9 }),
      ),
    );
    ids.push(
      await store.narratives.insert(
        'a',
        narrative('second', { sourceLinks: [7], createdAt: T0 + MIN, embedPending: true, weight: 0.5 }),
      ),
    );
    ids.push(
      await store.narratives.insert('a', narrative('third', { createdAt: T0 + 2 * MIN, weight: 0.1 })),
    );
    await store.narratives.insert('b', narrative('other space', { tags: ['x'], entitiesRole: 'C=solo' }));
  });
  afterAll(async () => store?.close());

  it('reads only the columns each job needs, filtered as asked, within the space', async () => {
    expect((await store.script.narrativeTexts('a')).map((n) => n.content)).toEqual([
      'first',
      'second',
      'third',
    ]);
    expect((await store.script.narrativeTexts('a', { unlinked: true })).map((n) => n.id)).toEqual([
      ids[0],
      ids[2],
    ]);
    expect(await store.script.narrativeRoles('a')).toEqual([
      { id: ids[0], entitiesRole: 'A=lead; B=review', createdAt: T0 },
    ]);
    expect((await store.script.narrativeScores('a', { tagged: true })).map((n) => [n.id, n.tags])).toEqual([
      [ids[0], ['x']],
    ]);
    expect((await store.script.narrativeScores('a', { newest: 2 })).map((n) => n.id)).toEqual([
      ids[1],
      ids[2],
    ]);
    expect(await store.script.narrativeLinks('a')).toEqual([
      { id: ids[0], sourceLinks: [], createdAt: T0, embedPending: false },
      { id: ids[1], sourceLinks: [7], createdAt: T0 + MIN, embedPending: true },
      { id: ids[2], sourceLinks: [], createdAt: T0 + 2 * MIN, embedPending: false },
    ]);
    expect(await store.script.weightBands('a')).toEqual({ high: 1, mid: 1, low: 1 });
    expect(await store.script.weightBands('empty')).toEqual({ high: 0, mid: 0, low: 0 });
  });

  it('counts weight bands in SQL exactly as the one JS table does, at and beside every boundary', async () => {
    await store.spaces.ensure('bands', T0);
    const weights = [0, 0.2499, 0.25, 0.5, 0.6249, 0.625, 1, ...WEIGHT_BANDS.map((b) => b.min).filter(Number.isFinite)];
    for (const [i, weight] of weights.entries()) await store.narratives.insert('bands', narrative(`b${i}`, { weight }));
    expect(await store.script.weightBands('bands')).toEqual(countWeightBands(weights));
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
      tx.script.replaceTopicClusters('a', [row('数据库', [1, 2, 3]), row('sync', [2, 3, 4])]),
    );
    await store.transaction((tx) => tx.script.replaceTopicClusters('b', [row('other', [9])]));
    await store.transaction((tx) => tx.script.replaceTopicClusters('a', [row('连接池', [1, 2, 3])]));
    expect((await store.derived.topicClusters('a', { minSize: 1, limit: 10 })).map((c) => c.name)).toEqual([
      '连接池',
    ]);
    await store.script.upsertTopicClusters('a', [row('连接池', [5, 6, 7, 8]), row('new', [1])]);
    const got = await store.derived.topicClusters('a', { minSize: 1, limit: 10 });
    expect(got.map((c) => [c.name, c.size, c.narrativeIds])).toEqual([
      ['连接池', 4, [5, 6, 7, 8]],
      ['new', 1, [1]],
    ]);
    expect((await store.derived.topicClusters('b', { minSize: 1, limit: 10 })).map((c) => c.name)).toEqual([
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
      tx.script.replaceSoftClusters(
        'a',
        { ...build, clusters: [build.clusters[0]!], memberships: [], adjacency: [] },
        T0,
      ),
    );
    const second = await store.transaction((tx) => tx.script.replaceSoftClusters('a', build, T0 + 1));
    expect(second).toHaveLength(2);
    const model = await store.script.softClusterModel('a');
    expect(model.clusters.map((c) => [c.id, c.name, Array.from(c.centroid ?? [])])).toEqual([
      [second[0], 'alpha', [1, 0, 0]],
      [second[1], 'beta', [0, 1, 0]],
    ]);
    expect(model.adjacency).toEqual([{ a: second[0], b: second[1], shared: 1 }]);
    const members = await store.script.softClusterMemberships('a', { clusterIds: [second[1]!] });
    expect(members.map((m) => m.narrativeId)).toEqual([ids[2], ids[1]]);
    expect(await store.script.softClusterMemberships('a')).toHaveLength(4);
    expect((await store.derived.softClusters('a')).map((c) => [c.name, c.memberCount, c.degree])).toEqual([
      ['alpha', 2, 1],
      ['beta', 2, 1],
    ]);
    await store.transaction((tx) =>
      tx.script.replaceAttentionStats(
        'a',
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
    await store.transaction((tx) => tx.script.replaceEntityGraph('a', graph));
    await store.transaction((tx) => tx.script.replaceEntityGraph('a', graph));
    expect((await store.derived.graphNodes('a', 10)).map((n) => [n.entity, n.mentionCount])).toEqual([
      ['A', 2],
      ['B', 1],
    ]);
    expect(await store.derived.graphPairEdges('a', 'A', 'B', 10)).toEqual([
      { entityA: 'B', roleA: 'review', entityB: 'A', roleB: null, narrativeId: 1, createdAt: T0 },
    ]);
    expect(await store.derived.graphPartners('a', 'A', 10)).toEqual([{ entity: 'B', count: 1 }]);
  });

  it('updates scores partially and fills only links that are still empty', async () => {
    expect(
      await store.script.updateScores('a', [
        { id: ids[0]!, recurrence: 5 },
        { id: ids[2]!, weight: 0.75 },
      ]),
    ).toBe(2);
    const n0 = await store.narratives.get('a', ids[0]!);
    const n2 = await store.narratives.get('a', ids[2]!);
    expect([n0!.recurrence, n0!.weight, n2!.recurrence, n2!.weight]).toEqual([5, 0.9, 3, 0.75]);
    expect(await store.script.updateScores('b', [{ id: ids[0]!, weight: 0.1 }])).toBe(0);
    expect(
      await store.script.fillSourceLinks('a', [
        { narrativeId: ids[1]!, sourceLinks: [1] },
        { narrativeId: ids[2]!, sourceLinks: [3, 4] },
      ]),
    ).toBe(1);
    expect((await store.narratives.get('a', ids[1]!))!.sourceLinks).toEqual([7]);
    expect((await store.narratives.get('a', ids[2]!))!.sourceLinks).toEqual([3, 4]);
  });

  it('reads episodes by storage time and by event-time ranges, pending embeddings and refs', async () => {
    const { ids: eps } = await store.episodes.insertMany('a', [
      episode('old', { occurredAt: T0 - 60 * MIN, createdAt: T0, ref: 'r:1' }),
      episode('new', { occurredAt: T0 + 5 * MIN, createdAt: T0 + 10 * MIN, embedPending: true, ref: 'r:2' }),
      episode('done', { occurredAt: T0 + 6 * MIN, createdAt: T0 + 10 * MIN, consolidatedAt: T0 + 11 * MIN }),
    ]);
    expect((await store.script.episodesStoredAfter('a', T0)).map((e) => e.content)).toEqual(['new']);
    expect((await store.script.episodesStoredAfter('a', null)).map((e) => e.content)).toEqual(['old', 'new']);
    const inRanges = await store.script.episodesInRanges('a', [
      [T0 + 4 * MIN, T0 + 7 * MIN],
      [T0 + 6 * MIN, T0 + 8 * MIN],
      [T0 - 61 * MIN, T0 - 59 * MIN],
    ]);
    expect(inRanges.map((e) => e.content)).toEqual(['old', 'new', 'done']);
    expect(await store.script.pendingEmbeddings('a', 'episode', 10)).toEqual({ count: 1, ids: [eps[1]] });
    const refs = await store.script.episodeIdsByRef('a', ['r:1', 'r:2', 'r:missing']);
    expect([...refs]).toEqual([
      ['r:1', eps[0]],
      ['r:2', eps[1]],
    ]);
    expect((await store.script.episodeIdsByRef('b', ['r:1'])).size).toBe(0);
  });

  it('keeps a JSON state per space and key', async () => {
    expect(await store.script.getState('a', 'import:tideline:x.db')).toBeUndefined();
    await store.script.putState('a', 'import:tideline:x.db', { narratives: { '1': 5 } }, T0);
    await store.script.putState('a', 'import:tideline:x.db', { narratives: { '1': 6 } }, T0 + 1);
    expect(await store.script.getState('a', 'import:tideline:x.db')).toEqual({ narratives: { '1': 6 } });
    expect(await store.script.getState('b', 'import:tideline:x.db')).toBeUndefined();
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
