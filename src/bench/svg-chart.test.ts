import { describe, expect, it } from 'vitest';
import { formatTick, renderLineChart } from './svg-chart.js';

describe('renderLineChart', () => {
  it('draws one polyline and legend entry per series and escapes names', () => {
    const svg = renderLineChart({
      title: 'Recall <k>',
      xLabel: 'k',
      yLabel: 'recall',
      yRange: [0, 1],
      series: [
        { name: 'a & b', points: [{ x: 5, y: 0.4 }, { x: 10, y: 0.5 }, { x: 25, y: 0.6 }] },
        { name: 'c', points: [{ x: 5, y: 0.2 }, { x: 10, y: Number.NaN }] },
      ],
    });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<polyline/gu)).toHaveLength(1); // 'c' has one finite point: a marker, no line
    expect(svg.match(/<circle/gu)).toHaveLength(4);
    expect(svg).toContain('a &amp; b');
    expect(svg).toContain('Recall &lt;k&gt;');
    expect(svg).not.toContain('NaN');
  });

  it('places log-scale points by their logarithm', () => {
    const svg = renderLineChart({
      title: 't',
      xLabel: 'x',
      yLabel: 'y',
      xLog: true,
      yLog: true,
      width: 264,
      series: [{ name: 's', points: [{ x: 10, y: 1 }, { x: 100, y: 10 }, { x: 1000, y: 100 }] }],
    });
    const xs = [...svg.matchAll(/<circle cx="([\d.]+)"/gu)].map((m) => Number(m[1]));
    expect(xs[1]! - xs[0]!).toBeCloseTo(xs[2]! - xs[1]!, 5);
  });

  it('formats ticks compactly', () => {
    expect([formatTick(10_000), formatTick(1_000_000), formatTick(0.25), formatTick(500)]).toEqual(['10k', '1M', '0.25', '500']);
  });
});
