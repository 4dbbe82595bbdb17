import { describe, expect, it } from 'vitest';
import { backfillSourceLinks, type BackfillEpisode } from './backfill-links.js';
import { createKeywordExtractor } from './keywords.js';
import { loadStopwords } from './stopwords.js';

const extract = createKeywordExtractor({ stopwords: loadStopwords() });
const T = Date.UTC(2026, 3, 1, 12);
const H = 3_600_000;

describe('backfillSourceLinks', () => {
  const episodes: BackfillEpisode[] = [
    { id: 1, content: '[USER] 数据库连接池又耗尽了', createdAt: T - H },
    { id: 2, content: '[ASSISTANT] 我重启了数据库', createdAt: T + 90 * 60_000 },
    { id: 3, content: '[USER] 数据库的事情', createdAt: T + 2 * H + 1 }, // just outside ±2 h
    { id: 4, content: '[USER] 今天吃了火锅', createdAt: T }, // no shared keyword
    { id: 5, content: 'the database pool is exhausted', createdAt: T - 10 * 60_000 },
  ];

  it('links episodes within ±2 h that share a keyword, ranked by overlap then proximity', () => {
    const r = backfillSourceLinks(
      [{ id: 10, text: '数据库连接池耗尽，我重启了它', createdAt: T, sourceLinks: [] }],
      episodes,
      { extract },
    );
    expect(r).toEqual([{ narrativeId: 10, sourceLinks: [1, 2] }]);
  });

  it('caps the links at maxLinks, keeping the best', () => {
    const r = backfillSourceLinks(
      [{ id: 10, text: '数据库连接池耗尽', createdAt: T, sourceLinks: null }],
      episodes,
      { extract, maxLinks: 1 },
    );
    expect(r).toEqual([{ narrativeId: 10, sourceLinks: [1] }]);
  });

  it('works for English and leaves linked or unmatched narratives out', () => {
    const r = backfillSourceLinks(
      [
        { id: 11, text: 'Database pool exhausted again', createdAt: T, sourceLinks: [] },
        { id: 12, text: '数据库', createdAt: T, sourceLinks: [4] },
        { id: 13, text: 'gardening', createdAt: T, sourceLinks: [] },
      ],
      episodes,
      { extract },
    );
    expect(r).toEqual([{ narrativeId: 11, sourceLinks: [5] }]);
  });

  it('defaults to at most 20 links', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({
      id: 100 + i,
      content: 'deploy failed',
      createdAt: T + i * 60_000,
    }));
    const r = backfillSourceLinks([{ id: 1, text: 'deploy failed', createdAt: T, sourceLinks: [] }], many, {
      extract,
    });
    expect(r[0]!.sourceLinks).toEqual(Array.from({ length: 20 }, (_, i) => 100 + i));
  });
});
