// Renders a scale benchmark report as a Markdown table and as an SVG chart of recall latency against corpus size.
import { formatMachine } from '../machine-info.js';
import type { LatencySummary } from '../percentile.js';
import { renderLineChart } from '../svg-chart.js';
import type { ScaleReport, ScaleRow } from './run-scale-bench.js';

function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '–';
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(2)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(1)} MiB`;
  return `${(n / 2 ** 10).toFixed(0)} KiB`;
}

function rate(n: number | undefined): string {
  return n === undefined ? '–' : n.toLocaleString('en-US');
}

function lat(l: LatencySummary | undefined): string {
  if (!l) return '–';
  const f = (v: number): string => (v < 10 ? v.toFixed(2) : v.toFixed(1));
  return `${f(l.p50_ms)} / ${f(l.p95_ms)} / ${f(l.p99_ms)}`;
}

function cells(r: ScaleRow): string[] {
  if (r.status !== 'ok') return [r.system, r.size.toLocaleString('en-US'), r.reason ?? r.status, '', '', '', '', '', '', ''];
  const size = r.storage === 'disk' ? bytes(r.db_bytes) : `${bytes(r.db_bytes)} (serialised)`;
  return [
    r.system,
    r.size.toLocaleString('en-US'),
    rate(r.batch_ingest_per_s),
    rate(r.single_ingest_per_s),
    lat(r.lexical),
    lat(r.lexical_second_pass),
    r.known_item === undefined ? '–' : r.known_item.toFixed(3),
    lat(r.hybrid),
    size,
    bytes(r.peak_rss_bytes),
  ];
}

/** A Markdown section: machine, date, parameters and one table row per system and size. */
export function renderScaleMarkdown(report: ScaleReport): string {
  const head = [
    'system',
    'episodes',
    'batch ingest /s',
    'single ingest /s',
    'lexical p50 / p95 / p99 ms',
    'lexical again p50 / p95 / p99 ms',
    'known item in top k',
    'hybrid p50 / p95 / p99 ms',
    'size',
    'peak RSS',
  ];
  const lines = [
    `Machine: ${formatMachine(report.machine)}. Date: ${report.date.slice(0, 10)}. Seed ${report.seed}; ` +
      `${report.queries} queries per size and mode, ${report.single_calls} single-call ingests, batches of ${report.batch_size}.`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i < 1 ? '---' : '---:')).join('|')}|`,
    ...report.rows.map((r) => `| ${cells(r).join(' | ')} |`),
    '',
    'Known item: the share of lexical queries whose source episode (the one its 2-3 words were drawn from) is in the top k.',
    'Lexical: the first pass over the queries, right after the ingest (a fresh process: its caches, connections and JIT',
    'start cold); lexical again: the same queries asked once more, after the hybrid and vector runs.',
  ];
  const knn = report.rows.filter((r) => r.vector_knn);
  if (knn.length > 0) {
    lines.push(
      '',
      'Vector KNN alone (384-d, k = 10, 50 queries): the exact scan against the index path (SQLite: the HNSW graph, whose',
      'candidates carry their exact cosine; PostgreSQL: pgvector HNSW when installed), on the episodes\' hashing-embedder vectors and',
      'on as many dense clustered unit vectors; "ready" is the graph build before the first query.',
      '',
      '| system | vectors | exact p50 / p95 / p99 ms | index p50 / p95 / p99 ms | recall@10 of the exact top 10 | ready s |',
      '|---|---|---:|---:|---:|---:|',
      ...knn.flatMap((r) => {
        const size = r.size.toLocaleString('en-US');
        const v = r.vector_knn!;
        const c = r.vector_knn_clustered;
        return [
          `| ${r.system} | ${size} hashing | ${lat(v.exact)} | ${lat(v.fast)} | ${v.recall.toFixed(3)} | ${r.vector_ready_s ?? '–'} |`,
          ...(c ? [`| ${r.system} | ${size} clustered | ${lat(c.exact)} | ${lat(c.fast)} | ${c.recall.toFixed(3)} | ${c.ready_s} |`] : []),
        ];
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** SVG chart of p50 recall latency (log scale) against corpus size (log scale), per system and mode. */
export function renderLatencyChart(report: ScaleReport): string {
  const systems = [...new Set(report.rows.map((r) => r.system))];
  const series = systems.flatMap((name) => {
    const rows = report.rows.filter((r) => r.system === name && r.status === 'ok');
    const lexical = { name: `${name} lexical`, points: rows.map((r) => ({ x: r.size, y: r.lexical?.p50_ms ?? Number.NaN })) };
    const hybridRows = rows.filter((r) => r.hybrid);
    const hybrid = { name: `${name} hybrid`, points: hybridRows.map((r) => ({ x: r.size, y: r.hybrid?.p50_ms ?? Number.NaN })) };
    return hybridRows.length > 0 ? [lexical, hybrid] : [lexical];
  });
  return renderLineChart({
    title: 'Recall latency (p50) against corpus size',
    xLabel: 'episodes in memory',
    yLabel: 'p50 latency, ms',
    xLog: true,
    yLog: true,
    xTicks: [...new Set(report.rows.map((r) => r.size))].sort((a, b) => a - b),
    series,
  });
}
