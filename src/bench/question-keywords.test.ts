/** The benchmark's search-box keywords: the product's function words plus a searcher's own skips, in both languages. */
import { describe, expect, it } from 'vitest';
import { ENGLISH_FUNCTION_WORDS } from '../script/english-stopwords.js';
import { questionKeywords } from './question-keywords.js';

describe('questionKeywords', () => {
  it('keeps the words a person would type, in order, once', () => {
    expect(questionKeywords('When did Caroline go to the LGBTQ support group?')).toEqual(['caroline', 'lgbtq', 'support', 'group']);
    expect(questionKeywords('Did Melanie ever go to 2022 Pride? Pride!')).toEqual(['melanie', '2022', 'pride']);
  });

  it("skips every one of the product's English function words (one list, not a copy)", () => {
    for (const w of ENGLISH_FUNCTION_WORDS) expect(questionKeywords(`${w} lighthouse`), w).toEqual(['lighthouse']);
  });

  it("skips a searcher's hedges and vague words that recall's query stop list keeps", () => {
    expect(questionKeywords('Maybe the keeper logged something about the storm, or some kind of thing?')).toEqual(['keeper', 'logged', 'storm']);
  });

  it('skips Chinese particles and question words and joins a name ICU leaves in single characters', () => {
    expect(questionKeywords('卡罗琳什么时候去的支持小组？')).toEqual(['卡罗琳', '支持', '小组']);
  });
});
