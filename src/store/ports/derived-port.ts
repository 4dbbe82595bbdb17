/** The derived tables the script layer and the sleep rebuild (DESIGN §1.5): never the source of truth. */
import type { Narrative } from '../../core/types.js';

/** One morning briefing (one per space and UTC day). */
export interface BriefingRow {
  day: string;
  headline: string;
  body: string;
  createdAt: number;
}

/** One topic cluster as the script layer stored it. */
export interface TopicClusterRow {
  id: number;
  name: string;
  keywords: string[];
  size: number;
  narrativeIds: number[];
  lastActive: number | null;
  avgWeight: number | null;
}

/** One embedding cluster with its adjacency degree. */
export interface SoftClusterRow {
  id: number;
  name: string;
  memberCount: number;
  degree: number;
  updatedAt: number;
}

/** One entity-graph node. */
export interface GraphNodeRow {
  entity: string;
  mentionCount: number;
  firstSeen: number;
  lastSeen: number;
}

/** One entity-graph edge: two entities co-mentioned in one narrative, each with its role as stored. */
export interface GraphEdgeRow {
  entityA: string;
  roleA: string | null;
  entityB: string;
  roleB: string | null;
  narrativeId: number;
  createdAt: number;
}

/** How often a topic (knowledge subject or graph entity) is mentioned and how many links touch it. */
export interface TopicStatRow {
  topic: string;
  mentions: number;
  degree: number;
}

/** One topic cluster to store (the script layer's `TopicCluster`, or one imported from Tideline). */
export interface TopicClusterWrite {
  name: string;
  keywords: readonly string[];
  size: number;
  narrativeIds: readonly number[];
  lastActive: number | null;
  avgWeight: number | null;
}

/** A whole soft-cluster build to store; memberships and adjacency name clusters by their index in `clusters`. */
export interface SoftClusterWrite {
  clusters: ReadonlyArray<{ name: string; centroid: ArrayLike<number>; memberCount: number }>;
  memberships: ReadonlyArray<{ narrativeId: number; cluster: number; distance: number }>;
  adjacency: ReadonlyArray<{ a: number; b: number; shared: number }>;
}

/** A stored soft cluster with its centroid, for query routing. */
export interface SoftClusterModelRow {
  id: number;
  name: string;
  centroid: Float32Array | null;
}

/** The entity graph to store (the script layer's `EntityGraph`). */
export interface EntityGraphWrite {
  nodes: ReadonlyArray<{ entity: string; mentionCount: number; firstSeen: number; lastSeen: number }>;
  edges: ReadonlyArray<{
    entityA: string;
    roleA: string;
    entityB: string;
    roleB: string;
    narrativeId: number;
    createdAt: number;
  }>;
  cooccur: ReadonlyArray<{ entityA: string; entityB: string; count: number }>;
}

/** One per-cluster attention total (`attention_stats`). */
export interface AttentionStatWrite {
  cluster: string;
  hitCount: number;
  lastHit: number;
  lastItemId: number | null;
}

/** Reads of the derived tables the script layer and the sleep fill (DESIGN §1.5); never the source of truth. */
export interface DerivedStore {
  briefing(day: string): Promise<BriefingRow | undefined>;
  latestBriefing(): Promise<BriefingRow | undefined>;
  /** Clusters with at least `minSize` members, largest first. */
  topicClusters(q: { minSize: number; limit: number }): Promise<TopicClusterRow[]>;
  softClusters(): Promise<SoftClusterRow[]>;
  softClusterMembers(
    clusterId: number,
    limit: number,
  ): Promise<Array<{ narrativeId: number; distance: number }>>;
  softClusterNeighbours(
    clusterId: number,
    limit: number,
  ): Promise<Array<{ id: number; name: string; shared: number }>>;
  /** Narratives created at or after `since` with weight above `minWeight`, heaviest first. */
  heaviestNarratives(q: { since: number; minWeight: number; limit: number }): Promise<Narrative[]>;
  graphNodes(limit: number): Promise<GraphNodeRow[]>;
  /** A node by name (exact, then case-insensitive). */
  graphNode(entity: string): Promise<GraphNodeRow | undefined>;
  graphPartners(entity: string, limit: number): Promise<Array<{ entity: string; count: number }>>;
  /** Edges between `a` and `b` in either stored order, newest first. */
  graphPairEdges(a: string, b: string, limit: number): Promise<GraphEdgeRow[]>;
  /** Knowledge subjects (live entries) and graph entities with mention counts and link degrees. */
  topicStats(): Promise<TopicStatRow[]>;
  replaceTopicClusters(rows: readonly TopicClusterWrite[]): Promise<void>;
  /** Inserts or overwrites clusters by name, leaving the others (Tideline import). */
  upsertTopicClusters(rows: readonly TopicClusterWrite[]): Promise<void>;
  /** Replaces clusters, members and adjacency; returns the new cluster ids by build index. */
  replaceSoftClusters(build: SoftClusterWrite, at: number): Promise<number[]>;
  /** Stored soft clusters with centroids, and their adjacency by cluster id. */
  softClusterModel(): Promise<{
    clusters: SoftClusterModelRow[];
    adjacency: Array<{ a: number; b: number; shared: number }>;
  }>;
  /** Memberships, nearest first per cluster: all of them, or those of the given clusters or of the given narratives. */
  softClusterMemberships(q?: {
    clusterIds?: readonly number[];
    narrativeIds?: readonly number[];
  }): Promise<Array<{ clusterId: number; narrativeId: number; distance: number }>>;
  /** Names of the stored topic clusters, largest first. */
  topicClusterNames(): Promise<string[]>;
  replaceAttentionStats(
    rows: readonly AttentionStatWrite[],
    clusterHits: ReadonlyArray<{ clusterId: number; hits: number }>,
  ): Promise<void>;
  replaceEntityGraph(graph: EntityGraphWrite): Promise<void>;
  /** Writes (or replaces) the briefing of one UTC day. */
  putBriefing(b: BriefingRow): Promise<void>;
}
