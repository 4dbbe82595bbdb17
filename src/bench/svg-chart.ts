// A tiny dependency-free SVG line chart for the benchmark report (recall@k per system, latency against size).

/** One line of a chart; points with a non-finite y are skipped (a system that did not run). */
export interface ChartSeries {
  readonly name: string;
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>;
}

/** Options of {@link renderLineChart}. */
export interface LineChartOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly ChartSeries[];
  /** Logarithmic x axis (sizes 10k … 1M). */
  readonly xLog?: boolean;
  /** Logarithmic y axis (latencies spanning decades). */
  readonly yLog?: boolean;
  /** Fixed y range, e.g. [0, 1] for recall; default from the data. */
  readonly yRange?: readonly [number, number];
  /** Tick positions on x; default the distinct x values of the data. */
  readonly xTicks?: readonly number[];
  readonly width?: number;
  readonly height?: number;
}

// Colour-blind-safe palette (Okabe–Ito), so eight systems stay apart in print.
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const MARGIN = { top: 40, right: 180, bottom: 50, left: 64 };

function esc(text: string): string {
  return text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;').replace(/"/gu, '&quot;');
}

/** Compact tick label: 1000000 → 1M, 10000 → 10k, 0.25 → 0.25. */
export function formatTick(v: number): string {
  if (Math.abs(v) >= 1e6 && v % 1e6 === 0) return `${v / 1e6}M`;
  if (Math.abs(v) >= 1e3 && v % 1e3 === 0) return `${v / 1e3}k`;
  return String(Number(v.toPrecision(3)));
}

function niceTicks(min: number, max: number, count = 5): number[] {
  if (max <= min) return [min];
  const raw = (max - min) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

function logTicks(min: number, max: number): number[] {
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e += 1) ticks.push(10 ** e);
  return ticks;
}

/** Renders a line chart with markers, axes, ticks and a legend as a standalone SVG document. */
export function renderLineChart(o: LineChartOptions): string {
  const width = o.width ?? 720;
  const height = o.height ?? 400;
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const pts = o.series.flatMap((s) => s.points).filter((p) => Number.isFinite(p.y) && (!o.yLog || p.y > 0));
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  const xMin = Math.min(...xs, ...(o.xTicks ?? []));
  const xMax = Math.max(...xs, ...(o.xTicks ?? []));
  let [yMin, yMax] = o.yRange ?? [o.yLog ? Math.min(...ys) : Math.min(0, ...ys), Math.max(...ys)];
  if (o.yLog) [yMin, yMax] = [10 ** Math.floor(Math.log10(yMin)), 10 ** Math.ceil(Math.log10(yMax))];
  const tx = (v: number): number => (o.xLog ? Math.log10(v) : v);
  const ty = (v: number): number => (o.yLog ? Math.log10(v) : v);
  const sx = (v: number): number =>
    MARGIN.left + (xMax === xMin ? plotW / 2 : ((tx(v) - tx(xMin)) / (tx(xMax) - tx(xMin))) * plotW);
  const sy = (v: number): number =>
    MARGIN.top + plotH - (yMax === yMin ? plotH / 2 : ((ty(v) - ty(yMin)) / (ty(yMax) - ty(yMin))) * plotH);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(o.title)}</text>`,
  ];
  const yTicks = o.yLog ? logTicks(yMin, yMax) : niceTicks(yMin, yMax);
  for (const t of yTicks) {
    const y = sy(t).toFixed(1);
    out.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y}" y2="${y}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${MARGIN.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${formatTick(t)}</text>`);
  }
  for (const t of o.xTicks ?? [...new Set(xs)].sort((a, b) => a - b)) {
    const x = sx(t).toFixed(1);
    out.push(`<line x1="${x}" x2="${x}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH + 5}" stroke="#333"/>`);
    out.push(`<text x="${x}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${formatTick(t)}</text>`);
  }
  out.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${height - 10}" text-anchor="middle">${esc(o.xLabel)}</text>`,
    `<text transform="translate(16 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">${esc(o.yLabel)}</text>`,
  );
  o.series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length] as string;
    const valid = s.points.filter((p) => Number.isFinite(p.y) && (!o.yLog || p.y > 0));
    const path = valid.map((p) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
    if (valid.length > 1) out.push(`<polyline points="${path}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const p of valid) out.push(`<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="3.5" fill="${color}"/>`);
    const ly = MARGIN.top + 10 + i * 18;
    const lx = MARGIN.left + plotW + 14;
    out.push(`<line x1="${lx}" x2="${lx + 20}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"/>`);
    out.push(`<text x="${lx + 26}" y="${ly}" dominant-baseline="middle">${esc(s.name)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
