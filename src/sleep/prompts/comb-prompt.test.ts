import { describe, expect, it } from 'vitest';
import { acceptComb, buildCombPrompt, combResponseSchema, type CombInput } from './comb-prompt.js';

const input: CombInput = {
  narratives: [
    {
      id: 'n1',
      kind: 'narrative',
      gesture: 'shipped',
      tags: ['release'],
      scores: { importance: 4, emotional: 3, recurrence: 2, unresolved: 1 },
    },
    {
      id: 'n2',
      kind: 'dream',
      gesture: 'a lighthouse',
      tags: ['dream'],
      scores: { importance: 1, emotional: 3, recurrence: 1, unresolved: 3 },
    },
  ],
  profiles: [{ entity: 'Mara', type: 'impression', content: 'quick' }],
  selfConcept: [{ field: 'terrain', content: 'careful' }],
  threads: [{ id: 't1', content: 'why Fridays?' }],
  attention: {
    lit: Array.from({ length: 15 }, (_, i) => ({ cluster: `c${i}`, hits: 15 - i })),
    unlit: ['health'],
  },
};

describe('comb prompt', () => {
  it('sends scores as [importance, emotional, recurrence, unresolved] and at most 10 lit clusters', () => {
    const payload = JSON.parse(buildCombPrompt(input).messages[0]?.content ?? '') as {
      memories: Array<{ scores: number[] }>;
      attention: { lit: unknown[]; unlit: string[] };
    };
    expect(payload.memories[0]?.scores).toEqual([4, 3, 2, 1]);
    expect(payload.attention.lit).toHaveLength(10);
    expect(payload.attention.unlit).toEqual(['health']);
  });

  it('treats omitted lists as empty and reads "reflection" as self_reflection', () => {
    const r = combResponseSchema.parse({ self: [{ field: 'reflection', content: 'I hurry' }] });
    expect(r).toMatchObject({ rescore: [], profiles: [], conflicts: [], threads: [], thread_status: [] });
    expect(r.self[0]?.field).toBe('self_reflection');
  });

  it('keeps only re-scores, conflicts and status changes that refer to what was shown', () => {
    const answer = combResponseSchema.parse({
      rescore: [
        { id: 'n1', importance: 2 },
        { id: 'n9', importance: 5 },
        { id: 'n1', importance: 3 },
      ],
      conflicts: [
        { ids: ['n1', 'old-7'], note: 'tension' },
        { ids: ['x'], note: 'invented' },
      ],
      thread_status: [
        { id: 't1', status: 'explored' },
        { id: 't7', status: 'abandoned' },
      ],
    });
    const { value, dropped } = acceptComb(answer, input);
    expect(value.rescore).toEqual([{ id: 'n1', importance: 3 }]);
    expect(value.conflicts).toEqual([{ ids: ['n1'], note: 'tension' }]);
    expect(value.thread_status).toEqual([{ id: 't1', status: 'explored' }]);
    expect(dropped).toBe(4);
  });
});
