/** Script jobs over narratives: the entity graph, recurrence refresh, weight normalisation and source_links backfill. */
import type { WeightBand } from '../core/weight-scale.js';
import { backfillSourceLinks, BACKFILL_DEFAULTS } from '../script/backfill-links.js';
import { buildEntityGraph, topNodes, type GraphNode } from '../script/entity-graph.js';
import {
  normalizeWeights,
  refreshRecurrence,
  type WeightedDoc,
  type WeightUpdate,
} from '../script/recurrence-refresh.js';
import { ANTI_INFLATION } from '../script/weight-policy.js';
import { spaceTransaction, type AppContext } from './app-context.js';
import { elapsed } from './script-cluster-jobs.js';
import type { ScriptRun } from './script-run.js';

/** What `script entity-graph` stored. */
export interface EntityGraphResult {
  job: 'entity-graph';
  narratives: number;
  nodes: number;
  edges: number;
  pairs: number;
  /** The most mentioned entities (SEEDS §1.4 `memory_graph` without arguments shows these). */
  top: GraphNode[];
  ms: number;
}

/** Rebuilds graph_nodes, graph_edges and graph_cooccur from every narrative's `entities_role` (SEEDS §1.7). */
export async function entityGraphJob(ctx: AppContext): Promise<EntityGraphResult> {
  const started = performance.now();
  const narratives = await ctx.scope.narratives.roles();
  const graph = buildEntityGraph(narratives);
  await spaceTransaction(ctx, (scope) => scope.derived.replaceEntityGraph(graph));
  return {
    job: 'entity-graph',
    narratives: narratives.length,
    nodes: graph.nodes.length,
    edges: graph.edges.length,
    pairs: graph.cooccur.length,
    top: topNodes(graph, 5),
    ms: elapsed(started),
  };
}

/** Narratives per weight band (core/weight-scale `WEIGHT_BANDS`: SEEDS §1.5.1's high ≥ 0.7, mid ≥ 0.4 on our scale). */
export type WeightBands = Record<WeightBand, number>;

/** What `script recurrence` or `script normalize` changed, and the weight bands afterwards. */
export interface WeightJobResult {
  job: 'recurrence' | 'normalize';
  /** Narratives read: the tagged ones (recurrence) or the newest 50 (normalize). */
  read: number;
  /** Narratives whose recurrence (recurrence job) or weight (normalize job) was rewritten. */
  changed: number;
  bands: WeightBands;
  ms: number;
}

/**
 * Recomputes every tagged narrative's recurrence from how many others share a tag, with the one mapping that
 * write time uses (SEEDS §1.5.2, BUG T-2), and its weight from its four scores where the recurrence changed.
 */
export async function recurrenceJob(ctx: AppContext): Promise<WeightJobResult> {
  // Untagged narratives have nothing to measure (SEEDS §1.5.2) and are left as they are.
  return weightJob(
    ctx,
    'recurrence',
    () => ctx.scope.narratives.scoreRows({ tagged: true }),
    refreshRecurrence,
  );
}

/**
 * Nightly anti-inflation: the newest 50 weights rescaled to average 0.6 when their average exceeds 0.7, on
 * Tideline's scale (SEEDS §1.5.1; weight-policy `antiInflate`).
 */
export async function normalizeJob(ctx: AppContext): Promise<WeightJobResult> {
  const window = ANTI_INFLATION.nightlyWindow;
  return weightJob(
    ctx,
    'normalize',
    () => ctx.scope.narratives.scoreRows({ newest: window }),
    (docs) => normalizeWeights(docs, window),
  );
}

async function weightJob(
  ctx: AppContext,
  job: WeightJobResult['job'],
  read: () => Promise<WeightedDoc[]>,
  plan: (docs: readonly WeightedDoc[]) => WeightUpdate[],
): Promise<WeightJobResult> {
  const started = performance.now();
  const docs = await read();
  const updates = plan(docs);
  await spaceTransaction(ctx, (scope) => scope.narratives.writeScores(updates));
  return {
    job,
    read: docs.length,
    changed: updates.length,
    bands: await ctx.scope.narratives.weightBands(),
    ms: elapsed(started),
  };
}

/** What `script backfill-links` linked. */
export interface BackfillLinksResult {
  job: 'backfill-links';
  /** Narratives without source_links before the job. */
  unlinked: number;
  /** Narratives that received links. */
  linked: number;
  /** Links found in all (a narrative linked by someone else meanwhile keeps its own). */
  links: number;
  ms: number;
}

/**
 * Gives narratives without source_links the episodes of ±2 h around them that share a keyword, best first, at most
 * 20 (SEEDS §1.7 backfill_source_links, with integer ids throughout: BUG T-17). Episode time is when it happened.
 */
export async function backfillLinksJob(ctx: AppContext, run: ScriptRun): Promise<BackfillLinksResult> {
  const started = performance.now();
  const unlinked = await ctx.scope.narratives.texts({ unlinked: true });
  const windowMs = BACKFILL_DEFAULTS.windowMs;
  const episodes =
    unlinked.length === 0
      ? []
      : await ctx.scope.episodes.inRanges(
          unlinked.map((n) => [n.createdAt - windowMs, n.createdAt + windowMs] as const),
        );
  // Only narratives with an episode inside their window can be linked; the others need no keywords at all.
  const times = episodes.map((e) => e.occurredAt).sort((a, b) => a - b);
  const near = unlinked.filter((n) => hasTimeIn(times, n.createdAt - windowMs, n.createdAt + windowMs));
  const found = backfillSourceLinks(
    near.map((n) => ({ id: n.id, text: run.narrativeText(n), createdAt: n.createdAt, sourceLinks: [] })),
    episodes.map((e) => ({ id: e.id, content: e.content, createdAt: e.occurredAt })),
    { extract: run.extract, windowMs },
  );
  const linked = await spaceTransaction(ctx, (scope) =>
    scope.narratives.fillSourceLinks(
      found.map((f) => ({ narrativeId: f.narrativeId, sourceLinks: f.sourceLinks })),
    ),
  );
  return {
    job: 'backfill-links',
    unlinked: unlinked.length,
    linked,
    links: found.reduce((sum, f) => sum + f.sourceLinks.length, 0),
    ms: elapsed(started),
  };
}

/** True when the ascending `times` hold a value in [from, to]. */
function hasTimeIn(times: readonly number[], from: number, to: number): boolean {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < times.length && times[lo]! <= to;
}
