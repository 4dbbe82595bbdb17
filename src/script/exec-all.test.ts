// execAll gives what matchAll gives, empty matches and surrogate pairs included, and leaves lastIndex at 0.
import { describe, expect, it } from 'vitest';
import { execAll } from './exec-all.js';

const cases: Array<[RegExp, string]> = [
  [/\d+/g, 'a1b22c333'],
  [/x*/g, 'axxb'],
  [/(?:)/g, 'ab😀c'],
  [/(?:)/gu, 'ab😀c'],
  [/(?<k>[a-z])(\d)?/dgi, 'A1b c2'],
  [/\b/g, 'two words'],
  [/z/g, 'none here'],
];

describe('execAll', () => {
  it.each(cases)('matches %s on %j as matchAll does', (re, text) => {
    const plain = (ms: Iterable<RegExpExecArray | RegExpMatchArray>) =>
      [...ms].map((m) => ({ at: m.index, all: [...m], groups: m.groups, indices: m.indices?.map((x) => x && [...x]) }));
    expect(plain(execAll(re, text))).toEqual(plain(text.matchAll(re)));
    expect(re.lastIndex).toBe(0);
  });

  it('starts from 0 whatever lastIndex a previous use left', () => {
    const re = /a/g;
    re.lastIndex = 3;
    expect(execAll(re, 'aaaa').map((m) => m.index)).toEqual([0, 1, 2, 3]);
  });
});
