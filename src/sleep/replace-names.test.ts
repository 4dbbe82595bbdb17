import { describe, expect, it } from 'vitest';
import { namePattern } from './replace-names.js';

const replace = (name: string, text: string) => text.replace(namePattern(name), '[person_1]');

describe('namePattern', () => {
  it.each([
    ['Ann', 'Ann and Annual reports; ask Ann.', '[person_1] and Annual reports; ask [person_1].'],
    ['Ann', 'JoAnn met ann', 'JoAnn met ann'],
    ['Zoë Müller', 'Zoë Müller-Lang called Zoë Müller', 'Zoë Müller-Lang called [person_1]'],
    ['Ann', "Ann's notes, Ann-Kathrin's too", "[person_1]'s notes, Ann-Kathrin's too"],
    ['李雷', '李雷和韩梅梅说李雷会来', '[person_1]和韩梅梅说[person_1]会来'],
    ['O.K. (Kim)', 'O.K. (Kim) is here', '[person_1] is here'],
  ])('replaces %s standing alone', (name, text, out) => {
    expect(replace(name, text)).toBe(out);
  });
});
