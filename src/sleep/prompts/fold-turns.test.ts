import { describe, expect, it } from 'vitest';
import { foldTurns } from './fold-turns.js';

describe('foldTurns', () => {
  it('drops sentences that only greet, thank or praise, and keeps every sentence that says something', () => {
    const { lines, stats } = foldTurns(
      [
        'Hey Mel! Good to see you! I ran a charity race last Saturday.',
        'Wow, that is awesome, Caroline!',
        'Thanks!',
        'Yes.',
        'No, I was not there.',
        'Great, the port is 6543.',
        '谢谢！',
        'See you soon, Mel!',
      ],
      ['Caroline', 'Melanie'],
    );
    expect(lines).toEqual([
      { kind: 'text', text: 'I ran a charity race last Saturday.' },
      { kind: 'filler' },
      { kind: 'filler' },
      // An answer is content: yes and no are never filler.
      { kind: 'text', text: 'Yes.' },
      { kind: 'text', text: 'No, I was not there.' },
      // A number is content, whatever words surround it; only the leading interjection goes.
      { kind: 'text', text: 'the port is 6543.' },
      // Only English filler is known; other scripts are kept whole.
      { kind: 'text', text: '谢谢！' },
      // "Mel" is a short form of a speaker's name.
      { kind: 'filler' },
    ]);
    expect(stats).toMatchObject({ turns: 8, fillerTurns: 3, fillerSentences: 5, leadClauses: 1, repeats: 0 });
  });

  it('folds a leading interjection, greeting or thanks off a sentence that goes on, and keeps names and agreement', () => {
    const { lines, stats } = foldTurns(
      [
        "Wow, that painting's amazing! Thanks so much - I love it.",
        'Hey, Oh, the new studio opened.',
        'Hey Mel, I got the job!',
        'Definitely, I will go.',
        'Wow, okay.',
        'Great to hear from you. Sorry to hear that! Thanks for the advice.',
      ],
      ['Caroline', 'Melanie'],
    );
    expect(lines).toEqual([
      { kind: 'text', text: "that painting's amazing! I love it." },
      // One clause at a time.
      { kind: 'text', text: 'the new studio opened.' },
      // A clause naming someone is kept: whom a turn addresses can matter.
      { kind: 'text', text: 'Hey Mel, I got the job!' },
      // Agreement answers something.
      { kind: 'text', text: 'Definitely, I will go.' },
      { kind: 'filler' },
      { kind: 'filler' },
    ]);
    expect(stats).toMatchObject({ fillerTurns: 2, leadClauses: 3 });
  });

  it('shows an exact repeat of an earlier turn as a reference to it', () => {
    const call = 'Bash {"command":"npm run lint"}';
    const { lines, stats } = foldTurns([call, 'lint: 3 errors', call, call, 'ok'], []);
    expect(lines).toEqual([
      { kind: 'text', text: call },
      { kind: 'text', text: 'lint: 3 errors' },
      { kind: 'repeat', of: 1 },
      { kind: 'repeat', of: 1 },
      { kind: 'filler' },
    ]);
    expect(stats.repeats).toBe(2);
    expect(stats.charsAfter).toBeLessThan(stats.charsBefore);
  });
});
