import { describe, expect, it } from 'vitest';
import { miniSearchScaleFactory } from '../peers/minisearch-scale-peer.js';
import { oramaHybridScaleFactory } from '../peers/orama-scale-peer.js';
import { renderLatencyChart, renderScaleMarkdown } from './render-scale-markdown.js';
import { runScaleBench } from './run-scale-bench.js';
import { tidepoolScaleFactory } from '../tidepool-scale-system.js';

describe('runScaleBench', () => {
  it('measures ingest, lexical and hybrid latency, size and memory for each peer and size', async () => {
    const report = await runScaleBench({
      sizes: [1000, 300],
      factories: [miniSearchScaleFactory, oramaHybridScaleFactory],
      queries: 20,
      singleCalls: 20,
      batchSize: 100,
      isolate: false,
    });
    expect(report.rows.map((r) => `${r.system}@${r.size}:${r.status}`)).toEqual([
      'minisearch@300:ok',
      'minisearch@1000:ok',
      'orama-hybrid@300:ok',
      'orama-hybrid@1000:ok',
    ]);
    for (const row of report.rows) {
      expect(row.batch_ingest_per_s).toBeGreaterThan(0);
      expect(row.single_ingest_per_s).toBeGreaterThan(0);
      expect(row.lexical?.p99_ms).toBeGreaterThanOrEqual(row.lexical?.p50_ms ?? Infinity);
      expect(row.lexical_second_pass?.p99_ms).toBeGreaterThanOrEqual(row.lexical_second_pass?.p50_ms ?? Infinity);
      expect(row.mean_hits).toBeGreaterThan(0); // queries are drawn from ingested episodes
      expect(row.known_item).toBeGreaterThan(0.2); // … so their source episode is often in the top k
      expect(row.known_item).toBeLessThanOrEqual(1);
      expect(row.db_bytes).toBeGreaterThan(0);
      expect(row.peak_rss_bytes).toBeGreaterThan(0);
    }
    expect(report.rows[0]?.hybrid).toBeUndefined();
    expect(report.rows[2]?.hybrid?.p50_ms).toBeGreaterThanOrEqual(0);
    expect(renderScaleMarkdown(report)).toMatch(/\| minisearch \| 1,000 \| [\d,]+ \| [\d,]+ \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \| [\d.]+ \/ /u);
    expect(renderLatencyChart(report)).toContain('orama-hybrid hybrid');
  });

  it("maps Tidepool's episode ids back to the items, for known-item recall", async () => {
    const report = await runScaleBench({ sizes: [600], factories: [tidepoolScaleFactory], queries: 20, singleCalls: 5, isolate: false });
    const row = report.rows[0];
    expect(row?.status).toBe('ok');
    expect(row?.known_item).toBeGreaterThan(0.3);
    expect(renderScaleMarkdown(report)).toMatch(/\| tidepool \| 600 \| .* \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \| 0\.\d{3} \|/u);
  });

  it('does not run an in-memory peer at a size whose projected heap passes the bound', async () => {
    const report = await runScaleBench({
      sizes: [200, 5000],
      factories: [miniSearchScaleFactory],
      queries: 5,
      singleCalls: 5,
      memoryBoundBytes: 1024,
      isolate: false,
    });
    expect(report.rows.map((r) => r.status)).toEqual(['ok', 'not_run']);
    expect(report.rows[1]?.reason).toMatch(/^not run: projected heap .* > bound/u);
    expect(renderScaleMarkdown(report)).toContain('not run: projected heap');
  });

  it('runs each size in a child process of its own, whose peak RSS is its alone', async () => {
    const report = await runScaleBench({ sizes: [300], factories: [miniSearchScaleFactory], queries: 5, singleCalls: 5 });
    expect(report.isolated).toBe(true);
    const row = report.rows[0];
    expect(row?.status).toBe('ok');
    expect(row?.pid).not.toBe(process.pid);
    expect(row?.mean_hits).toBeGreaterThan(0);
  });
});
