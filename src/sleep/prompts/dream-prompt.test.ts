import { describe, expect, it } from 'vitest';
import { parseDroppingInvalidItems } from '../llm/ask-structured.js';
import { buildDreamPrompt, dreamRecords, dreamResponseSchema } from './dream-prompt.js';

const input = { memories: [{ id: 'n1', gesture: 'release day', tags: ['release'] }] };
const answer = {
  symbols: ['lighthouse', 'letter', 'rain', 'rain', 'key', 'door', 'bell'],
  sources: ['n1', 'n99'],
  dream: 'A lighthouse flashed a letter into the rain',
  reflection: 'I signal instead of saying',
  emotional: 4,
  unresolved: 3,
};

describe('dream prompt', () => {
  it('cuts symbols to 5 distinct ones and refuses fewer than 3', () => {
    expect(dreamResponseSchema.parse(answer).symbols).toEqual([
      'lighthouse',
      'letter',
      'rain',
      'key',
      'door',
    ]);
    expect(parseDroppingInvalidItems({ ...answer, symbols: ['a', 'b'] }, dreamResponseSchema).ok).toBe(false);
  });

  it('stores the dream with importance fixed at 1, tag dream and the mapped-from context', () => {
    const r = dreamRecords(
      dreamResponseSchema.parse({ ...answer, symbols: ['lighthouse', 'letter', 'rain'] }),
      input,
    );
    expect(r.dream).toMatchObject({
      kind: 'dream',
      importance: 1,
      emotional: 4,
      unresolved: 3,
      tags: ['dream'],
      gesture: 'A lighthouse flashed a letter into the rain',
      context: "mapped from today's lighthouse, letter, rain",
      relatedNarratives: ['n1'],
    });
    expect(r.reflection).toEqual({
      kind: 'self_reflection',
      gesture: 'I signal instead of saying',
      tags: ['dream'],
    });
    expect(dreamRecords(dreamResponseSchema.parse(answer), input, 'zh').dream.context).toMatch(
      /^从今天的lighthouse、letter/,
    );
  });

  it('builds a compact prompt from today’s memories', () => {
    expect(JSON.parse(buildDreamPrompt(input).messages[0]?.content ?? '')).toEqual(input);
  });
});
