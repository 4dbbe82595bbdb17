/** Script jobs over clusters: TF-IDF topic clusters, k-means soft clusters and the attention stats they label. */
import {
  attentionHeatmap,
  labelByTopicCluster,
  renderHeatmapMarkdown,
  UNCLASSIFIED,
  type Heatmap,
} from '../script/attention-heatmap.js';
import { DEFAULT_SEED, mulberry32 } from '../script/seeded-rng.js';
import { buildSoftClusters } from '../script/soft-clusters.js';
import { buildTopicClusters } from '../script/topic-clusters.js';
import type { AttentionStatWrite } from '../store/port.js';
import { spaceTransaction, type AppContext } from './app-context.js';
import type { ScriptRun } from './script-run.js';

/** Heatmap never-lit names kept in a result (Tideline v2.5 capped the list at 50). */
const NEVER_LIT_CAP = 50;

/** What `script topics` stored. Words are listed only for kept clusters: dropped words are counted, never named. */
export interface TopicsResult {
  job: 'topics';
  narratives: number;
  merged: boolean;
  /** The generic threshold: a word in this many narratives or more is dropped (max(4, ⌊N·0.2⌋)). */
  maxDf: number;
  dropped: { rare: number; generic: number };
  clusters: Array<{ name: string; size: number; keywords: string[] }>;
  ms: number;
}

/** Rebuilds `topic_clusters` from every narrative's keywords (SEEDS §1.7 `build_clusters`). */
export async function topicsJob(ctx: AppContext, run: ScriptRun, merge: boolean): Promise<TopicsResult> {
  const started = performance.now();
  const narratives = await ctx.scope.narratives.texts();
  const docs = narratives.map((n) => ({
    id: n.id,
    keywords: run.narrativeKeywords(n),
    weight: n.weight,
    createdAt: n.createdAt,
  }));
  const built = buildTopicClusters(docs, { merge });
  await spaceTransaction(ctx, (scope) => scope.derived.replaceTopicClusters(built.clusters));
  return {
    job: 'topics',
    narratives: narratives.length,
    merged: merge,
    maxDf: built.maxDf,
    dropped: built.dropped,
    clusters: built.clusters.map((c) => ({ name: c.name, size: c.size, keywords: c.keywords })),
    ms: elapsed(started),
  };
}

/** What `script soft-clusters` stored, or why it did nothing. */
export type SoftClustersResult =
  | {
      job: 'soft-clusters';
      status: 'built';
      model: string;
      dim: number;
      narratives: number;
      k: number;
      iterations: number;
      converged: boolean;
      fittedOn: number;
      adjacency: number;
      /** Cluster ids change on every rebuild (SEEDS T-13): name a cluster by its `name` across rebuilds. */
      clusters: Array<{ id: number; name: string; memberCount: number }>;
      ms: number;
    }
  | { job: 'soft-clusters'; status: 'skipped'; message: string; ms: number };

/**
 * Rebuilds the embedding clusters (SEEDS §1.7 `soft_clusters.py build`): seeded cosine k-means over the narrative
 * vectors of the configured embedder's model (without one: the model most narratives have vectors of), each
 * narrative in its 3 nearest clusters, adjacency from shared members.
 */
export async function softClustersJob(ctx: AppContext): Promise<SoftClustersResult> {
  const started = performance.now();
  const models = await ctx.scope.vectors.narrativeModels();
  const chosen = ctx.embedder ? models.find((m) => m.model === ctx.embedder!.model) : models[0];
  if (!chosen) {
    const message = ctx.embedder
      ? `no narrative vectors of ${ctx.embedder.model} yet: run \`tidepool script scan\` to embed the pending narratives, then build again`
      : 'no narrative vectors: soft clusters live in embedding space, so configure an embedder (embedder.provider) and run `tidepool script scan` to embed the narratives';
    return { job: 'soft-clusters', status: 'skipped', message, ms: elapsed(started) };
  }
  const vectors = await ctx.scope.vectors.narrativeVectors(chosen.model, chosen.dim);
  const byId = new Map((await ctx.scope.narratives.texts()).map((n) => [n.id, n]));
  const items = vectors.map((v) => {
    const n = byId.get(v.id);
    return n ? { id: v.id, vector: v.vector, gesture: n.gesture ?? n.content, weight: n.weight } : { id: v.id, vector: v.vector };
  });
  if (items.length === 0) {
    return {
      job: 'soft-clusters',
      status: 'skipped',
      message: 'no narrative has a vector',
      ms: elapsed(started),
    };
  }
  // SEEDS §1.7: a fixed seed (RandomState(42)), so the same vectors always give the same clusters.
  const built = buildSoftClusters(items, { rng: mulberry32(DEFAULT_SEED) });
  const now = ctx.clock.now();
  const ids = await spaceTransaction(ctx, (scope) =>
    scope.derived.replaceSoftClusters(
      {
        clusters: built.clusters.map((c) => ({
          name: c.name,
          centroid: c.centroid,
          memberCount: c.memberCount,
        })),
        memberships: built.memberships,
        adjacency: built.adjacency,
      },
      now,
    ),
  );
  return {
    job: 'soft-clusters',
    status: 'built',
    model: chosen.model,
    dim: chosen.dim,
    narratives: items.length,
    k: built.k,
    iterations: built.iterations,
    converged: built.converged,
    fittedOn: built.fittedOn,
    adjacency: built.adjacency.length,
    clusters: built.clusters.map((c, i) => ({ id: ids[i]!, name: c.name, memberCount: c.memberCount })),
    ms: elapsed(started),
  };
}

