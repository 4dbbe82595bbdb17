import { describe, expect, it } from 'vitest';
import {
  acceptSolidified,
  buildSolidifyPrompt,
  solidifyResponseSchema,
  type SolidifyChunk,
} from './solidify-prompt.js';

const T0 = Date.UTC(2026, 8, 12, 14, 30);
const chunks: SolidifyChunk[] = [
  {
    id: 'c1',
    turns: [
      { id: '11', at: T0, speaker: 'Mara', role: 'user', text: 'shall we ship on Friday?' },
      { id: '12', at: T0 + 60_000, speaker: null, role: 'assistant', text: `${'long '.repeat(100)}` },
      { id: '13', at: T0 + 120_000, speaker: 'Mara', role: 'user', text: 'yes' },
    ],
  },
  { id: 'c2', turns: [{ id: '21', at: T0 + 86_400_000, speaker: 'Jon', role: 'user', text: 'hi' }] },
];

const narrative = (chunk: string, gesture: string) => ({
  chunk,
  gesture,
  tags: ['release', 'release', 'Mara', 'a', 'b', 'c'],
  importance: 3,
  emotional: '2',
  unresolved: 1.6,
});

describe('solidify prompt', () => {
  it('sends one text packet: speakers as letters once, a numbered line per turn, the time where it moves, cut to 300 characters', () => {
    const p = buildSolidifyPrompt({
      chunks,
      knownTags: ['release'],
      nearest: [{ id: 'k4', kind: 'fact', status: 'provisional', key: null, content: 'Mara ships on Fridays' }],
    });
    expect(p.step).toBe('solidify');
    const lines = (p.messages[0]?.content ?? '').split('\n');
    expect(lines.slice(0, 7)).toEqual([
      'tags: release',
      'who: M=Mara (user) A=assistant J=Jon (user)',
      'knowledge:',
      'k4 fact provisional Mara ships on Fridays',
      '# c1',
      '@ 2026-09-12 14:30',
      '1 M shall we ship on Friday?',
    ]);
    // A turn minutes after the last time shown carries none; a long one is cut.
    expect(lines[7]).toMatch(/^2 A long long/);
    expect(lines[7]!.slice('2 A '.length)).toHaveLength(300);
    // "yes" is an answer, never folded; "hi" is only a greeting: its number is missing, its chunk stays.
    expect(lines.slice(8)).toEqual(['3 M yes', '# c2']);
    expect([...p.refs]).toEqual([[1, '11'], [2, '12'], [3, '13'], [4, '21']]);
    expect(p.maxTokens).toBe(1_300);
  });

  it('takes a missing narratives or proposals list or an unknown top-level key as a bad answer', () => {
    expect(solidifyResponseSchema.safeParse({ wrong: true }).success).toBe(false);
    expect(solidifyResponseSchema.safeParse({}).success).toBe(false);
    expect(solidifyResponseSchema.safeParse({ narratives: [] }).success).toBe(false);
    expect(solidifyResponseSchema.safeParse({ narratives: [], proposals: [], extra: 1 }).success).toBe(false);
    expect(solidifyResponseSchema.safeParse({ narratives: [], proposals: [] }).success).toBe(true);
  });

  it('uses the Chinese text on request', () => {
    expect(buildSolidifyPrompt({ chunks }, { language: 'zh' }).system).toMatch(/固化/);
  });

  it('coerces and rounds scores given as strings or halves', () => {
    const parsed = solidifyResponseSchema.parse({ narratives: [narrative('c1', 'g')], proposals: [] });
    expect(parsed.narratives[0]).toMatchObject({ emotional: 2, unresolved: 2 });
  });

  it('keeps at most 3 narratives per chunk, drops unknown chunks and links each to its chunk episodes', () => {
    const answer = solidifyResponseSchema.parse({
      narratives: [
        narrative('c1', 'one'),
        narrative('c1', 'two'),
        narrative('c9', 'invented chunk'),
        narrative('c1', 'three'),
        narrative('c1', 'four'),
        narrative('c2', 'other'),
      ],
      proposals: [],
    });
    const { narratives, dropped } = acceptSolidified(answer, chunks);
    expect(narratives.map((n) => n.gesture)).toEqual(['one', 'two', 'three', 'other']);
    expect(dropped).toBe(2);
    expect(narratives[0]?.sourceLinks).toEqual(['11', '12', '13']);
    expect(narratives[3]?.sourceLinks).toEqual(['21']);
    expect(narratives[0]?.tags).toEqual(['release', 'Mara', 'a', 'b', 'c']);
  });
});
