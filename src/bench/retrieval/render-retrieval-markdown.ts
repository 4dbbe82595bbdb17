// Renders a retrieval benchmark report as Markdown tables and as an SVG chart of recall@k per system.
import { renderLineChart } from '../svg-chart.js';
import type { RetrievalReport, RetrievalSystemRow } from './run-retrieval-bench.js';

const CATEGORY_NAMES: Record<string, string> = { '1': 'multi-hop', '2': 'temporal', '3': 'open-domain', '4': 'single-hop' };

function f3(v: number | undefined): string {
  return v === undefined || Number.isNaN(v) ? '–' : v.toFixed(3);
}

function ms(v: number): string {
  return Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1);
}

function label(row: RetrievalSystemRow): string {
  return `${row.name} (${row.mode})`;
}

/**
 * Two Markdown tables: the headline metrics per system and mode, then recall@10 per question
 * category. Budget columns are recall within the first N tokens of the injected block.
 */
export function renderRetrievalMarkdown(report: RetrievalReport): string {
  const first = report.systems[0];
  const ks = first ? Object.keys(first.recall) : [];
  const budgets = first ? Object.keys(first.budget_recall) : [];
  const head = [
    'system',
    ...ks.map((k) => `R@${k}`),
    'NDCG@10',
    'session R@5',
    ...budgets.map((b) => `R in ${b} tok`),
    'p50 ms',
    'p95 ms',
  ];
  const lines = [
    `Dataset \`${report.dataset}\`, ${report.questions} questions (categories 1-4).`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
  ];
  for (const row of report.systems) {
    const cells = [
      label(row),
      ...ks.map((k) => f3(row.recall[k])),
      f3(row.ndcg10),
      f3(row.session_recall5),
      ...budgets.map((b) => f3(row.budget_recall[b])),
      ms(row.p50_ms),
      ms(row.p95_ms),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  const cats = [...new Set(report.systems.flatMap((r) => Object.keys(r.per_category)))].sort();
  if (cats.length > 0) {
    const catHead = ['system', ...cats.map((c) => `${c} ${CATEGORY_NAMES[c] ?? ''}`.trim())];
    lines.push('', 'Recall@10 per question category:', '', `| ${catHead.join(' | ')} |`);
    lines.push(`|${catHead.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
    for (const row of report.systems) lines.push(`| ${[label(row), ...cats.map((c) => f3(row.per_category[c]))].join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** SVG line chart of evidence recall@k (x = k) for every system and mode of the report. */
export function renderRecallChart(report: RetrievalReport): string {
  return renderLineChart({
    title: `Evidence recall@k on ${report.dataset} (${report.questions} questions)`,
    xLabel: 'k (turns retrieved)',
    yLabel: 'recall@k',
    yRange: [0, 1],
    series: report.systems.map((row) => ({
      name: label(row),
      points: Object.entries(row.recall).map(([k, y]) => ({ x: Number(k), y })),
    })),
  });
}
