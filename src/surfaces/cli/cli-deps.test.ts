/** The CLI's shared option parsers: a bad flag is refused by name before anything is opened. */
import { describe, expect, it } from 'vitest';
import { choiceListOption } from './cli-deps.js';

describe('choiceListOption', () => {
  it('splits a comma list whose parts are all allowed, and leaves an absent flag absent', () => {
    expect(choiceListOption('layers', 'episode, knowledge', ['episode', 'narrative', 'knowledge'] as const)).toEqual(['episode', 'knowledge']);
    expect(choiceListOption('layers', undefined, ['episode'] as const)).toBeUndefined();
  });

  it('refuses a part that is not a choice, naming the flag and the choices', () => {
    expect(() => choiceListOption('kinds', 'fact,gossip', ['fact', 'entity'] as const)).toThrow('--kinds: "gossip" is not one of fact, entity');
  });
});
