// fitToBudget keeps what counting every line keeps, for every budget, while it counts only when the lines' bytes no
// longer fit.
import { describe, expect, it } from 'vitest';
import { countTokens } from '../core/token-count.js';
import { createRng } from '../script/seeded-rng.js';
import { fitToBudget } from './token-budget.js';

/** The rule as it reads: count every line, keep it when it still fits. */
function reference(lines: readonly string[], maxTokens: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const line of lines) {
    const cost = countTokens(line) + 1;
    if (used + cost > maxTokens) continue;
    used += cost;
    out.push(line);
  }
  return out;
}

const WORDS = ['staging', 'port', '6543', '数据库', '端口', '测试环境', '🙂', 'über', 'the', 'a', '—', 'naïve', '𠀀', 'x'.repeat(40)];

describe('fitToBudget', () => {
  it('keeps the same lines as counting every line, for every budget up to past their length', () => {
    const rng = createRng(7).next;
    for (let round = 0; round < 12; round++) {
      const lines = Array.from({ length: 2 + Math.floor(rng() * 8) }, () =>
        Array.from({ length: 1 + Math.floor(rng() * 25) }, () => WORDS[Math.floor(rng() * WORDS.length)]).join(rng() < 0.5 ? ' ' : ''),
      );
      const bytes = lines.reduce((a, l) => a + Buffer.byteLength(l) + 1, 0);
      for (let budget = 0; budget <= bytes + 2; budget += 1 + Math.floor(budget / 40)) {
        expect(fitToBudget(lines, (l) => l, budget), `round ${round}, budget ${budget}`).toEqual(reference(lines, budget));
      }
    }
  });

  it('keeps everything without a budget', () => {
    expect(fitToBudget(['a', 'b'], (l) => l, undefined)).toEqual(['a', 'b']);
  });
});
