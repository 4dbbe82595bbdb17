/** Soft clusters in embedding space: top-3 membership, names, adjacency and one-hop routing (SEEDS §1.7). */
import { TidepoolError } from '../core/errors.js';
import { cosineKMeans, type CosineKMeansOptions } from './cosine-kmeans.js';

/** A narrative reduced to what soft clustering reads. */
export interface SoftItem {
  id: number;
  vector: ArrayLike<number>;
  /** The narrative's gesture (its content when it has none); the heaviest members' name their cluster. */
  gesture?: string;
  /** The narrative's weight; orders the members that name a cluster. */
  weight?: number;
}

/** One cluster, ready to store (Tideline `emb_clusters`). */
export interface SoftCluster {
  /** Position in this build, 0..k-1. Stores assign their own ids; see {@link SoftClustering}. */
  index: number;
  /** {@link clusterName}: the heaviest members' gestures, or `cluster <index+1>` when members have none. */
  name: string;
  /** The unnormalised mean of the unit vectors assigned to it in the fit (SEEDS §1.7). */
  centroid: number[];
  /** Narratives holding this cluster among their nearest 3. */
  memberCount: number;
  /** Narratives whose nearest cluster this is. */
  primaryCount: number;
}

/** One soft membership (Tideline `emb_cluster_members`). */
export interface SoftMembership {
  narrativeId: number;
  cluster: number;
  /** 1 − cosine to the centroid. */
  distance: number;
  /** 0 for the nearest cluster, 1 and 2 for the next. */
  rank: number;
}

/** Shared members of two clusters, a < b (Tideline `emb_cluster_adjacency`). */
export interface ClusterAdjacency {
  a: number;
  b: number;
  shared: number;
}

/** A whole build. Cluster indexes are positions in `clusters`; they are not stable across rebuilds (SEEDS T-13). */
export interface SoftClustering {
  k: number;
  clusters: SoftCluster[];
  memberships: SoftMembership[];
  adjacency: ClusterAdjacency[];
  iterations: number;
  converged: boolean;
  fittedOn: number;
}

/** Options of {@link buildSoftClusters}: the k-means options, with k defaulting to {@link softClusterCount}. */
export type SoftClusterOptions = Omit<CosineKMeansOptions, 'k'> & { k?: number };

/** k = min(N, max(5, ⌊1.5·√N⌋)) (SEEDS §1.7). */
export function softClusterCount(n: number): number {
  return Math.min(n, Math.max(5, Math.floor(1.5 * Math.sqrt(n))));
}

/** Clusters `items` by cosine k-means; each item joins its 3 nearest clusters. Needs at least one item. */
export function buildSoftClusters(items: readonly SoftItem[], opts: SoftClusterOptions): SoftClustering {
  if (items.length === 0)
    throw new TidepoolError('invalid_input', 'soft clustering needs at least one vector');
  const k = opts.k ?? softClusterCount(items.length);
  const fit = cosineKMeans(
    items.map((i) => i.vector),
    { ...opts, k },
  );
  const memberships: SoftMembership[] = [];
  const memberCount = new Array<number>(k).fill(0);
  const primary: number[][] = Array.from({ length: k }, () => []);
  const shared = new Map<number, number>();
  items.forEach((item, row) => {
    const mine: number[] = [];
    for (let rank = 0; rank < fit.m; rank++) {
      const cluster = fit.nearest[row * fit.m + rank]!;
      if (cluster < 0) continue;
      const distance = round6(1 - fit.similarity[row * fit.m + rank]!);
      memberships.push({ narrativeId: item.id, cluster, distance, rank });
      memberCount[cluster]!++;
      if (rank === 0) primary[cluster]!.push(row);
      mine.push(cluster);
    }
    for (let x = 0; x < mine.length; x++) {
      for (let y = x + 1; y < mine.length; y++) {
        const key = Math.min(mine[x]!, mine[y]!) * k + Math.max(mine[x]!, mine[y]!);
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
    }
  });
  const clusters = fit.centroids.map((c, index) => {
    return {
      index,
      name: clusterName(primary[index]!.map((row) => items[row]!)) ?? `cluster ${index + 1}`,
      centroid: Array.from(c),
      memberCount: memberCount[index]!,
      primaryCount: primary[index]!.length,
    };
  });
  const adjacency = [...shared]
    .map(([key, n]) => ({ a: Math.floor(key / k), b: key % k, shared: n }))
    .sort((x, y) => x.a - y.a || x.b - y.b);
  return {
    k,
    clusters,
    memberships,
    adjacency,
    iterations: fit.iterations,
    converged: fit.converged,
    fittedOn: fit.fittedOn,
  };
}

/** Tideline's naming (SEEDS §1.7 soft_clusters.py): the 5 heaviest members, and of those the first 3 with a gesture. */
export const CLUSTER_NAME = { heaviest: 5, gestures: 3, chars: 30 } as const;

/**
 * A cluster's name as Tideline gives it (SEEDS §1.7): the gestures, each cut to its first 30 characters, of the 3
 * heaviest members among the 5 heaviest, joined " / " (equal weights: lower id first). Undefined when none of
 * those has a gesture.
 */
export function clusterName(members: readonly Pick<SoftItem, 'id' | 'gesture' | 'weight'>[]): string | undefined {
  const parts = [...members]
    .sort((a, b) => (b.weight ?? 0) - (a.weight ?? 0) || a.id - b.id)
    .slice(0, CLUSTER_NAME.heaviest)
    .map((m) => [...(m.gesture ?? '').replace(/\s+/gu, ' ').trim()].slice(0, CLUSTER_NAME.chars).join('').trim())
    .filter((g) => g !== '')
    .slice(0, CLUSTER_NAME.gestures);
  return parts.length > 0 ? parts.join(' / ') : undefined;
}

/** Where a query lands: its nearest clusters, then one hop to their strongest neighbours. */
export interface RouteResult {
  hits: Array<{ cluster: number; similarity: number }>;
  spread: Array<{ cluster: number; via: number; shared: number }>;
}

/**
 * One-hop routing (SEEDS §1.7 `route`): the `top` clusters nearest the query by centroid cosine, then for each
 * hit up to `neighbours` adjacent clusters by shared count that are not already reached.
 */
export function routeQuery(
  query: ArrayLike<number>,
  clusters: readonly Pick<SoftCluster, 'index' | 'centroid'>[],
  adjacency: readonly ClusterAdjacency[],
  opts: { top?: number; neighbours?: number } = {},
): RouteResult {
  const hits = clusters
    .map((c) => ({ cluster: c.index, similarity: round6(cosine(query, c.centroid)) }))
    .sort((a, b) => b.similarity - a.similarity || a.cluster - b.cluster)
    .slice(0, opts.top ?? 3);
  const reached = new Set(hits.map((h) => h.cluster));
  const spread: RouteResult['spread'] = [];
  for (const hit of hits) {
    const next = adjacency
      .filter((e) => e.a === hit.cluster || e.b === hit.cluster)
      .map((e) => ({ cluster: e.a === hit.cluster ? e.b : e.a, via: hit.cluster, shared: e.shared }))
      .filter((e) => !reached.has(e.cluster))
      .sort((x, y) => y.shared - x.shared || x.cluster - y.cluster)
      .slice(0, opts.neighbours ?? 3);
    for (const e of next) {
      reached.add(e.cluster);
      spread.push(e);
    }
  }
  return { hits, spread };
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length)
    throw new TidepoolError('invalid_input', `query has ${a.length} dimensions, clusters ${b.length}`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}
