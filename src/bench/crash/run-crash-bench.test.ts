import { describe, expect, it } from 'vitest';
import { renderCrashMarkdown, runCrashBench } from './run-crash-bench.js';

describe('bench crash', () => {
  it(
    'SIGKILLs real CLI, HTTP, import, night and tend writers, finds every acknowledged write and a sound file',
    { timeout: 240_000 },
    async () => {
      // Runs the built CLI (test/global-setup.ts builds dist/): a few short rounds, every lane killed at least once.
      const r = await runCrashBench({ kills: 14, roundMs: 8_000, seed: 3 });
      expect(r.kills).toBeGreaterThanOrEqual(14);
      for (const lane of r.lanes) expect(lane.kills, lane.lane).toBeGreaterThan(0);
      expect(r.acknowledged.total).toBeGreaterThan(0);
      expect(r.lost).toBe(0);
      expect(r.integrityFailures).toBe(0);
      expect(r.samples).toEqual([]);
      expect(renderCrashMarkdown(r)).toContain(`**${r.kills} SIGKILLs**`);
      console.log(renderCrashMarkdown(r));
    },
  );
});
