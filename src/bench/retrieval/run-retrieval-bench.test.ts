import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchConversation, BenchDataset } from '../locomo.js';
import { McpMemoryPeer } from '../peers/mcp-memory-peer.js';
import { MiniSearchPeer } from '../peers/minisearch-peer.js';
import { OramaPeer } from '../peers/orama-peer.js';
import type { RetrievalSystem } from '../retrieval-system.js';
import { tinyLocomo } from '../tiny-locomo.js';
import { renderRecallChart, renderRetrievalMarkdown } from './render-retrieval-markdown.js';
import { runRetrievalBench } from './run-retrieval-bench.js';

const conv: BenchConversation = {
  id: 'c1',
  speakers: ['A', 'B'],
  sessions: [
    { n: 1, at: Date.UTC(2023, 0, 1), turns: ['D1:1', 'D1:2', 'D1:3'].map((diaId) => ({ diaId, speaker: 'A', text: `turn ${diaId}` })) },
    { n: 2, at: Date.UTC(2023, 0, 2), turns: ['D2:1', 'D2:2', 'D2:3'].map((diaId) => ({ diaId, speaker: 'B', text: `turn ${diaId}` })) },
  ],
};

/** Returns a fixed ranking per question: the smallest system that exercises the harness exactly. */
class ScriptedSystem implements RetrievalSystem {
  readonly name = 'scripted';
  readonly mode = 'fixed';
  readonly #rankings: Record<string, string[]>;
  constructor(rankings: Record<string, string[]>) {
    this.#rankings = rankings;
  }
  async load(): Promise<void> {}
  async search(question: string, k: number): Promise<string[]> {
    return (this.#rankings[question] ?? []).slice(0, k);
  }
  async close(): Promise<void> {}
}

const threeQuestions: BenchDataset = {
  conversations: [conv],
  questions: [
    { convId: 'c1', question: 'q1', evidence: ['D1:2'], category: 1 },
    { convId: 'c1', question: 'q2', evidence: ['D1:1', 'D2:3'], category: 2 },
    { convId: 'c1', question: 'q3', evidence: ['D2:2', 'D9:9'], category: 4 },
  ],
};

const rankings = {
  q1: ['D2:1', 'D1:2', 'D1:3'],
  q2: ['D1:1', 'D1:3', 'D2:2', 'D2:1', 'D1:2', 'D2:3'],
  q3: ['D1:3', 'D2:2', 'D1:3'],
};

describe('runRetrievalBench on a hand-made 3-question dataset', () => {
  it('averages recall, NDCG, session recall and budget recall over the questions', async () => {
    const report = await runRetrievalBench({ dataset: threeQuestions, datasetName: 'hand', systems: [new ScriptedSystem(rankings)] });
    expect(report.dataset).toBe('hand');
    expect(report.questions).toBe(3);
    const row = report.systems[0];
    // R@5: q1 1, q2 1/2 (D2:3 is 6th), q3 1/2 (D9:9 does not exist) → 2/3.
    expect(row?.recall).toEqual({ '5': 0.667, '10': 0.833, '25': 0.833 });
    // NDCG@10: q1 1/log2(3); q2 (1 + 1/log2(7)) / (1 + 1/log2(3)); q3 1/log2(3) → 0.698.
    expect(row?.ndcg10).toBe(0.698);
    // Sessions: q1 {1} found, q2 {1,2} found, q3 {2, unreachable} half.
    expect(row?.session_recall5).toBe(0.833);
    // Every ranked line fits in 500 tokens, so budget recall is the share found anywhere.
    expect(row?.budget_recall).toEqual({ '500': 0.833, '1000': 0.833, '2000': 0.833 });
    expect(row?.per_category).toEqual({ '1': 1, '2': 1, '4': 0.5 });
    expect(row?.p50_ms).toBeGreaterThanOrEqual(0);
    expect(renderRetrievalMarkdown(report)).toContain('| scripted (fixed) | 0.667 | 0.833 | 0.833 | 0.698 | 0.833 |');
    expect(renderRecallChart(report)).toMatch(/^<svg[^]*<polyline[^]*scripted \(fixed\)[^]*<\/svg>\n$/u);
  });

  it('scores a question without evidence as a miss instead of dropping it', async () => {
    const dataset = { ...threeQuestions, questions: [...threeQuestions.questions, { convId: 'c1', question: 'q4', evidence: [], category: 3 }] };
    const report = await runRetrievalBench({ dataset, systems: [new ScriptedSystem(rankings)] });
    expect(report.questions).toBe(4);
    expect(report.systems[0]?.recall['5']).toBe(0.5);
  });
});

describe('runRetrievalBench with the peers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidepool-bench-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'tiny.json');
  writeFileSync(file, JSON.stringify(tinyLocomo()));

  it('runs English and Chinese conversations through minisearch, orama and the MCP memory server', async () => {
    const report = await runRetrievalBench({
      dataPath: file,
      systems: [new MiniSearchPeer(), new OramaPeer(), new McpMemoryPeer({ mode: 'keywords' })],
    });
    expect(report.dataset).toBe('tiny.json');
    expect(report.questions).toBe(6);
    expect(report.systems.map((s) => `${s.name}/${s.mode}`)).toEqual(['minisearch/bm25', 'orama/fulltext', 'mcp-memory/keywords']);
    // Substring keywords find every Chinese turn asked about (北京/咖啡, 小红/上海).
    expect(report.systems[2]?.per_category['4']).toBeGreaterThan(0.6);
    for (const row of report.systems) expect(row.recall['25']).toBeGreaterThan(0);
  });

  const dev = resolve(process.cwd(), '../shared/data/locomo/dev.json');
  const present = existsSync(dev);
  const title = 'runs end to end on a 1-conversation slice of the LoCoMo dev split';
  it.skipIf(!present)(present ? title : `${title} — skipped: ${dev} is absent`, async () => {
    const progress: string[] = [];
    const report = await runRetrievalBench({ dataPath: dev, systems: [new MiniSearchPeer()], limitConversations: 1, onProgress: (l) => progress.push(l) });
    expect(report.questions).toBe(152); // conv-26 has 152 questions of categories 1-4
    const row = report.systems[0];
    const r = row?.recall ?? {};
    expect(r['5']).toBeGreaterThan(0.3);
    expect(r['5']).toBeLessThanOrEqual(r['10'] as number);
    expect(r['10']).toBeLessThanOrEqual(r['25'] as number);
    expect(row?.budget_recall['500']).toBeLessThanOrEqual(row?.budget_recall['2000'] as number);
    expect(progress).toHaveLength(1);
  });
});
