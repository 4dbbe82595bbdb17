/** Chart.js charts for the Map page: horizontal bars and the attention heatmap (chartjs-chart-matrix), each with its data as an accessible table. */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LinearScale,
  Tooltip,
  type ChartConfiguration,
  type ScriptableContext,
} from 'chart.js';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';
import { h } from './dom.js';
import { COLORS } from './palette.js';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  MatrixController,
  MatrixElement,
);
Chart.defaults.font.family = 'system-ui, sans-serif';
Chart.defaults.color = '#1d2730';

const ROW_PX = 28;

/** A chart ready to attach: its box, and `mount` to draw once the box is in the document. */
export interface ChartView {
  node: HTMLElement;
  mount: () => () => void;
}

/**
 * A canvas whose fallback content is the data table: screen readers and text search read the table, the eye sees
 * the chart (the canvas fallback pattern of the Chart.js accessibility guide).
 */
function canvasBox(
  caption: string,
  rows: number,
  table: HTMLTableElement,
  config: () => ChartConfiguration,
): ChartView {
  const canvas = h('canvas', { role: 'img', 'aria-label': caption }, table);
  const node = h('div', { class: 'chart-box' }, canvas);
  // CSSOM, not a style attribute: the page's CSP has no 'unsafe-inline' for styles.
  node.style.height = `${Math.max(3, rows) * ROW_PX + 40}px`;
  return {
    node,
    mount: () => {
      const chart = new Chart(canvas, config());
      return () => chart.destroy();
    },
  };
}

function dataTable(head: string[], rows: Array<Array<string | number>>): HTMLTableElement {
  return h(
    'table',
    {},
    h(
      'tr',
      {},
      head.map((c) => h('th', {}, c)),
    ),
    rows.map((r) =>
      h(
        'tr',
        {},
        r.map((c) => h('td', {}, c)),
      ),
    ),
  );
}

/** Horizontal bars of `{label, value}`, largest first as given. */
export function barChart(
  rows: Array<{ label: string; value: number }>,
  opts: { caption: string; unit: string; color?: string },
): ChartView {
  const table = dataTable(
    ['name', opts.unit],
    rows.map((r) => [r.label, r.value]),
  );
  return canvasBox(opts.caption, rows.length, table, () => ({
    type: 'bar',
    data: {
      labels: rows.map((r) => r.label),
      datasets: [
        {
          label: opts.unit,
          data: rows.map((r) => r.value),
          backgroundColor: opts.color ?? COLORS.accent,
          borderRadius: 2,
        },
      ],
    },
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: { tooltip: { callbacks: { label: (c) => `${c.formattedValue} ${opts.unit}` } } },
      scales: { x: { beginAtZero: true, ticks: { precision: 0 } } },
    },
  }));
}

/** The attention heatmap: one cell per cluster, shaded by its share of hits; never-lit clusters are hollow, outlined in orange. */
export function heatmapChart(
  rows: Array<{ cluster: string; hits: number; share: number }>,
  neverLit: string[],
  days: number,
): ChartView {
  const cells = [
    ...rows.map((r) => ({
      x: `last ${days} days`,
      y: `${r.cluster} — ${r.hits} hit${r.hits === 1 ? '' : 's'} (${Math.round(r.share * 100)} %)`,
      v: r.share,
      never: false,
    })),
    ...neverLit.map((c) => ({ x: `last ${days} days`, y: `${c} — never lit`, v: 0, never: true })),
  ];
  const table = dataTable(
    ['cluster', 'hits', 'share'],
    [
      ...rows.map((r) => [r.cluster, r.hits, `${Math.round(r.share * 100)} %`]),
      ...neverLit.map((c) => [c, 'never lit', '0 %']),
    ],
  );
  const cell = (i: number) => cells[i] ?? { v: 0, never: true };
  return canvasBox('Attention heatmap by cluster', cells.length, table, () => ({
    type: 'matrix',
    data: {
      datasets: [
        {
          label: 'share of hits',
          data: cells,
          backgroundColor: (c: ScriptableContext<'matrix'>) =>
            cell(c.dataIndex).never ? '#fff' : `rgba(11,110,138,${0.15 + 0.85 * cell(c.dataIndex).v})`,
          borderColor: (c: ScriptableContext<'matrix'>) =>
            cell(c.dataIndex).never ? COLORS.warn : COLORS.line,
          borderWidth: (c: ScriptableContext<'matrix'>) => (cell(c.dataIndex).never ? 2 : 1),
          width: ({ chart }) => (chart.chartArea?.width ?? 0) - 2,
          height: ({ chart }) => (chart.chartArea?.height ?? 0) / cells.length - 4,
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        tooltip: { callbacks: { title: () => '', label: (c) => String((c.raw as { y: string }).y) } },
      },
      scales: {
        x: { type: 'category', labels: [`last ${days} days`], grid: { display: false } },
        y: { type: 'category', labels: cells.map((c) => c.y), offset: true, grid: { display: false } },
      },
    },
  }));
}
