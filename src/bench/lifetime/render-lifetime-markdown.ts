// Renders the lifetime benchmark as a markdown table and an SVG chart of Recall@10 and injected recall across checkpoints.
import { renderLineChart } from '../svg-chart.js';
import type { LifetimeReport, LifetimeRunInfo } from './run-lifetime-bench.js';

function fmt(v: number): string {
  return v.toFixed(3);
}

/** One table of every mode × checkpoint, then the run's wall time and night outcomes when `info` is given. */
export function renderLifetimeMarkdown(report: LifetimeReport, info?: LifetimeRunInfo): string {
  const lines = [
    `Lifetime on ${report.dataset}: ${report.questions} questions (categories 1-4) asked at every checkpoint, without side effects.`,
    '',
    '| nights | checkpoint | R@5 | R@10 | R@25 | injected | context tok | prefetch tok | knowledge (status:n) | episodes live/archived | night tokens |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|',
  ];
  for (const m of report.modes) {
    for (const c of m.checkpoints) {
      const knowledge = Object.entries(c.knowledge).filter(([, n]) => n > 0).map(([s, n]) => `${s}:${n}`).join(' ') || '—';
      lines.push(
        `| ${m.nights} | ${c.name} | ${fmt(c.recall['5'] ?? 0)} | ${fmt(c.recall['10'] ?? 0)} | ${fmt(c.recall['25'] ?? 0)} | ${fmt(c.injected_recall)} | ${c.context_tokens} | ${c.prefetch_tokens} | ${knowledge} | ${c.episodes.live}/${c.episodes.archived} | ${c.night_tokens} |`,
      );
    }
  }
  if (info) {
    lines.push('');
    for (const [mode, ms] of Object.entries(info.wallMs)) {
      const nights = Object.entries(info.nights[mode] ?? {}).map(([k, n]) => `${k} ${n}`).join(', ');
      lines.push(
        `- ${mode}: wall ${(ms / 1000).toFixed(1)} s; nightly cycles ${(((info.nightMs[mode] ?? 0)) / 1000).toFixed(1)} s, of which script all ${((info.scriptMs[mode] ?? 0) / 1000).toFixed(1)} s; nights: ${nights || 'none'}; cached prompt tokens ${info.cachedTokens[mode] ?? 0}; tokens by step: ${Object.entries(info.stepTokens[mode] ?? {}).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`,
      );
    }
    for (const f of info.failures) lines.push(`- failure: ${f}`);
  }
  return lines.join('\n');
}

/** Recall@10 and injected recall per mode across the checkpoints (x: 0 = day0, 1 = end, 2… later ones). */
export function renderLifetimeChart(report: LifetimeReport): string {
  const names = report.modes[0]?.checkpoints.map((c) => c.name) ?? [];
  const series = report.modes.flatMap((m) => [
    { name: `${m.nights} R@10`, points: m.checkpoints.map((c, i) => ({ x: i, y: c.recall['10'] ?? Number.NaN })) },
    { name: `${m.nights} injected`, points: m.checkpoints.map((c, i) => ({ x: i, y: c.injected_recall })) },
  ]);
  return renderLineChart({
    title: `Memory over a year (${report.dataset})`,
    xLabel: `checkpoint: ${names.map((n, i) => `${i}=${n}`).join(', ')}`,
    yLabel: 'recall',
    yRange: [0, 1],
    xTicks: names.map((_, i) => i),
    series,
  });
}
