import { describe, expect, it } from 'vitest';
import { createKeywordExtractor } from './keywords.js';
import { loadStopwords } from './stopwords.js';
import { buildTopicClusters, topicText, type TopicDoc } from './topic-clusters.js';

const kw = createKeywordExtractor({ stopwords: loadStopwords() });
const T0 = Date.UTC(2026, 0, 1);

function docsFrom(texts: readonly string[]): TopicDoc[] {
  return texts.map((t, i) => ({
    id: i + 1,
    keywords: kw(t),
    weight: 0.5 + i / 100,
    createdAt: T0 + i * 60_000,
  }));
}

/** Twelve Chinese narratives: 调试/同步/服务 in all 12, 数据库/连接池/耗尽 in the first 3, 缓存 in 2. */
const twelve = Array.from({ length: 12 }, (_, k) => {
  const i = k + 1;
  let g = `第${i}次调试同步服务`;
  if (i <= 3) g += '，数据库连接池耗尽';
  if (i === 4 || i === 5) g += '，缓存失效';
  return g;
});

describe('document-frequency thresholds (N = 12: keep 3 ≤ DF < max(4, ⌊12·0.2⌋) = 4)', () => {
  const result = buildTopicClusters(docsFrom(twelve));
  const names = result.clusters.map((c) => c.name);

  it('keeps a word in 3 of 12 narratives', () => {
    expect(result.maxDf).toBe(4);
    expect(names.sort()).toEqual(['数据库', '耗尽', '连接池'].sort());
    expect(result.clusters.find((c) => c.name === '数据库')).toMatchObject({
      narrativeIds: [1, 2, 3],
      size: 3,
    });
  });

  it('drops a word in 12 of 12 narratives as generic', () => {
    expect(names).not.toContain('调试');
    expect(result.dropped.generic).toBe(2); // 调试 and 服务
    expect(JSON.stringify(result)).not.toContain('"调试"');
  });

  it('drops a word in 2 of 12 narratives as too rare', () => {
    expect(names).not.toContain('缓存');
    expect(result.dropped.rare).toBe(2); // 缓存 and 失效
  });

  it('reports size, newest activity, average weight and idf per cluster', () => {
    const c = result.clusters.find((x) => x.name === '连接池')!;
    expect(c.lastActive).toBe(T0 + 2 * 60_000);
    expect(c.avgWeight).toBeCloseTo((0.5 + 0.51 + 0.52) / 3, 4);
    expect(c.idf).toBeCloseTo(Math.log(12 / 3), 4);
  });
});

describe('the generic threshold grows with N', () => {
  it('at N = 100 keeps DF 19 and drops DF 20 (20 % of N)', () => {
    const docs: TopicDoc[] = Array.from({ length: 100 }, (_, i) => ({
      id: i,
      keywords: [i < 19 ? 'nineteen' : 'x' + i, i < 20 ? 'twenty' : 'y' + i],
      weight: 0.5,
      createdAt: T0,
    }));
    const r = buildTopicClusters(docs);
    expect(r.maxDf).toBe(20);
    expect(r.clusters.map((c) => c.name)).toEqual(['nineteen']);
  });
});

describe('English narratives', () => {
  it('clusters by shared topical words', () => {
    const texts = [
      'Caroline went to the LGBTQ support group',
      'Caroline talked about the support group again',
      'The support group helped Caroline with adoption',
      'Melanie painted a sunrise with her kids',
      'Melanie took the kids camping',
      'Melanie and the kids went camping at the beach',
      'Melanie signed up for a pottery class',
      'Caroline researched adoption agencies',
      'Caroline is looking into adoption agencies',
      'Melanie ran a charity race',
      'Caroline gave a speech at a school',
      'Melanie read a book',
      'Caroline bought a guitar',
      'Melanie went swimming',
      'Caroline met her mentors',
      'Melanie visited the museum',
    ];
    const r = buildTopicClusters(docsFrom(texts));
    const byName = Object.fromEntries(r.clusters.map((c) => [c.name, c.narrativeIds]));
    expect(byName['support']).toEqual([1, 2, 3]);
    expect(byName['group']).toEqual([1, 2, 3]);
    expect(byName['adoption']).toEqual([3, 8, 9]);
    expect(byName['kid']).toEqual([4, 5, 6]);
    expect(byName['caroline']).toBeUndefined(); // 8 of 16 ≥ max(4, 3): generic
  });
});

describe('Jaccard merging', () => {
  const docs: TopicDoc[] = [
    ...[1, 2, 3, 4].map((id) => ({ id, keywords: ['alpha', 'beta'], weight: 0.5, createdAt: T0 })),
    { id: 5, keywords: ['beta', 'gamma'], weight: 0.5, createdAt: T0 },
    ...[6, 7, 8].map((id) => ({ id, keywords: ['gamma'], weight: 0.5, createdAt: T0 })),
    ...Array.from({ length: 22 }, (_, i) => ({
      id: 100 + i,
      keywords: [`z${i}`],
      weight: 0.5,
      createdAt: T0,
    })),
  ];

  it('is off by default: every kept word is its own cluster', () => {
    expect(
      buildTopicClusters(docs)
        .clusters.map((c) => c.name)
        .sort(),
    ).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('joins words whose narrative sets overlap by Jaccard ≥ 0.7, naming the cluster by its top words by IDF', () => {
    const r = buildTopicClusters(docs, { merge: true });
    // alpha {1-4} and beta {1-5}: 4/5 = 0.8 → joined; beta and gamma {5-8}: 1/8 → apart.
    expect(r.clusters).toHaveLength(2);
    expect(r.clusters[0]).toMatchObject({
      name: 'alpha / beta',
      keywords: ['alpha', 'beta'],
      narrativeIds: [1, 2, 3, 4, 5],
      size: 5,
    });
    expect(r.clusters[1]).toMatchObject({ name: 'gamma', narrativeIds: [5, 6, 7, 8] });
  });

  it('honours a stricter threshold', () => {
    expect(buildTopicClusters(docs, { merge: true, minJaccard: 0.9 }).clusters).toHaveLength(3);
  });
});

describe('determinism and text', () => {
  it('gives the same clusters for the same input, whatever the input order', () => {
    const docs = docsFrom(twelve);
    const a = buildTopicClusters(docs);
    const b = buildTopicClusters([...docs].reverse());
    expect(b.clusters).toEqual(a.clusters);
  });

  it('builds the text from content, gesture, context and cognition direction', () => {
    expect(topicText({ content: 'a', gesture: 'b', context: null, cognitionDirection: 'd' })).toBe('a\nb\nd');
  });
});
