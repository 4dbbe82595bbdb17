// One-hop routing over stored soft clusters, on a real SQLite store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/port.js';
import { openSqliteStore } from '../store/sqlite/open-sqlite.js';
import { routedNarratives } from './cluster-route.js';

const axis = (i: number, dim = 4) => Array.from({ length: dim }, (_, q) => (q === i ? 1 : 0));

describe('routedNarratives', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openSqliteStore(':memory:');
    // Clusters 0-3 on the axes; 4 and 5 point away from every query below. 0 neighbours 4 (shared 9) and 1 (2).
    const centroids = [axis(0), axis(1), axis(2), axis(3), [-1, 0, 0, -0.1], [0, -1, -1, -1]];
    await store.transaction((tx) =>
      tx.forSpace('s').derived.replaceSoftClusters(
        {
          clusters: centroids.map((centroid, i) => ({ name: `c${i}`, centroid, memberCount: 2 })),
          memberships: centroids.flatMap((_, i) => [
            { narrativeId: 100 + i * 10 + 1, cluster: i, distance: 0.2 },
            { narrativeId: 100 + i * 10, cluster: i, distance: 0.1 },
          ]),
          adjacency: [
            { a: 0, b: 4, shared: 9 },
            { a: 0, b: 1, shared: 2 },
          ],
        },
        1,
      ),
    );
  });
  afterAll(async () => store?.close());

  it("returns the hit clusters' members nearest first, then the clusters one hop away, never an unconnected one", async () => {
    const ids = await routedNarratives(store, 's', Float32Array.from([1, 0.5, 0.2, 0]), 100);
    // Hits by similarity: c0, c1, c2; one hop from c0 reaches c4 (c1 is already a hit); c3 and c5 are not reached.
    expect(ids).toEqual([100, 101, 110, 111, 120, 121, 140, 141]);
  });

  it('stops at the limit and ignores clusters of another dimension', async () => {
    expect(await routedNarratives(store, 's', Float32Array.from([1, 0.5, 0.2, 0]), 3)).toEqual([
      100, 101, 110,
    ]);
    expect(await routedNarratives(store, 's', Float32Array.from([1, 0, 0]), 10)).toEqual([]);
    expect(await routedNarratives(store, 'other', Float32Array.from([1, 0, 0, 0]), 10)).toEqual([]);
  });
});
