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
  it('sends the chunks as compact JSON: speakers once, one line per turn, date and time where they move, cut to 300 characters', () => {
    const p = buildSolidifyPrompt({ chunks, knownTags: ['release'] });
    expect(p.step).toBe('solidify');
    const content = p.messages[0]?.content ?? '';
    expect(content).not.toContain('\n  ');
    const payload = JSON.parse(content) as {
      tags: string[];
      who: string[];
      chunks: Array<{ chunk: string; turns: Array<[string, number, string, string?]> }>;
    };
    expect(payload.tags).toEqual(['release']);
    expect(payload.who).toEqual(['Mara (user)', 'assistant', 'Jon (user)']);
    expect(payload.chunks[0]?.turns[0]).toEqual(['11', 0, 'shall we ship on Friday?', '2026-09-12 14:30']);
    // A turn minutes after the last time shown carries none.
    expect(payload.chunks[0]?.turns[1]?.slice(0, 2)).toEqual(['12', 1]);
    expect(payload.chunks[0]?.turns[1]?.[2]).toHaveLength(300);
    expect(payload.chunks[0]?.turns[2]).toEqual(['13', 0, 'yes']);
    // A new day shows its date again.
    expect(payload.chunks[1]?.turns[0]).toEqual(['21', 2, 'hi', '2026-09-13 14:30']);
    expect(content.match(/Mara/g)).toHaveLength(1);
    expect(p.maxTokens).toBe(700);
  });

  it('takes a missing narratives list or an unknown top-level key as a bad answer', () => {
    expect(solidifyResponseSchema.safeParse({ wrong: true }).success).toBe(false);
    expect(solidifyResponseSchema.safeParse({}).success).toBe(false);
    expect(solidifyResponseSchema.safeParse({ narratives: [], extra: 1 }).success).toBe(false);
    expect(solidifyResponseSchema.safeParse({ narratives: [] }).success).toBe(true);
  });

  it('uses the Chinese text on request', () => {
    expect(buildSolidifyPrompt({ chunks }, { language: 'zh' }).system).toMatch(/固化/);
  });

  it('coerces and rounds scores given as strings or halves', () => {
    const parsed = solidifyResponseSchema.parse({ narratives: [narrative('c1', 'g')] });
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
    });
    const { narratives, dropped } = acceptSolidified(answer, chunks);
    expect(narratives.map((n) => n.gesture)).toEqual(['one', 'two', 'three', 'other']);
    expect(dropped).toBe(2);
    expect(narratives[0]?.sourceLinks).toEqual(['11', '12', '13']);
    expect(narratives[3]?.sourceLinks).toEqual(['21']);
    expect(narratives[0]?.tags).toEqual(['release', 'Mara', 'a', 'b', 'c']);
  });
});
