import { describe, expect, it } from 'vitest';
import { cosine, hashEmbedding } from './hash-embedding.js';
import { syntheticEpisodes } from './synthetic-episodes.js';
import type { ScaleItem } from './synthetic-episodes.js';

function take(n: number, seed: number): ScaleItem[] {
  const g = syntheticEpisodes({ seed });
  return Array.from({ length: n }, () => g.next().value);
}

describe('syntheticEpisodes', () => {
  const items = take(5000, 3);

  it('is deterministic for a seed', () => {
    expect(take(50, 3)).toEqual(items.slice(0, 50));
    expect(take(50, 4)).not.toEqual(items.slice(0, 50));
  });

  it('writes about one line in ten in Chinese', () => {
    const zh = items.filter((i) => /[\u4e00-\u9fff]{2}.*[。，]/u.test(i.text)).length / items.length;
    expect(zh).toBeGreaterThan(0.07);
    expect(zh).toBeLessThan(0.13);
  });

  it('groups turns into sessions with time moving forward and alternating roles', () => {
    for (let i = 1; i < items.length; i += 1) expect((items[i] as ScaleItem).at).toBeGreaterThan((items[i - 1] as ScaleItem).at);
    const sessions = new Set(items.map((i) => i.sessionId));
    expect(sessions.size).toBeGreaterThan(100);
    expect(items[0]?.role).toBe('user');
    expect(items[1]?.role).toBe('assistant');
  });

  it('has a long-tailed vocabulary', () => {
    const counts = new Map<string, number>();
    for (const i of items) for (const w of i.text.toLowerCase().match(/[a-z]+/gu) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
    const once = [...counts.values()].filter((c) => c === 1).length;
    expect(counts.size).toBeGreaterThan(2000);
    expect(once / counts.size).toBeGreaterThan(0.4); // words seen once (hapax legomena): about half in natural text
  });
});

describe('hashEmbedding', () => {
  it('is a deterministic 384-d unit vector', () => {
    const v = hashEmbedding('deploy the server tomorrow');
    expect(v).toHaveLength(384);
    expect(hashEmbedding('deploy the server tomorrow')).toEqual(v);
    expect(cosine(v, v)).toBeCloseTo(1, 5);
    expect(hashEmbedding('')).toHaveLength(384);
  });

  it('makes texts that share words closer than texts that do not, in English and Chinese', () => {
    const a = hashEmbedding('deploy the server tomorrow');
    expect(cosine(a, hashEmbedding('the server was deployed'))).toBeGreaterThan(cosine(a, hashEmbedding('I like chocolate cake')) + 0.3);
    const zh = hashEmbedding('我喜欢喝咖啡');
    expect(cosine(zh, hashEmbedding('咖啡很好喝'))).toBeGreaterThan(cosine(zh, hashEmbedding('明天去上海开会')) + 0.2);
  });
});
