/** Script jobs over narratives: the entity graph, recurrence refresh, weight normalisation and source_links backfill. */
import { backfillSourceLinks, BACKFILL_DEFAULTS } from '../script/backfill-links.js';
import { buildEntityGraph, topNodes, type GraphNode } from '../script/entity-graph.js';
import { normalizeWeights, refreshRecurrence, type WeightedDoc, type WeightUpdate } from '../script/recurrence-refresh.js';
import type { ScriptNarrativeRow } from '../store/port.js';
import type { AppContext } from './app-context.js';
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
  const narratives = await ctx.store.script.narratives(ctx.space);
  const graph = buildEntityGraph(narratives.map((n) => ({ id: n.id, entitiesRole: n.entitiesRole, createdAt: n.createdAt })));
  await ctx.store.transaction((tx) => tx.script.replaceEntityGraph(ctx.space, graph));
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

/** Weight bands (SEEDS §1.5.1: high ≥ 0.7, mid ≥ 0.4, low). */
export interface WeightBands {
  high: number;
  mid: number;
  low: number;
}

/** What `script recurrence` or `script normalize` changed, and the weight bands afterwards. */
export interface WeightJobResult {
  job: 'recurrence' | 'normalize';
  narratives: number;
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
  return weightJob(ctx, 'recurrence', refreshRecurrence);
}

/** Nightly anti-inflation: the newest 50 weights rescaled to average 0.6 when their average exceeds 0.7 (SEEDS §1.5.1). */
export async function normalizeJob(ctx: AppContext): Promise<WeightJobResult> {
  return weightJob(ctx, 'normalize', (docs) => normalizeWeights(docs));
}

async function weightJob(
  ctx: AppContext,
  job: WeightJobResult['job'],
  plan: (docs: readonly WeightedDoc[]) => WeightUpdate[],
): Promise<WeightJobResult> {
  const started = performance.now();
  const narratives = await ctx.store.script.narratives(ctx.space);
  const updates = plan(narratives.map(weightedDoc));
  await ctx.store.transaction((tx) => tx.script.updateScores(ctx.space, updates));
  const weight = new Map(narratives.map((n) => [n.id, n.weight]));
  for (const u of updates) if (u.weight !== undefined) weight.set(u.id, u.weight);
  return { job, narratives: narratives.length, changed: updates.length, bands: weightBands(weight.values()), ms: elapsed(started) };
}

function weightedDoc(n: ScriptNarrativeRow): WeightedDoc {
  return {
    id: n.id, tags: n.tags, importance: n.importance, emotional: n.emotional, recurrence: n.recurrence,
    unresolved: n.unresolved, weight: n.weight, createdAt: n.createdAt,
  };
}

/** Counts weights per band (SEEDS §1.5.1: high ≥ 0.7, mid ≥ 0.4, low below). */
export function weightBands(weights: Iterable<number>): WeightBands {
  const bands = { high: 0, mid: 0, low: 0 };
  for (const w of weights) {
    if (w >= 0.7) bands.high++;
    else if (w >= 0.4) bands.mid++;
    else bands.low++;
  }
  return bands;
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
  const unlinked = (await ctx.store.script.narratives(ctx.space)).filter((n) => n.sourceLinks.length === 0);
  const windowMs = BACKFILL_DEFAULTS.windowMs;
  const episodes = unlinked.length === 0
    ? []
    : await ctx.store.script.episodesInRanges(ctx.space, unlinked.map((n) => [n.createdAt - windowMs, n.createdAt + windowMs] as const));
  const found = backfillSourceLinks(
    unlinked.map((n) => ({ id: n.id, text: run.narrativeText(n), createdAt: n.createdAt, sourceLinks: n.sourceLinks })),
    episodes.map((e) => ({ id: e.id, content: e.content, createdAt: e.occurredAt })),
    { extract: run.extract, windowMs },
  );
  const linked = await ctx.store.transaction((tx) => tx.script.fillSourceLinks(ctx.space, found.map((f) => ({ narrativeId: f.narrativeId, sourceLinks: f.sourceLinks }))));
  return {
    job: 'backfill-links',
    unlinked: unlinked.length,
    linked,
    links: found.reduce((sum, f) => sum + f.sourceLinks.length, 0),
    ms: elapsed(started),
  };
}
