// Tests of detector recall / false-positive accounting over labelled corpora.
import { describe, expect, it } from 'vitest';
import { measureDetector } from './detector-metrics.js';

/** A toy detector: one `email` per `@`, one `phone` per `+`. */
const toy = (text: string): string[] => [
  ...Array.from(text.matchAll(/@/g), () => 'email'),
  ...Array.from(text.matchAll(/\+/g), () => 'phone'),
];

describe('measureDetector', () => {
  it('computes recall over expected kind occurrences, counting repeated kinds as a multiset', () => {
    const m = measureDetector(
      [
        { text: 'a@b and c@d', expect: ['email', 'email'] },
        { text: 'only one a@b', expect: ['email', 'email'] },
        { text: '+49', expect: ['phone'] },
      ],
      toy,
    );
    expect(m.recall).toBeCloseTo(4 / 5);
    expect(m.misses).toEqual(['email missed in: only one a@b']);
  });

  it('computes the false-positive rate over near-miss texts only', () => {
    const m = measureDetector(
      [
        { text: 'clean', expect: [] },
        { text: 'x@y', expect: [] },
        { text: '+1 and a@b', expect: [] },
        { text: 'fine', expect: [] },
        { text: 'a@b', expect: ['email'] },
      ],
      toy,
    );
    expect(m.falsePositiveRate).toBe(2 / 4);
    expect(m.falsePositives).toEqual(['email in: x@y', 'email, phone in: +1 and a@b']);
    expect(m.recall).toBe(1);
  });

  it('lists extra kinds on positive texts without counting them in either rate', () => {
    const m = measureDetector([{ text: 'a@b +1', expect: ['email'] }], toy);
    expect(m.unexpected).toEqual(['phone unexpected in: a@b +1']);
    expect(m.recall).toBe(1);
    expect(m.falsePositiveRate).toBe(0);
  });

  it('reports perfect figures for an empty corpus instead of dividing by zero', () => {
    expect(measureDetector([], toy)).toEqual({
      recall: 1,
      falsePositiveRate: 0,
      misses: [],
      falsePositives: [],
      unexpected: [],
    });
  });

  it('shortens long texts in failure lines to one line of 80 characters', () => {
    const long = `${'word\n'.repeat(40)}`;
    const m = measureDetector([{ text: long, expect: ['email'] }], toy);
    expect(m.misses[0]).toBe(`email missed in: ${'word '.repeat(16)}…`);
  });
});
