import { describe, expect, it } from 'vitest';
import { queryTerms } from './query-terms.js';

describe('queryTerms', () => {
  it('asks a one-line Chinese query by its words (single characters included) and its bigrams', () => {
    const terms = queryTerms('李明把虎斑猫领回家');
    expect(terms).toEqual(expect.arrayContaining(['李明', '虎', '猫', '斑猫', '回家']));
  });

  it('leaves the single characters of a conversation to its bigrams, but keeps a one-character run', () => {
    const line = '李明把虎斑猫领回家';
    const terms = queryTerms(`${line}\n猫！\n好可爱`);
    expect(terms).toEqual(expect.arrayContaining(['李明', '斑猫', '回家', '猫', '可爱']));
    expect(terms).not.toContain('虎');
    expect(terms).not.toContain('领');
    // Without the one-character line, 猫 is asked only inside its bigrams.
    expect(queryTerms(`${line}\n好可爱`)).not.toContain('猫');
  });

  it('drops English stop words and keeps Latin names whole in mixed text', () => {
    expect(queryTerms('What did Bart和Jimmy play?')).toEqual(['bart', 'jimmy', 'play']);
  });
});
