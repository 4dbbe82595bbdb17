import { describe, expect, it } from 'vitest';
import { asksQuestion } from './query-kind.js';

describe('asksQuestion', () => {
  it('knows questions by their mark, an opening question word or a Chinese question word or particle', () => {
    for (const q of [
      'What did Caroline research?',
      'Was the first half of September a good month for Nate. Answer yes or no.',
      'how do I reset the staging db',
      'Lisa什么时候搬家的',
      '他喜欢猫吗',
      '谁送了Bart一只狗',
      'Bart: 你知道吗，我今天发现了一个超级好吃的披萨店！',
    ]) {
      expect(asksQuestion(q), q).toBe(true);
    }
  });

  it('reads statements and keywords as no question, "which" and "a few" in Chinese statements included', () => {
    for (const q of [
      'Bart和爸爸一起看电影《星际穿越》，感觉很兴奋。',
      'Lisa不知道选择哪部卡通电影观看，最后选择了《辛普森一家》。',
      '她做了几次深呼吸，很快恢复了平静。',
      'deadlock staging invoice retry',
      'Caroline went to the support group',
      'whatever happened to the deploy',
    ]) {
      expect(asksQuestion(q), q).toBe(false);
    }
  });
});
