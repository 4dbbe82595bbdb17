/** The CLI's shared option parsers: a bad flag is refused by name before anything is opened. */
import { describe, expect, it } from 'vitest';
import { choiceListOption, choiceOption } from './cli-deps.js';

describe('choiceListOption', () => {
  it('splits a comma list whose parts are all allowed, and leaves an absent flag absent', () => {
    expect(choiceListOption('layers', 'episode, knowledge', ['episode', 'narrative', 'knowledge'] as const)).toEqual(['episode', 'knowledge']);
    expect(choiceListOption('layers', undefined, ['episode'] as const)).toBeUndefined();
  });

  it('refuses a part that is not a choice, naming the flag and the choices but not repeating the value', () => {
    const refusal = (() => {
      try {
        choiceListOption('kinds', 'fact,ghp_0123456789abcdefghijklmnopqrstuvwxyz', ['fact', 'entity'] as const);
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
      return 'accepted';
    })();
    expect(refusal).toBe('--kinds must be one of fact, entity');
  });
});

describe('choiceOption', () => {
  it('passes a choice through, leaves an absent flag absent and refuses anything else by name', () => {
    expect(choiceOption('order', 'asc', ['asc', 'desc'] as const)).toBe('asc');
    expect(choiceOption('order', undefined, ['asc', 'desc'] as const)).toBeUndefined();
    expect(() => choiceOption('order', 'ASC', ['asc', 'desc'] as const)).toThrow('--order must be one of asc, desc');
  });
});
