import { describe, expect, it } from 'vitest';
import { budgetRecall, countBenchTokens, dedupeRanked, ndcgAtK, recallAtK, sessionRecallAtK } from './metrics.js';
import { percentile, summariseLatency } from './percentile.js';

const sessionOf = (id: string): string | undefined => (/^D([12]):[1-3]$/u.test(id) ? id.slice(1, 2) : undefined);

describe('recall@k', () => {
  it('counts the share of evidence turns inside the top k', () => {
    expect(recallAtK(['D2:1', 'D1:2'], ['D1:2'], 1)).toBe(0);
    expect(recallAtK(['D2:1', 'D1:2'], ['D1:2'], 2)).toBe(1);
    expect(recallAtK(['D1:1', 'D1:3', 'D2:2', 'D2:1', 'D1:2', 'D2:3'], ['D1:1', 'D2:3'], 5)).toBe(0.5);
  });

  it('keeps an evidence id that does not exist in the denominator as a miss', () => {
    expect(recallAtK(['D1:3', 'D2:2'], ['D2:2', 'D9:9'], 5)).toBe(0.5);
  });
});

describe('NDCG@10', () => {
  it('discounts a hit at rank 2 by log2(3)', () => {
    expect(ndcgAtK(['D2:1', 'D1:2'], ['D1:2'], 1, 10)).toBeCloseTo(1 / Math.log2(3), 10);
  });

  it('normalises by the ideal ranking of the retrievable evidence only', () => {
    // DCG = 1 + 1/log2(7); IDCG = 1 + 1/log2(3)
    expect(ndcgAtK(['D1:1', 'D1:3', 'D2:2', 'D2:1', 'D1:2', 'D2:3'], ['D1:1', 'D2:3'], 2, 10)).toBeCloseTo(
      (1 + 1 / Math.log2(7)) / (1 + 1 / Math.log2(3)),
      10,
    );
    // One of two ids is missing: IDCG counts one relevant turn.
    expect(ndcgAtK(['D1:3', 'D2:2'], ['D2:2', 'D9:9'], 1, 10)).toBeCloseTo(1 / Math.log2(3), 10);
    expect(ndcgAtK(['D1:3'], ['D9:9'], 0, 10)).toBe(0);
  });
});

describe('session recall@5', () => {
  it('counts sessions of the evidence present among the top-5 sessions; an unknown session is unreachable', () => {
    expect(sessionRecallAtK(['D2:1', 'D1:2'], ['D1:2'], sessionOf, 5)).toBe(1);
    expect(sessionRecallAtK(['D1:3', 'D2:2'], ['D2:2', 'D9:9'], sessionOf, 5)).toBe(0.5);
    expect(sessionRecallAtK(['D1:1', 'D1:2', 'D1:3', 'D1:1', 'D1:2', 'D2:3'], ['D2:3'], sessionOf, 5)).toBe(0);
  });
});

describe('budget recall', () => {
  const words = (t: string): number => t.split(/\s+/u).filter((w) => w !== '').length;
  const block = {
    text: 'x x x\ny y\nz z z z\n',
    diaIdsInOrder: [
      { diaId: 'A', offsetChars: 0 },
      { diaId: 'B', offsetChars: 6 },
      { diaId: 'C', offsetChars: 10 },
    ],
  };

  it('counts a turn when its whole line fits in the first N tokens', () => {
    // Prefix token counts to each line's end: A 3, B 5, C 9; D9:9 is not in the block.
    expect(budgetRecall(block, ['A', 'C', 'D9:9'], [2, 3, 8, 9], words)).toEqual({
      '2': 0,
      '3': 1 / 3,
      '8': 1 / 3,
      '9': 2 / 3,
    });
  });

  it('uses endChars when given and counts a repeated turn at its first line', () => {
    const b = { text: 'a b c d', diaIdsInOrder: [{ diaId: 'A', offsetChars: 0, endChars: 3 }, { diaId: 'A', offsetChars: 4 }] };
    expect(budgetRecall(b, ['A'], [2], words)).toEqual({ '2': 1 });
  });

  it('counts with the real tokenizer by default', () => {
    expect(countBenchTokens('hello world')).toBe(2);
    expect(budgetRecall({ text: 'hello world\n', diaIdsInOrder: [{ diaId: 'A', offsetChars: 0 }] }, ['A'], [1, 2])).toEqual({
      '1': 0,
      '2': 1,
    });
  });
});

describe('helpers', () => {
  it('keeps the first occurrence of a repeated hit', () => {
    expect(dedupeRanked(['a', 'b', 'a', 'c'])).toEqual(['a', 'b', 'c']);
  });

  it('takes percentiles by nearest rank', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([], 50)).toBeNaN();
    expect(summariseLatency([1, 2, 3, 4])).toEqual({ p50_ms: 2, p95_ms: 4, p99_ms: 4 });
  });
});
