import { describe, expect, it } from 'vitest';
import { acceptPiiLeaks, buildPiiWatchPrompt, piiWatchResponseSchema } from './pii-watch-prompt.js';

const input = {
  texts: [
    { id: 'e1', text: 'Call Jonas Weber tomorrow about [person_1]' },
    { id: 'k2', text: 'Jonas Weber prefers tea' },
    { id: 'e3', text: 'nothing personal' },
  ],
};

describe('PII watch prompt', () => {
  it('sends the texts', () => {
    expect(JSON.parse(buildPiiWatchPrompt(input).messages[0]?.content ?? '')).toEqual(input);
  });

  it('believes a name only where the text contains it, and never reports placeholders or ignored names', () => {
    const answer = piiWatchResponseSchema.parse({
      names: [
        { name: 'Jonas Weber', ids: ['e1', 'k2', 'e3'] },
        { name: '[person_1]', ids: ['e1'] },
        { name: 'Invented Person', ids: ['e3'] },
        { name: 'tea', ids: ['k2'] },
      ],
    });
    const r = acceptPiiLeaks(answer, input, { ignore: ['Tea'] });
    expect(r).toEqual({ leaks: [{ name: 'Jonas Weber', ids: ['e1', 'k2'] }], dropped: 3, overLimit: 0 });
  });

  it('replaces at most 10 names a night and says how many wait', () => {
    const texts = Array.from({ length: 12 }, (_, i) => ({ id: `e${i}`, text: `Person Number${i} called` }));
    const answer = piiWatchResponseSchema.parse({
      names: texts.map((t, i) => ({ name: `Person Number${i}`, ids: [t.id] })),
    });
    const r = acceptPiiLeaks(answer, { texts });
    expect(r.leaks).toHaveLength(10);
    expect(r.overLimit).toBe(2);
  });
});
