import { describe, expect, it } from 'vitest';
import {
  attentionHeatmap,
  labelBySoftCluster,
  labelByTopicCluster,
  renderHeatmapMarkdown,
  UNCLASSIFIED,
  type AttentionEvent,
} from './attention-heatmap.js';

const NOW = Date.UTC(2026, 5, 10, 12);
const DAY = 86_400_000;
const ev = (narrativeId: number | null, source: string, daysAgo: number, sim = 0.5): AttentionEvent => ({
  narrativeId,
  sim,
  source,
  at: NOW - daysAgo * DAY,
});

const clusterOf = (id: number) =>
  (({ 1: '数据库', 2: '数据库', 3: 'camping' }) as Record<number, string>)[id];

describe('attentionHeatmap', () => {
  const events = [
    ev(1, 't1_prefetch', 1, 0.8),
    ev(2, 't1_prefetch', 2, 0.6),
    ev(1, 't0_inject', 3, 0),
    ev(3, 'search', 1, 1),
    ev(99, 'recall', 0.5, 0),
    ev(3, 'dream', 10, 0.9), // outside the 7-day period
  ];
  const h = attentionHeatmap(events, {
    now: NOW,
    clusters: ['数据库', 'camping', '审查', 'beach'],
    clusterOf,
  });

  it('gives each cluster its share of hits, its average similarity and a bar of one █ per 5 %', () => {
    expect(h.totalHits).toBe(5);
    expect(h.clusters[0]).toEqual({
      cluster: '数据库',
      hits: 3,
      share: 0.6,
      percent: 60,
      avgSim: round3((0.8 + 0.6 + 0) / 3),
      bar: '█'.repeat(12),
    });
    expect(h.clusters.find((c) => c.cluster === 'camping')).toMatchObject({
      hits: 1,
      percent: 20,
      bar: '████',
    });
    expect(h.clusters.find((c) => c.cluster === UNCLASSIFIED)).toMatchObject({ hits: 1 });
  });

  it('breaks hits down by source with their meanings', () => {
    expect(h.sources).toEqual([
      { source: 't1_prefetch', label: 'active', hits: 2, share: 0.4 },
      { source: 'recall', label: 'browse', hits: 1, share: 0.2 },
      { source: 'search', label: 'manual', hits: 1, share: 0.2 },
      { source: 't0_inject', label: 'passive', hits: 1, share: 0.2 },
    ]);
  });

  it('lists only the clusters without a hit in the period as never lit', () => {
    expect(h.neverLit).toEqual(['审查', 'beach']);
  });

  it('reads Tideline source names and stored labels when no resolver is given', () => {
    const r = attentionHeatmap([{ ...ev(1, 'mcp_search', 1), cluster: 'X' }, ev(2, 'mcp_recall', 1)], {
      now: NOW,
      days: 3,
      clusters: ['X', 'Y'],
    });
    expect(r.sources.map((s) => [s.source, s.label])).toEqual([
      ['recall', 'browse'],
      ['search', 'manual'],
    ]);
    expect(r.clusters.map((c) => c.cluster).sort()).toEqual(['X', UNCLASSIFIED].sort());
    expect(r.neverLit).toEqual(['Y']);
  });

  it('reports every cluster as never lit in an empty period', () => {
    const r = attentionHeatmap([], { now: NOW, clusters: ['a', 'b'] });
    expect(r).toMatchObject({ totalHits: 0, clusters: [], sources: [], neverLit: ['a', 'b'] });
  });

  it('renders markdown with bars, sources and a capped never-lit list', () => {
    const md = renderHeatmapMarkdown(h, 1);
    expect(md).toContain('5 hits');
    expect(md).toContain('████████████');
    expect(md).toContain('t1_prefetch (active): 2');
    expect(md).toContain('Never lit (2)');
    expect(md).toContain('审查 … and 1 more');
  });
});

describe('cluster labels', () => {
  it('labels by the nearest soft cluster', () => {
    const label = labelBySoftCluster({
      clusters: [
        { index: 0, name: 'A', centroid: [], memberCount: 1, primaryCount: 1 },
        { index: 1, name: 'B', centroid: [], memberCount: 1, primaryCount: 0 },
      ],
      memberships: [
        { narrativeId: 7, cluster: 1, distance: 0.3, rank: 1 },
        { narrativeId: 7, cluster: 0, distance: 0.1, rank: 0 },
      ],
    });
    expect(label(7)).toBe('A');
    expect(label(8)).toBeUndefined();
  });

  it('labels by the most specific topic cluster holding the narrative', () => {
    const label = labelByTopicCluster([
      { name: 'big', narrativeIds: [1, 2, 3, 4], size: 4 },
      { name: 'small', narrativeIds: [2, 3, 4], size: 3 },
    ]);
    expect(label(1)).toBe('big');
    expect(label(2)).toBe('small');
    expect(label(9)).toBeUndefined();
  });
});

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
