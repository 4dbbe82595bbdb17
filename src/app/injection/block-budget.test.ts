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
