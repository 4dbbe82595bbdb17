import { describe, expect, it } from 'vitest';
import { parseClaudeCode } from '../script/import-formats/parse-claude-code.js';
import { claudeCodeTranscript, renderScriptBenchMarkdown, runScriptBench } from './script-bench.js';

describe('script benchmark', () => {
  it('generates a Claude Code transcript of exactly the asked turns, tool calls and results included', () => {
    const turns = parseClaudeCode(claudeCodeTranscript(50, 3), { fileId: 'bench.jsonl' }).turns;
    expect(turns).toHaveLength(50);
    expect(turns.filter((t) => t.meta?.['kind'] === 'tool_call').length).toBeGreaterThan(0);
    expect(turns.filter((t) => t.meta?.['kind'] === 'tool_result').length).toBeGreaterThan(0);
  });

  it('runs script all and the import on a small memory and reports every job', async () => {
    const r = await runScriptBench({ narratives: 300, turns: 200 });
    expect(r.jobs.map((j) => [j.job, j.ok])).toEqual(
      [
        'topics',
        'soft-clusters',
        'attention',
        'entity-graph',
        'recurrence',
        'normalize',
        'scan',
        'backfill-links',
      ].map((j) => [j, true]),
    );
    expect(r).toMatchObject({ narratives: 300, dims: 384, turns: 200, imported: 200 });
    expect(renderScriptBenchMarkdown(r)).toContain('`script all` over 300 narratives');
    expect(r.dotEngines).toMatchObject({ vectors: 300, repeats: 3 });
    expect(r.dotEngines.kernelWasmMs).toBeGreaterThan(0);
    expect(renderScriptBenchMarkdown(r)).toContain('WebAssembly SIMD kernel vs plain typed arrays');
  });
});
