/** One-hop routing over the stored soft clusters: which narratives a query reaches through its nearest clusters. */
import { routeQuery } from '../script/soft-clusters.js';
import type { Store } from '../store/port.js';

/** SEEDS §1.7 `route`: the 3 clusters nearest the query, then at most 3 neighbours of each by shared members. */
const ROUTE = { top: 3, neighbours: 3 } as const;

/**
 * Narrative ids of the clusters a query vector routes to, best first: the hit clusters in order of similarity,
 * then the clusters reached in one hop; inside a cluster, members nearest its centroid first. Clusters whose
 * centroid has another dimension than the query (built with another model) are not considered.
 */
export async function routedNarratives(
  store: Store,
  space: string,
  query: Float32Array,
  limit: number,
): Promise<number[]> {
  const model = await store.forSpace(space).derived.softClusterModel();
  const clusters = model.clusters
    .filter((c) => c.centroid !== null && c.centroid.length === query.length)
    .map((c) => ({ index: c.id, centroid: Array.from(c.centroid!) }));
  if (clusters.length === 0 || limit <= 0) return [];
  const route = routeQuery(query, clusters, model.adjacency, ROUTE);
  const order = [...route.hits.map((h) => h.cluster), ...route.spread.map((s) => s.cluster)];
  const members = await store.forSpace(space).derived.softClusterMemberships({ clusterIds: order });
  const byCluster = new Map<number, number[]>();
  for (const m of members) {
    const list = byCluster.get(m.clusterId);
    if (list) list.push(m.narrativeId);
    else byCluster.set(m.clusterId, [m.narrativeId]);
  }
  const out: number[] = [];
  const seen = new Set<number>();
  for (const c of order) {
    for (const id of byCluster.get(c) ?? []) {
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(id);
      if (out.length >= limit) return out;
    }
  }
  return out;
}
