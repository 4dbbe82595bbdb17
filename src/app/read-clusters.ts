/** Cluster views: the attention heatmap and the embedding (soft) clusters, read from the derived tables. */
import { z } from 'zod';
import { DAY_MS } from '../core/clock.js';
import { parseInput } from '../core/schemas.js';
import { attentionHeatmap, labelByTopicCluster, renderHeatmapMarkdown, type Heatmap } from '../script/attention-heatmap.js';
import type { SoftClusterRow } from '../store/port.js';
import type { AppContext } from './app-context.js';
import { requireSpace } from './require-space.js';

/** `memory_attention_heatmap` input (SEEDS §1.4: days 7). */
export const heatmapInput = z.object({ days: z.number().int().min(1).max(3650).default(7) });
/** `memory_soft_clusters` input (SEEDS §1.4: `cluster_id`; `report` is accepted and, as in Tideline, unused). */
export const softClustersInput = z.object({ cluster_id: z.number().int().positive().optional(), report: z.boolean().optional() });

/** The heatmap and its markdown rendering; `message` explains an empty period. */
export interface HeatmapView {
  heatmap: Heatmap;
  markdown: string;
  message?: string;
}

/** Aggregates the attention log of the last `days` days by cluster and by source. */
export async function readHeatmap(ctx: AppContext, raw: unknown = {}): Promise<HeatmapView> {
  const input = parseInput(heatmapInput, raw ?? {});
  await requireSpace(ctx);
  const now = ctx.clock.now();
  const entries = await ctx.scope.attention.since(now - input.days * DAY_MS);
  const topics = await ctx.scope.derived.topicClusters({ minSize: 1, limit: 100_000 });
  const soft = topics.length > 0 ? [] : await ctx.scope.derived.softClusters();
  const clusterOf = topics.length > 0 ? labelByTopicCluster(topics) : await nearestSoftCluster(ctx, soft);
  const heatmap = attentionHeatmap(
    entries.map((e) => ({ narrativeId: e.layer === 'narrative' ? e.itemId : null, sim: e.sim, source: e.source, at: e.at, cluster: e.cluster })),
    { now, days: input.days, clusters: topics.length > 0 ? topics.map((t) => t.name) : soft.map((s) => s.name), clusterOf },
  );
  const view: HeatmapView = { heatmap, markdown: renderHeatmapMarkdown(heatmap) };
  if (heatmap.totalHits === 0) {
    view.message = `no attention in the last ${input.days} days: hits are logged whenever recall, search or injection return memories`;
  }
  return view;
}

async function nearestSoftCluster(ctx: AppContext, clusters: readonly SoftClusterRow[]): Promise<(id: number) => string | undefined> {
  const best = new Map<number, { name: string; distance: number }>();
  for (const c of clusters) {
    for (const m of await ctx.scope.derived.softClusterMembers(c.id, 100_000)) {
      const cur = best.get(m.narrativeId);
      if (!cur || m.distance < cur.distance) best.set(m.narrativeId, { name: c.name, distance: m.distance });
    }
  }
  return (id) => best.get(id)?.name;
}

/** A soft-cluster listing or one cluster's detail, or why there is none. */
export type SoftClustersView =
  | { kind: 'list'; clusters: SoftClusterRow[] }
  | {
      kind: 'cluster';
      cluster: SoftClusterRow;
      members: Array<{ narrativeId: number; distance: number; gesture: string | null }>;
      adjacent: Array<{ id: number; name: string; shared: number }>;
    }
  | { kind: 'empty'; message: string };

/** Tideline: with `cluster_id` the 10 members nearest the centroid and the 5 most adjacent clusters; else all clusters. */
export async function readSoftClusters(ctx: AppContext, raw: unknown = {}): Promise<SoftClustersView> {
  const input = parseInput(softClustersInput, raw ?? {});
  await requireSpace(ctx);
  const clusters = await ctx.scope.derived.softClusters();
  if (clusters.length === 0) {
    return {
      kind: 'empty',
      message: 'no soft clusters yet: they are built in embedding space by `tidepool script soft-clusters` or the nightly run (an embedder must be configured)',
    };
  }
  if (input.cluster_id === undefined) return { kind: 'list', clusters };
  const cluster = clusters.find((c) => c.id === input.cluster_id);
  if (!cluster) return { kind: 'empty', message: `no soft cluster ${input.cluster_id}; known ids: ${clusters.map((c) => c.id).join(', ')}` };
  // SEEDS §1.4: the 10 members nearest the centroid, the top 5 adjacent clusters.
  const members = await ctx.scope.derived.softClusterMembers(cluster.id, 10);
  const narratives = await ctx.scope.narratives.getMany(members.map((m) => m.narrativeId));
  const gesture = new Map(narratives.map((n) => [n.id, n.gesture ?? n.content]));
  return {
    kind: 'cluster',
    cluster,
    members: members.map((m) => ({ ...m, gesture: gesture.get(m.narrativeId) ?? null })),
    adjacent: await ctx.scope.derived.softClusterNeighbours(cluster.id, 5),
  };
}
