import { describe, expect, it } from 'vitest';
import { queryTerms, rankSearch, type SearchDoc } from './search-ranking.js';

const docs: SearchDoc[] = [
  { file: 'MEMORY.md', tier: 'core', text: '# MEMORY\n\n## Pitfalls\n- 同步服务在重启时会丢失锁\n' },
  {
    file: 'archive/hot/2026-11-04.md',
    tier: 'hot',
    date: '2026-11-04',
    text: '# 2026-11-04\n\n## 【10:12 排查同步延迟】\n同步延迟来自锁等待。\n',
  },
  {
    file: 'archive/cold/2026-09-30.md',
    tier: 'cold',
    date: '2026-09-30',
    text: '# 2026-09-30\n\n## 【09:10 修好了同步】\n调试了一上午，\n终于找到竞态。\n两个 worker 同时拿到了同一个任务。\n\n## 【16:45 incident write-up】\nRace between two Workers.\n',
  },
  {
    file: 'archive/hot/2026-11-05.md',
    tier: 'hot',
    date: '2026-11-05',
    text: '# 2026-11-05\n\n## 【14:30 wrote the tide tests】\nAll green.\n',
  },
];

describe('rankSearch', () => {
  it('finds a two-character Chinese word inside a sentence, with context lines and its heading', () => {
    const r = rankSearch(docs, '竞态', { limit: 8, context: 1 });
    expect(r.total).toBe(1);
    expect(r.results[0]).toMatchObject({
      file: 'archive/cold/2026-09-30.md',
      tier: 'cold',
      date: '2026-09-30',
      hits: 1,
    });
    expect(r.results[0]!.snippets).toEqual([
      {
        heading: '【09:10 修好了同步】',
        startLine: 4,
        lines: ['调试了一上午，', '终于找到竞态。', '两个 worker 同时拿到了同一个任务。'],
        matchLines: [5],
      },
    ]);
  });

  it('matches English case-insensitively and full-width letters as ASCII', () => {
    expect(rankSearch(docs, 'WORKERS', { limit: 8, context: 0 }).results.map((h) => h.file)).toEqual([
      'archive/cold/2026-09-30.md',
    ]);
    expect(rankSearch(docs, 'ＲＡＣＥ', { limit: 8, context: 0 }).total).toBe(1);
  });

  it('ranks by hit count, then recency, with MEMORY.md as newest on a tie', () => {
    const r = rankSearch(docs, '同步', { limit: 8, context: 0 });
    expect(r.results.map((h) => [h.file, h.hits])).toEqual([
      ['archive/hot/2026-11-04.md', 2],
      ['MEMORY.md', 1],
      ['archive/cold/2026-09-30.md', 1],
    ]);
  });

  it('ranks files covering more of the query first', () => {
    const r = rankSearch(docs, 'tide green 同步', { limit: 8, context: 0 });
    expect(r.results[0]!.file).toBe('archive/hot/2026-11-05.md');
  });

  it('falls back to bigrams for an unspaced Chinese phrase not found as a whole', () => {
    const r = rankSearch(docs, '同步竞态', { limit: 8, context: 0 });
    expect(r.results[0]!.file).toBe('archive/cold/2026-09-30.md');
    expect(queryTerms('"exact phrase" 同步竞态 abc')).toEqual([
      { full: 'exact phrase', pieces: [] },
      { full: '同步竞态', pieces: ['同步', '步竞', '竞态'] },
      { full: 'abc', pieces: [] },
    ]);
  });

  it('returns at most limit files and reports how many matched', () => {
    const r = rankSearch(docs, '同步', { limit: 1, context: 0 });
    expect(r.results).toHaveLength(1);
    expect(r.total).toBe(3);
  });

  it('merges overlapping context windows and caps snippets per file', () => {
    const text = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? `hit ${i}` : `line ${i}`)).join('\n');
    const r = rankSearch([{ file: 'x.md', tier: 'hot', date: '2026-01-01', text }], 'hit', {
      limit: 8,
      context: 1,
    });
    expect(r.results[0]!.snippets).toHaveLength(5);
    expect(r.results[0]!.moreSnippets).toBe(5);
    const merged = rankSearch([{ file: 'x.md', tier: 'hot', date: '2026-01-01', text }], 'hit', {
      limit: 8,
      context: 2,
    });
    expect(merged.results[0]!.snippets).toHaveLength(1);
    expect(merged.results[0]!.snippets[0]!.matchLines).toHaveLength(10);
  });

  it('finds nothing for a blank query', () => {
    expect(rankSearch(docs, '   ', { limit: 8, context: 3 })).toEqual({ total: 0, results: [] });
  });
});
