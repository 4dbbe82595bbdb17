import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../core/token-count.js';
import { fitBlock, renderBlock, type BlockItem } from './block-budget.js';

const items: BlockItem[] = [
  { section: 'identity', text: 'I am the careful build agent of the Kestrel project.', value: 100 },
  { section: 'threads', text: '- why does the lock stall on slow disks?', value: 70.9 },
  { section: 'threads', text: '- should the cache be per branch?', value: 70.5 },
  { section: 'map', text: 'sync(12)', value: 21 },
  { section: 'map', text: 'ci(7)', value: 20.5 },
  { section: 'people', text: '- Ben: storage layer, answers fast.', value: 10.5 },
];

describe('fitBlock', () => {
  it('renders sections in order, omits empty ones and joins the topics on one line', () => {
    expect(renderBlock(items)).toBe(
      '# Memory (Tidepool)\n\n## Who I am\nI am the careful build agent of the Kestrel project.\n\n## Open threads\n' +
        '- why does the lock stall on slow disks?\n- should the cache be per branch?\n\n## Memory map\nTopics: sync(12) · ci(7)\n\n' +
        '## People\n- Ben: storage layer, answers fast.\n',
    );
    expect(renderBlock([])).toBe('');
  });

  it('keeps everything when it fits', () => {
    const f = fitBlock(items, 10_000);
    expect(f.dropped).toEqual([]);
    expect(f.tokens).toBe(countTokens(renderBlock(items)));
  });

  it('keeps everything for every budget from its token count up, and counts tokens only when they are read', () => {
    const whole = renderBlock(items);
    const bytes = Buffer.byteLength(whole, 'utf8');
    for (let budget = countTokens(whole); budget <= bytes + 2; budget++) {
      const f = fitBlock(items, budget);
      expect(f.text).toBe(whole);
      expect(f.dropped).toEqual([]);
      expect(f.tokens).toBe(countTokens(whole));
      expect(JSON.parse(JSON.stringify(f)).tokens).toBe(countTokens(whole));
    }
    // In a fresh process: the session-start hook prints the text of a block within its budget in bytes, and never
    // loads the tokenizer (~0.35 s) for it; reading the count loads it.
    const code = `const { fitBlock } = await import('./src/app/injection/block-budget.ts');
      const { createRequire } = await import('node:module');
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('gpt-tokenizer'));
      const f = fitBlock(${JSON.stringify(items)}, 4000);
      const before = loaded();
      const tokens = f.tokens;
      console.log(JSON.stringify({ before, after: loaded(), tokens }));`;
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }).trim()) as unknown;
    expect(out).toEqual({ before: false, after: true, tokens: countTokens(whole) });
  }, 60_000);

  it('drops the lowest-valued items until the real token count fits, for every budget', () => {
    for (let budget = 1; budget <= countTokens(renderBlock(items)); budget++) {
      const f = fitBlock(items, budget);
      expect(f.tokens).toBe(countTokens(f.text));
      expect(f.tokens).toBeLessThanOrEqual(budget);
      // Whatever was dropped is worth no more than the cheapest kept item, unless it did not fit on its own.
      for (const d of f.dropped) {
        const alone = countTokens(renderBlock([...f.kept, d]));
        if (alone <= budget) expect.fail(`budget ${budget}: "${d.text}" would still fit`);
      }
    }
  });

  it('never cuts an item: the identity line survives whole or not at all', () => {
    const f = fitBlock(items, 25);
    expect(f.kept.map((i) => i.section)).toEqual(['identity']);
    expect(f.text).toContain('I am the careful build agent of the Kestrel project.');
  });
});
