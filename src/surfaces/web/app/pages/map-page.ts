/** Map: topic and soft clusters as bar charts, the attention heatmap with its never-lit clusters, attention by source. */
import { api } from '../api.js';
import type { MapAnswer } from '../api-types.js';
import { barChart, heatmapChart, type ChartView } from '../charts.js';
import { emptyReason } from '../empty-reason.js';
import { empty, h, type Page } from '../dom.js';
import { COLORS } from '../palette.js';

const DAY_MS = 86_400_000;

export const render: Page = async () => {
  const m = await api<MapAnswer>('/v1/map');
  const charts: ChartView[] = [];
  const chart = (c: ChartView) => (charts.push(c), c.node);
  const heat = m.heatmap;
  const days = Math.max(1, Math.round((heat.until - heat.since) / DAY_MS));

  const topics =
    m.topics.length === 0
      ? empty(await emptyReason('topics', 'No topic clusters yet: a topic needs a keyword shared by at least 3 narratives (`tidepool script topics` rebuilds them).'))
      : chart(
          barChart(
            m.topics.map((t) => ({ label: t.name, value: t.size })),
            { caption: 'Topic clusters by size', unit: 'narratives' },
          ),
        );
  const soft =
    m.soft.kind !== 'list'
      ? empty(m.soft.message ?? 'No soft clusters yet.')
      : chart(
          barChart(
            m.soft.clusters.map((c) => ({ label: c.name, value: c.memberCount })),
            { caption: 'Soft clusters by members', unit: 'members', color: COLORS.green },
          ),
        );
  const heatmap =
    heat.clusters.length === 0 && heat.neverLit.length === 0
      ? empty(m.heatmapMessage ?? 'No attention recorded yet.')
      : h(
          'div',
          {},
          chart(heatmapChart(heat.clusters, heat.neverLit, days)),
          heat.neverLit.length ? h('p', { class: 'muted' }, `Never lit: ${heat.neverLit.join(', ')}`) : null,
        );
  const sources =
    heat.totalHits === 0
      ? empty('No recall or injection hits in this period.')
      : chart(
          barChart(
            heat.sources
              .filter((s) => s.hits > 0)
              .map((s) => ({ label: `${s.label} (${s.source})`, value: s.hits })),
            { caption: 'Attention by source', unit: 'hits', color: COLORS.warn },
          ),
        );

  return {
    nodes: [
      h('h1', {}, 'Map'),
      h('h2', {}, 'Topic clusters'),
      h('div', { id: 'topics' }, topics),
      h('h2', {}, 'Soft clusters'),
      h('div', { id: 'soft' }, soft),
      h('h2', {}, `Attention, last ${days} days (${heat.totalHits} hits)`),
      h('div', { id: 'heatmap' }, heatmap),
      h('h2', {}, 'Attention by source'),
      h('div', { id: 'sources' }, sources),
    ],
    mounted: () => {
      const teardowns = charts.map((c) => c.mount());
      return () => teardowns.forEach((t) => t());
    },
  };
};
