/** Soak benchmark smoke test: a few seconds of mixed load with nights; the report's shape and no errors. */
import { describe, expect, it } from 'vitest';
import { renderSoakMarkdown, runSoakBench } from './run-soak-bench.js';

describe('runSoakBench', () => {
  it('drives recall, ingest and remember at the set rate with nights in between, without an error', async () => {
    const r = await runSoakBench({ seconds: 4, rate: 25, sleepEvery: 1.5, windowSeconds: 1, seedTurns: 300 });
    expect(r.errors).toEqual({ total: 0, non2xx: 0, exceptions: 0, samples: [] });
    expect(r.requests.total).toBe(100);
    expect(r.requests.recall + r.requests.ingest + r.requests.remember).toBe(100);
    for (const k of ['recall', 'ingest', 'remember'] as const) expect(r.requests[k], k).toBeGreaterThan(0);
    expect(r.nights.started).toBe(2);
    expect(r.nights.slept + r.nights.skippedOverlap).toBe(2);
    expect(r.nights.failed).toBe(0);
    expect(r.windows.map((w) => [w.fromS, w.toS])).toEqual([[0, 1], [1, 2], [2, 3], [3, 4]]);
    expect(r.windows.reduce((n, w) => n + w.requests, 0)).toBe(100);
    for (const w of r.windows) {
      expect(w.errors).toBe(0);
      expect(w.p99Ms).toBeGreaterThanOrEqual(w.p50Ms);
      expect(w.rssMb).toBeGreaterThan(0);
      expect(w.dbMb + w.walMb).toBeGreaterThan(0);
    }
    expect(r.latency.p50Ms).toBeGreaterThan(0);
    expect(r.db.endMb).toBeGreaterThan(r.db.startMb);
    const md = renderSoakMarkdown(r);
    expect(md).toContain('errors: **0**');
    expect(md.split('\n').filter((l) => /^\| \d/.test(l))).toHaveLength(4);
  }, 120_000);
});
