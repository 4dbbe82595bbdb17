import { describe, expect, it } from 'vitest';
import { clipTurn, extractNarratives, namedEntities } from './extractive-narratives.js';
import { englishKeywords } from './keywords.js';

const STOP = new Set(['the', 'and', 'you', 'for', 'with', 'that', 'this', 'was', 'are', 'have', 'been', 'what', 'too', 'thanks', 'just', 'about', 'has', 'our', 'but']);
const keywords = (t: string) => englishKeywords(t, STOP);
const DAY = Date.UTC(2023, 4, 8, 13, 56);

function turns(start: number, lines: Array<[string, string]>): Array<{ id: number; speaker: string; content: string; at: number }> {
  return lines.map(([speaker, content], i) => ({ id: start + i, speaker, content, at: DAY + i * 1000 }));
}

describe('extractNarratives', () => {
  const chunk = turns(1, [
    ['Melanie', 'Hey Caroline, how have you been?'],
    ['Caroline', 'Thanks, good!'],
    ['Caroline', 'Researching adoption agencies in Portland has been my project; I met Maria from Bright Futures yesterday.'],
    ['Melanie', 'Adoption agencies can be slow. Did Maria explain the home study?'],
  ]);

  it('makes the salient turn the gesture, keeps speakers and named people, links the source turns', () => {
    const [n, ...rest] = extractNarratives([chunk], { keywords });
    expect(rest).toEqual([]);
    expect(n!.gesture).toBe(`Caroline: ${chunk[2]!.content}`);
    expect(n!.moment).toBe(`Melanie: ${chunk[3]!.content}`);
    expect(n!.context).toMatch(/^Melanie and Caroline on 2023-05-08: /);
    expect(n!.tags).toContain('adoption');
    expect(n!.tags.length).toBeLessThanOrEqual(5);
    expect(n!.entitiesRole).toBe('Melanie=speaker; Caroline=speaker; Portland=mentioned; Maria=mentioned; Bright Futures=mentioned');
    expect(n!.sourceLinks).toEqual([1, 2, 3, 4]);
    expect([n!.emotional, n!.unresolved]).toEqual([3, 3]);
  });

  it('gives a long chunk at most 3 narratives (Tideline solidify: 0-3 per chunk) and ranks importance by salience', () => {
    const long = turns(1, Array.from({ length: 40 }, (_, i) => [i % 2 ? 'Ana' : 'Ben', i === 35 ? 'Kiln firing schedule glaze cone chemistry notes' : `turn number ${i} okay`] as [string, string]));
    const out = extractNarratives([long], { keywords });
    expect(out).toHaveLength(3);
    expect(out.flatMap((n) => n.sourceLinks)).toEqual(long.map((t) => t.id));
    const kiln = out.find((n) => n.gesture.includes('Kiln'))!;
    expect(kiln.importance).toBe(5);
    expect(Math.min(...out.map((n) => n.importance))).toBeLessThan(5);
  });

  it('writes nothing for turns without a single keyword', () => {
    expect(extractNarratives([turns(1, [['A', 'ok'], ['B', 'ok'], ['A', 'and you?']])], { keywords })).toEqual([]);
  });
});

describe('namedEntities and clipTurn', () => {
  it('finds capitalised names inside sentences, not sentence openers or weekdays', () => {
    expect(namedEntities('We went to Sweden with Mel on Friday. The trip was fun.')).toEqual(['Sweden', 'Mel']);
  });

  it('cuts a long turn at a sentence end', () => {
    expect(clipTurn('First sentence here. Second sentence is much longer than the limit allows.', 40)).toBe('First sentence here.');
  });
});
