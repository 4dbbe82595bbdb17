import { describe, expect, it } from 'vitest';
import { mulberry32 } from './seeded-rng.js';
import {
  buildSoftClusters,
  clusterName,
  routeQuery,
  softClusterCount,
  type SoftItem,
} from './soft-clusters.js';

/** Three topics in 12-d space, 10 narratives each; item i belongs to topic i % 3, weighs less the later it comes. */
function topicItems(): SoftItem[] {
  const rng = mulberry32(11);
  const topics = [
    { axis: 0, gesture: '我调通了数据库连接池' },
    { axis: 4, gesture: 'we went camping at the beach' },
    { axis: 8, gesture: '阿明审查了我的判断' },
  ];
  return Array.from({ length: 30 }, (_, i) => {
    const t = topics[i % 3]!;
    const v = Array.from({ length: 12 }, () => (rng() - 0.5) * 0.2);
    v[t.axis] = 1;
    v[t.axis + 1] = 0.5;
    return { id: 100 + i, vector: v, gesture: `${t.gesture} ${i}`, weight: 1 - i / 100 };
  });
}

describe('softClusterCount', () => {
  it('is min(N, max(5, ⌊1.5·√N⌋))', () => {
    expect(softClusterCount(3)).toBe(3);
    expect(softClusterCount(10)).toBe(5);
    expect(softClusterCount(100)).toBe(15);
    expect(softClusterCount(100_000)).toBe(474);
  });
});

describe('buildSoftClusters', () => {
  const items = topicItems();
  const built = buildSoftClusters(items, { k: 3, rng: mulberry32(42) });

  it('puts each topic in its own cluster, named after its 3 heaviest members’ gestures', () => {
    const primary = new Map(
      built.memberships.filter((m) => m.rank === 0).map((m) => [m.narrativeId, m.cluster]),
    );
    for (let t = 0; t < 3; t++) {
      const clusters = new Set(items.filter((_, i) => i % 3 === t).map((it) => primary.get(it.id)));
      expect(clusters.size).toBe(1);
    }
    expect(built.clusters.map((c) => c.name).sort()).toEqual(
      [
        '我调通了数据库连接池 0 / 我调通了数据库连接池 3 / 我调通了数据库连接池 6',
        'we went camping at the beach 1 / we went camping at the beach 4 / we went camping at the beach 7',
        '阿明审查了我的判断 2 / 阿明审查了我的判断 5 / 阿明审查了我的判断 8',
      ].sort(),
    );
    for (const c of built.clusters) expect(c.primaryCount).toBe(10);
  });

  it('gives every narrative its 3 nearest clusters with distance = 1 − cos, nearest first', () => {
    expect(built.memberships).toHaveLength(30 * 3);
    const mine = built.memberships.filter((m) => m.narrativeId === 100);
    expect(mine.map((m) => m.rank)).toEqual([0, 1, 2]);
    expect(mine[0]!.distance).toBeLessThan(mine[1]!.distance);
    expect(mine[0]!.distance).toBeGreaterThanOrEqual(0);
    for (const c of built.clusters) expect(c.memberCount).toBe(30);
  });

  it('counts shared members per cluster pair in the adjacency', () => {
    // With k = 3 every narrative holds all three clusters: each pair shares all 30.
    expect(built.adjacency).toEqual([
      { a: 0, b: 1, shared: 30 },
      { a: 0, b: 2, shared: 30 },
      { a: 1, b: 2, shared: 30 },
    ]);
  });

  it('is deterministic for the same seed', () => {
    const again = buildSoftClusters(items, { k: 3, rng: mulberry32(42) });
    expect(again).toEqual(built);
  });

  it('defaults k to max(5, ⌊1.5·√N⌋)', () => {
    const r = buildSoftClusters(items, { rng: mulberry32(42) });
    expect(r.k).toBe(8);
    expect(r.clusters).toHaveLength(8);
    const shared = r.adjacency.reduce((s, e) => s + e.shared, 0);
    expect(shared).toBe(30 * 3); // three pairs among each narrative's three clusters
  });

  it('falls back to a numbered name when members carry no gesture', () => {
    const bare = items.map((i) => ({ id: i.id, vector: i.vector }));
    const r = buildSoftClusters(bare, { k: 3, rng: mulberry32(42) });
    expect(r.clusters.map((c) => c.name)).toEqual(['cluster 1', 'cluster 2', 'cluster 3']);
  });
});

describe('clusterName', () => {
  it('takes the first 30 characters of the gestures of the 3 heaviest among the 5 heaviest (SEEDS §1.7)', () => {
    const m = (id: number, weight: number, gesture?: string) => ({ id, weight, ...(gesture !== undefined ? { gesture } : {}) });
    const long = 'a gesture that runs on well past thirty characters';
    expect(
      clusterName([m(1, 0.2, 'light'), m(2, 0.9, long), m(3, 0.9, 'tie, higher id'), m(4, 0.95, '最重的一条'), m(5, 0.1, 'lightest')]),
    ).toBe(`最重的一条 / ${long.slice(0, 30).trim()} / tie, higher id`);
    // Members past the 5 heaviest never name it, even when heavier ones have no gesture.
    const bare = [1, 2, 3, 4, 5].map((id) => m(id, 0.9));
    expect(clusterName([...bare, m(6, 0.1, 'too light'), m(7, 0.8, 'sixth heaviest')])).toBeUndefined();
    expect(clusterName([...bare.slice(0, 4), m(6, 0.1, 'fifth heaviest')])).toBe('fifth heaviest');
  });
});

describe('routeQuery', () => {
  const clusters = [0, 1, 2, 3, 4].map((index) => ({
    index,
    centroid: Array.from({ length: 5 }, (_, q) => (q === index ? 1 : 0)),
  }));
  const adjacency = [
    { a: 0, b: 3, shared: 7 },
    { a: 0, b: 4, shared: 2 },
    { a: 1, b: 4, shared: 5 },
    { a: 2, b: 3, shared: 1 },
  ];

  it('hits the nearest clusters and spreads one hop to their strongest neighbours', () => {
    const r = routeQuery([1, 0.5, 0, 0, 0], clusters, adjacency, { top: 2, neighbours: 1 });
    expect(r.hits.map((h) => h.cluster)).toEqual([0, 1]);
    expect(r.hits[0]!.similarity).toBeCloseTo(1 / Math.sqrt(1.25), 5);
    expect(r.spread).toEqual([
      { cluster: 3, via: 0, shared: 7 },
      { cluster: 4, via: 1, shared: 5 },
    ]);
  });

  it('never spreads to a cluster already reached', () => {
    const r = routeQuery([1, 0, 0, 0.9, 0], clusters, adjacency, { top: 2 });
    expect(r.hits.map((h) => h.cluster)).toEqual([0, 3]);
    expect(r.spread.map((s) => s.cluster)).toEqual([4, 2]);
  });
});
