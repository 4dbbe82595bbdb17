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
      { id: '11', at: T0, text: '[USER] shall we ship on Friday?' },
      { id: '12', at: T0 + 60_000, text: `[ASSISTANT] ${'long '.repeat(100)}` },
      { id: '13', at: T0 + 120_000, text: '[USER] yes' },
    ],
  },
  { id: 'c2', turns: [{ id: '21', at: T0 + 3_600_000, text: '[USER] hi' }] },
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
  it('sends the chunks as compact JSON with times and turns cut to 300 characters', () => {
    const p = buildSolidifyPrompt({ chunks, knownTags: ['release'] });
    expect(p.step).toBe('solidify');
    const content = p.messages[0]?.content ?? '';
    expect(content).not.toContain('\n  ');
    const payload = JSON.parse(content) as {
      tags: string[];
      chunks: Array<{ chunk: string; from: string; turns: string[][] }>;
    };
    expect(payload.tags).toEqual(['release']);
    expect(payload.chunks[0]?.from).toBe('2026-09-12T14:30Z');
    expect(payload.chunks[0]?.turns[0]).toEqual(['11', '14:30', '[USER] shall we ship on Friday?']);
    expect(payload.chunks[0]?.turns[1]?.[2]).toHaveLength(300);
    expect(p.maxTokens).toBe(700);
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
