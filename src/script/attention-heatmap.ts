/** The attention heatmap: recall and injection hits of a period aggregated by cluster and by source (SEEDS §1.7). */
import type { SoftClustering } from './soft-clusters.js';
import type { TopicCluster } from './topic-clusters.js';

/** One attention-log row: a hit on a narrative, from one source. */
export interface AttentionEvent {
  narrativeId: number | null;
  /** Similarity of the hit (0 for injection and browsing, 1.0 for keyword hits). */
  sim: number;
  /** `t0_inject`, `t1_prefetch`, `search`, `recall` or `dream` (Tideline's `mcp_search`/`mcp_recall` are read as search/recall). */
  source: string;
  at: number;
  /** The cluster label stored with the hit, if any. */
  cluster?: string | null;
}

/** What each source means to a reader (SEEDS §1.4 `memory_attention_heatmap`). */
export const SOURCE_LABELS: Readonly<Record<string, string>> = {
  t1_prefetch: 'active',
  t0_inject: 'passive',
  search: 'manual',
  recall: 'browse',
  dream: 'dream',
};

const LEGACY_SOURCES: Readonly<Record<string, string>> = { mcp_search: 'search', mcp_recall: 'recall' };

/** Label of hits whose narrative is in no cluster. */
export const UNCLASSIFIED = '_unclassified';

/** Options of {@link attentionHeatmap}. */
export interface HeatmapOptions {
  now: number;
  /** Period length (SEEDS §1.4: 7 days). */
  days?: number;
  /** Every current cluster name: the ones without a hit are reported as never lit. */
  clusters: readonly string[];
  /** Labels a hit by its narrative's current cluster; wins over the label stored with the hit. */
  clusterOf?: (narrativeId: number) => string | undefined;
}

/** One cluster's row. `share` is 0..1, `percent` its rounded percentage, `bar` one █ per 5 %. */
export interface HeatmapRow {
  cluster: string;
  hits: number;
  share: number;
  percent: number;
  avgSim: number;
  bar: string;
}

/** The heatmap of one period. */
export interface Heatmap {
  since: number;
  until: number;
  totalHits: number;
  clusters: HeatmapRow[];
  sources: Array<{ source: string; label: string; hits: number; share: number }>;
  /** Current clusters without any hit in the period: only those (SEEDS T-14 listed every cluster). */
  neverLit: string[];
}

const DAY_MS = 86_400_000;

/** Aggregates the events of the last `days` days (at ≥ now − days, at ≤ now). */
export function attentionHeatmap(events: readonly AttentionEvent[], opts: HeatmapOptions): Heatmap {
  const since = opts.now - (opts.days ?? 7) * DAY_MS;
  const rows = new Map<string, { hits: number; sim: number }>();
  const bySource = new Map<string, number>();
  let total = 0;
  for (const e of events) {
    if (e.at < since || e.at > opts.now) continue;
    total++;
    // The hit is labelled by the narrative's cluster now, so the label matches the cluster list it is compared with.
    const label =
      (e.narrativeId !== null ? opts.clusterOf?.(e.narrativeId) : undefined) ?? e.cluster ?? UNCLASSIFIED;
    const row = rows.get(label) ?? { hits: 0, sim: 0 };
    row.hits++;
    row.sim += Number.isFinite(e.sim) ? e.sim : 0;
    rows.set(label, row);
    const source = LEGACY_SOURCES[e.source] ?? e.source;
    bySource.set(source, (bySource.get(source) ?? 0) + 1);
  }
  const clusters = [...rows]
    .map(([cluster, r]) => {
      const share = r.hits / total;
      const percent = Math.round(share * 1000) / 10;
      return {
        cluster,
        hits: r.hits,
        share,
        percent,
        avgSim: round3(r.sim / r.hits),
        bar: '█'.repeat(Math.floor((share * 100) / 5 + 1e-9)),
      };
    })
    .sort((a, b) => b.hits - a.hits || cmp(a.cluster, b.cluster));
  const sources = [...bySource]
    .map(([source, hits]) => ({ source, label: SOURCE_LABELS[source] ?? source, hits, share: hits / total }))
    .sort((a, b) => b.hits - a.hits || cmp(a.source, b.source));
  const neverLit = opts.clusters.filter((c) => !rows.has(c));
  return { since, until: opts.now, totalHits: total, clusters, sources, neverLit };
}

/** Labels a narrative by its nearest soft cluster's name. */
export function labelBySoftCluster(
  c: Pick<SoftClustering, 'clusters' | 'memberships'>,
): (narrativeId: number) => string | undefined {
  const names = new Map<number, string>();
  for (const m of c.memberships)
    if (m.rank === 0) names.set(m.narrativeId, c.clusters[m.cluster]?.name ?? '');
  return (id) => names.get(id) || undefined;
}

/**
 * Labels a narrative by the most specific topic cluster holding it (fewest members, then name), instead of
 * whichever cluster happened to be listed last (SEEDS T-14).
 */
export function labelByTopicCluster(
  clusters: readonly Pick<TopicCluster, 'name' | 'narrativeIds' | 'size'>[],
): (narrativeId: number) => string | undefined {
  const best = new Map<number, { name: string; size: number }>();
  for (const c of clusters) {
    for (const id of c.narrativeIds) {
      const cur = best.get(id);
      if (!cur || c.size < cur.size || (c.size === cur.size && c.name < cur.name))
        best.set(id, { name: c.name, size: c.size });
    }
  }
  return (id) => best.get(id)?.name;
}

/** A human-readable heatmap; the never-lit list is cut at `neverLitCap` names (Tideline v2.5: 50). */
export function renderHeatmapMarkdown(h: Heatmap, neverLitCap = 50): string {
  const days = Math.round((h.until - h.since) / DAY_MS);
  const lines = [`## Attention, last ${days} days: ${h.totalHits} hits`, ''];
  if (h.totalHits === 0) lines.push('No hits in this period.');
  for (const r of h.clusters)
    lines.push(
      `- ${r.bar.padEnd(20, ' ')} ${r.percent.toFixed(1)}% · ${r.hits} hits · avg sim ${r.avgSim.toFixed(3)} · ${r.cluster}`,
    );
  if (h.sources.length > 1) {
    lines.push('', '### By source');
    for (const s of h.sources) lines.push(`- ${s.source} (${s.label}): ${s.hits}`);
  }
  if (h.neverLit.length > 0) {
    const shown = h.neverLit.slice(0, neverLitCap);
    const more = h.neverLit.length - shown.length;
    lines.push(
      '',
      `### Never lit (${h.neverLit.length})`,
      shown.join(', ') + (more > 0 ? ` … and ${more} more` : ''),
    );
  }
  return lines.join('\n');
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
