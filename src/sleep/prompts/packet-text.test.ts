import { describe, expect, it } from 'vitest';
import { compactMedia, parsePacket, renderPacket, resolveTurnRefs } from './packet-text.js';

const T0 = Date.UTC(2026, 8, 12, 14, 30);

describe('the turn packet', () => {
  it('shows the year only where it changes', () => {
    const at = (y: number, m: number, d: number) => Date.UTC(y, m, d, 9, 5);
    const turn = (id: string, t: number) => ({ id, at: t, speaker: 'Mara', role: 'user', text: `note ${id}` });
    const p = renderPacket({
      blocks: [{ turns: [turn('e1', at(2026, 11, 30)), turn('e2', at(2026, 11, 31)), turn('e3', at(2027, 0, 2)), turn('e4', at(2027, 0, 5))] }],
      turnChars: 300,
    });
    expect(p.text.split('\n').filter((l) => l.startsWith('@'))).toEqual([
      '@ 2026-12-30 09:05',
      '@ 12-31 09:05',
      '@ 2027-01-02 09:05',
      '@ 01-05 09:05',
    ]);
  });

  it('says a role shared by every named speaker once, and reads the labels back', () => {
    const turn = (id: string, speaker: string) => ({ id, at: T0, speaker, role: 'user', text: `hi from ${speaker}, I paint` });
    const p = renderPacket({ blocks: [{ turns: [turn('e1', 'Caroline'), turn('e2', 'Melanie')] }], turnChars: 300 });
    expect(p.text.split('\n')[0]).toBe('who (user): C=Caroline M=Melanie');
    expect([...parsePacket(p.text).who]).toEqual([
      ['C', 'Caroline (user)'],
      ['M', 'Melanie (user)'],
    ]);
  });

  it("shows a photo's caption without the captioner's preamble, and leaves other brackets alone", () => {
    expect(compactMedia('Look! [image: a photo of a cup with a dog face on it]')).toBe('Look! [photo: a cup with a dog face on it]');
    expect(compactMedia('[image: a photography of a group of children]')).toBe('[photo: a group of children]');
    expect(compactMedia('[image: a sunset over the sea] [person_1]')).toBe('[image: a sunset over the sea] [person_1]');
    const p = renderPacket({
      blocks: [{ turns: [{ id: 'e1', at: T0, speaker: 'Mara', role: 'user', text: 'New mug [image: a photo of a mug]' }] }],
      turnChars: 300,
    });
    expect(p.text.split('\n').at(-1)).toBe('1 M New mug [photo: a mug]');
  });

  it('reads back as it was written: speakers, entries, chunks, turn numbers and repeats', () => {
    const p = renderPacket({
      tags: ['release'],
      knowledge: [{ id: 'k3', kind: 'fact', status: 'reliable', key: 'team.release_day', content: 'Releases go out on Friday' }],
      blocks: [
        {
          id: 'c1',
          turns: [
            { id: 'e7', at: T0, speaker: 'Mara', role: 'user', text: 'We ship on Friday.\nAfter the freeze.' },
            { id: 'e8', at: T0 + 60_000, speaker: null, role: 'tool:deploy', text: 'deploy: ok (release)' },
            { id: 'e9', at: T0 + 45 * 60_000, speaker: 'Mara', role: 'user', text: 'deploy: ok (release)' },
          ],
        },
      ],
      turnChars: 300,
    });
    expect(p.text).toBe(
      [
        'tags: release',
        'who: M=Mara (user) T=tool:deploy',
        'knowledge:',
        'k3 fact reliable key=team.release_day Releases go out on Friday',
        '# c1',
        '@ 2026-09-12 14:30',
        '1 M We ship on Friday. / After the freeze.',
        '2 T deploy: ok (release)',
        '@ 15:15',
        '3 M =2',
      ].join('\n'),
    );
    const back = parsePacket(p.text);
    expect(back.tags).toEqual(['release']);
    expect([...back.who]).toEqual([['M', 'Mara (user)'], ['T', 'tool:deploy']]);
    expect(back.knowledge).toEqual([{ id: 'k3', kind: 'fact', status: 'reliable', content: 'Releases go out on Friday' }]);
    expect(back.blocks).toEqual([
      {
        id: 'c1',
        turns: [
          { n: 1, who: 'M', text: 'We ship on Friday. / After the freeze.' },
          { n: 2, who: 'T', text: 'deploy: ok (release)' },
          { n: 3, who: 'M', text: 'deploy: ok (release)' },
        ],
      },
    ]);
  });

  it('maps cited turn numbers and ranges to episode ids, and keeps anything else as written for the scope check', () => {
    const refs = new Map([[1, 'e7'], [2, 'e8'], [3, 'e9']]);
    expect(resolveTurnRefs(['1', '2-3', ' 2 '], refs)).toEqual(['e7', 'e8', 'e9']);
    expect(resolveTurnRefs(['e7', '9', '2-9', '3-1'], refs)).toEqual(['e7', '9', '2-9', '3-1']);
  });
});
