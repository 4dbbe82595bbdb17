import { describe, expect, it } from 'vitest';
import { generateParallelCorpus } from './parallel-corpus.js';
import { renderBilingualMarkdown, runBilingualBench } from './run-bilingual-bench.js';

describe('runBilingualBench', () => {
  it('runs Tidepool and minisearch end to end on one small conversation in both languages', async () => {
    const corpus = generateParallelCorpus({ seed: 3, conversations: 1, sessions: [2, 2], turns: [10, 12] });
    const report = await runBilingualBench({ seed: 3, corpus });
    expect(report.seed).toBe(3);
    expect(report.conversations).toBe(1);
    expect(report.questions).toBe(corpus.en[0]?.qa.length);
    expect(report.languages.map((l) => l.lang)).toEqual(['en', 'zh']);
    for (const l of report.languages) {
      expect(l.systems.map((s) => `${s.name}/${s.mode}`)).toEqual(['tidepool/lexical', 'minisearch/bm25']);
      for (const s of l.systems) {
        for (const k of ['5', '10', '25']) expect(s.recall[k]).toBeGreaterThanOrEqual(0);
        expect(s.recall['25']).toBeLessThanOrEqual(1);
      }
    }
    // Tidepool finds evidence in Chinese at all (segmentation works end to end).
    expect(report.languages[1]?.systems[0]?.recall['25']).toBeGreaterThan(0);
    const md = renderBilingualMarkdown(report);
    expect(md).toContain('| tidepool (lexical) | en |');
    expect(md).toContain('| tidepool (lexical) | zh − en |');
    expect(md).toContain('minisearch (bm25) | zh |');
  }, 30_000);
});
