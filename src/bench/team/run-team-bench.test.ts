/** Team benchmark smoke test: three real servers on one PostgreSQL database for a few seconds; no error, nothing lost. */
import { describe, expect, it } from 'vitest';
import { renderTeamMarkdown, runTeamBench } from './run-team-bench.js';

const base = process.env.TIDEPOOL_TEST_PG_URL;

describe.skipIf(!base)('runTeamBench (needs TIDEPOOL_TEST_PG_URL)', () => {
  it('drives three servers with every operation and a night, and finds every acknowledged write', async () => {
    const r = await runTeamBench({ db: base!, servers: 3, seconds: 4, concurrency: 6, seedTurns: 300, nightEvery: 2 });
    expect(r.errors).toEqual({ total: 0, samples: [] });
    for (const op of r.ops) {
      expect(op.requests, op.op).toBeGreaterThan(0);
      expect(op.p99Ms, op.op).toBeGreaterThanOrEqual(op.p50Ms);
    }
    expect(r.writes.acknowledged).toBeGreaterThan(300);
    expect(r.writes.lost).toBe(0);
    expect(r.writes.keysWithOneLiveEntry).toBe(r.writes.keys);
    expect(r.nights.started).toBeGreaterThan(0);
    expect(r.nights.failed).toBe(0);
    expect(renderTeamMarkdown(r)).toContain('lost: **0**');
  }, 300_000);
});
