import { describe, expect, it } from 'vitest';
import { createKeywordExtractor, englishKeywords, extractKeywords } from './keywords.js';
import { loadStopwords, parseStopwords } from './stopwords.js';

const stopwords = loadStopwords();
const kw = createKeywordExtractor({ stopwords });

describe('Chinese keywords (jieba POS)', () => {
  it('keeps nouns, verbs and adjectives, including the structural verbs 拒绝, 逃避, 失控', () => {
    const words = kw('她拒绝了审查，逃避责任，情绪失控');
    expect(words).toEqual(expect.arrayContaining(['拒绝', '审查', '逃避', '失控', '情绪']));
  });

  it('drops particles, pronouns, numbers, single characters and generic words', () => {
    const words = kw('我们今天用户的问题是第1次调试同步服务，数据库连接池耗尽了');
    expect(words).toEqual(expect.arrayContaining(['调试', '数据库', '连接池', '耗尽']));
    for (const w of ['我们', '今天', '用户', '问题', '的', '了', '第', '1', '是'])
      expect(words).not.toContain(w);
  });

  it('returns each keyword once, in order of first appearance', () => {
    expect(kw('数据库很慢。数据库又慢了，重启数据库')).toEqual(['数据库', '重启']);
  });

  it('uses the tagger it is given', () => {
    const words = extractKeywords('甲乙丙', {
      stopwords,
      tagger: () => [
        { word: '甲乙', tag: 'n' },
        { word: '丙丁', tag: 'x' },
      ],
    });
    expect(words).toEqual(['甲乙']);
  });
});

describe('English keywords', () => {
  it('drops stop words, weekdays and months and folds plurals of lower-case words', () => {
    expect(kw('Caroline went to the LGBTQ support groups on Monday in May')).toEqual([
      'caroline',
      'lgbtq',
      'support',
      'group',
    ]);
  });

  it('keeps names ending in s and strips possessives', () => {
    expect(kw("Lucas's dogs and Lucas")).toEqual(['lucas', 'dog']);
    expect(kw('postgres news ideas hobbies')).toEqual(['postgres', 'news', 'ideas', 'hobby']);
  });

  it('drops numbers, words under three letters and lower-case words under four, as Tideline (SEEDS §1.7)', () => {
    expect(englishKeywords('we ran 2023 db go postgres', stopwords.en)).toEqual(['postgres']);
    expect(englishKeywords('Ana met Bob for tea; bugs and gpt4 got fixed', stopwords.en)).toEqual(['ana', 'bob', 'bug', 'gpt4', 'fixed']);
  });

  it('handles mixed Chinese and English text', () => {
    expect(kw('我判断这个方案可行, 用Python写 tests')).toEqual(['判断', '方案', '可行', 'python', 'test']);
  });
});

describe('stop-word files', () => {
  it('parses one word a line, ignoring comments and blank lines, folded to lower case', () => {
    expect([...parseStopwords('# comment\nThe\n\n  of  # trailing\n的\n')]).toEqual(['the', 'of', '的']);
  });

  it('loads both shipped lists from the package data folder', () => {
    expect(stopwords.en.has('the')).toBe(true);
    expect(stopwords.en.has('monday')).toBe(true);
    expect(stopwords.zh.has('用户')).toBe(true);
    for (const w of ['拒绝', '逃避', '失控']) expect(stopwords.zh.has(w)).toBe(false);
  });
});