/** What `script attention` rebuilt, with the heatmap of the last `days` days. */
export interface AttentionResult {
  job: 'attention';
  /** Every attention-log row read (the whole log: stats are all-time). */
  events: number;
  /** Rows of `attention_stats` written: one per cluster label that has a hit. */
  labels: number;
  heatmap: Omit<Heatmap, 'neverLit'> & { neverLit: string[]; neverLitCount: number };
  /** The heatmap for a human (bars, sources, never-lit clusters). */
  markdown: string;
  ms: number;
}

/**
 * Relabels the whole attention log by today's clusters and rebuilds `attention_stats` and the soft clusters'
 * `total_hits` from it. A hit on a narrative is labelled by its most specific topic cluster, else its nearest soft
 * cluster, else the label stored with the hit, else `_unclassified`: labels stored at hit time name clusters of an
 * older build (SEEDS T-13, T-14), so they are only the last resort.
 */
export async function attentionJob(ctx: AppContext, days: number): Promise<AttentionResult> {
  const started = performance.now();
  const now = ctx.clock.now();
  const entries = await ctx.scope.attention.since(Number.MIN_SAFE_INTEGER);
  const hitIds = [...new Set(entries.filter((e) => e.layer === 'narrative').map((e) => e.itemId))];
  // Cluster members are read only for narratives that were hit: the log is usually far smaller than the memory.
  const topics =
    hitIds.length > 0
      ? await ctx.scope.derived.topicClusters({ minSize: 1, limit: Number.MAX_SAFE_INTEGER })
      : [];
  const topicNames =
    hitIds.length > 0 ? topics.map((c) => c.name) : await ctx.scope.derived.topicClusterNames();
  const topicOf = labelByTopicCluster(topics);
  const { clusters: softClusters } = await ctx.scope.derived.softClusterModel();
  const softName = new Map(softClusters.map((c) => [c.id, c.name]));
  const nearest = new Map<number, { clusterId: number; distance: number }>();
  const memberships =
    hitIds.length > 0 && softClusters.length > 0
      ? await ctx.scope.derived.softClusterMemberships({ narrativeIds: hitIds })
      : [];
  for (const m of memberships) {
    const cur = nearest.get(m.narrativeId);
    if (!cur || m.distance < cur.distance || (m.distance === cur.distance && m.clusterId < cur.clusterId))
      nearest.set(m.narrativeId, m);
  }
  const softOf = (id: number) => {
    const m = nearest.get(id);
    return m ? softName.get(m.clusterId) : undefined;
  };
  const clusterOf = (id: number) => topicOf(id) ?? softOf(id);
  const stats = new Map<string, AttentionStatWrite>();
  const softHits = new Map<number, number>();
  for (const e of entries) {
    const narrative = e.layer === 'narrative' ? e.itemId : undefined;
    const label = (narrative !== undefined ? clusterOf(narrative) : undefined) ?? e.cluster ?? UNCLASSIFIED;
    const s = stats.get(label) ?? { cluster: label, hitCount: 0, lastHit: e.at, lastItemId: e.itemId };
    s.hitCount++;
    if (e.at >= s.lastHit) {
      s.lastHit = e.at;
      s.lastItemId = e.itemId;
    }
    stats.set(label, s);
    const soft = narrative !== undefined ? nearest.get(narrative) : undefined;
    if (soft) softHits.set(soft.clusterId, (softHits.get(soft.clusterId) ?? 0) + 1);
  }
  await spaceTransaction(ctx, (scope) =>
    scope.derived.replaceAttentionStats(
      [...stats.values()].sort((a, b) => (a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0)),
      [...softHits].map(([clusterId, hits]) => ({ clusterId, hits })),
    ),
  );
  const heat = attentionHeatmap(
    entries.map((e) => ({
      narrativeId: e.layer === 'narrative' ? e.itemId : null,
      sim: e.sim,
      source: e.source,
      at: e.at,
      cluster: e.cluster,
    })),
    { now, days, clusters: topicNames.length > 0 ? topicNames : softClusters.map((c) => c.name), clusterOf },
  );
  return {
    job: 'attention',
    events: entries.length,
    labels: stats.size,
    heatmap: {
      ...heat,
      neverLit: heat.neverLit.slice(0, NEVER_LIT_CAP),
      neverLitCount: heat.neverLit.length,
    },
    markdown: renderHeatmapMarkdown(heat, NEVER_LIT_CAP),
    ms: elapsed(started),
  };
}

/** Milliseconds since `started` (a `performance.now()` reading), rounded. */
export function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
