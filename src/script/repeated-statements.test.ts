import { describe, expect, it } from 'vitest';
import { createKeywordExtractor } from './keywords.js';
import { findRepeatedStatements, statementsOf, type SaidSentence } from './repeated-statements.js';
import { loadStopwords } from './stopwords.js';

const keywords = createKeywordExtractor({ stopwords: loadStopwords() });
const DAY = 86_400_000;
const said = (episodeId: number, day: number, text: string): SaidSentence => ({ episodeId, at: day * DAY + episodeId, text });

describe('statementsOf', () => {
  it('keeps sentences that say something and drops small talk, questions and captions', () => {
    const turn =
      'Wow, Caroline, that sounds awesome! Your kind words mean a lot. Can we ship today? ' +
      'The staging Postgres moved to port 5433. Ana prefers squash merges.\n[image: a photo of a lake at sunrise]';
    expect(statementsOf(turn, keywords)).toEqual(['The staging Postgres moved to port 5433', 'Ana prefers squash merges']);
  });

  it('splits Chinese sentences without spaces and keeps the ones that say something', () => {
    expect(statementsOf('好的。测试环境的数据库端口改成了5433。你觉得呢？', keywords)).toEqual(['测试环境的数据库端口改成了5433']);
  });
});

describe('findRepeatedStatements', () => {
  it('finds a statement said on two days, with every occurrence and the newest wording', () => {
    const history = [said(1, 0, 'Ana prefers squash merges for the release branch'), said(2, 0, 'The build is green')];
    const tonight = [said(9, 3, 'Ana prefers squash merges for the release branch'), said(10, 3, 'Ben reviews every migration')];
    expect(findRepeatedStatements(tonight, history)).toEqual([
      { content: 'Ana prefers squash merges for the release branch', episodeIds: [1, 9], days: 2 },
    ]);
  });

  it('does not count a statement repeated on one day, nor a changed value as the same statement', () => {
    const sameDay = [said(1, 2, 'Ben reviews every database migration'), said(2, 2, 'Ben reviews every database migration')];
    expect(findRepeatedStatements(sameDay, [])).toEqual([]);
    const moved = [said(5, 4, 'The staging Postgres listens on port 5433')];
    expect(findRepeatedStatements(moved, [said(1, 0, 'The staging Postgres listens on port 6543')])).toEqual([]);
  });

  it('groups near-identical wordings (Jaccard ≥ 0.8) and reports each group once', () => {
    const tonight = [said(7, 5, 'Deploys to production happen on Thursdays after review'), said(8, 5, 'Deploys to production happen on Thursdays after the review')];
    const history = [said(3, 1, 'deploys to production happen on Thursdays after review'), said(4, 2, 'Deploys to production happen on Thursdays after review')];
    expect(findRepeatedStatements(tonight, history)).toEqual([
      { content: 'Deploys to production happen on Thursdays after the review', episodeIds: [3, 4, 7, 8], days: 3 },
    ]);
  });
});
