import { describe, expect, it } from 'vitest';
import { acceptDrift, buildDriftPrompt, driftResponseSchema, type DriftInput } from './drift-prompt.js';

const input: DriftInput = {
  seed: { id: 'n1', gesture: 'waiting for review', tags: ['review'] },
  far: [{ id: 'n42', gesture: 'queue at the bakery', tags: ['bakery'], via: 'embedding' }],
};

describe('drift prompt', () => {
  it('sends the seed and the far memories', () => {
    const payload = JSON.parse(buildDriftPrompt(input).messages[0]?.content ?? '') as DriftInput;
    expect(payload.seed.id).toBe('n1');
    expect(payload.far[0]).toMatchObject({ id: 'n42', via: 'embedding' });
  });

  it('accepts an empty drift: no pressure to produce', () => {
    expect(driftResponseSchema.parse({})).toEqual({ connection: null, thread: null });
  });

  it('drops a connection to a memory that was not shown but keeps the thread', () => {
    const answer = driftResponseSchema.parse({
      connection: { to: 'n77', insight: 'made up' },
      thread: { content: 'why wait?', importance: 2, emotional: 2, unresolved: 4 },
    });
    const { value, dropped } = acceptDrift(answer, input);
    expect(value.connection).toBeNull();
    expect(value.thread?.content).toBe('why wait?');
    expect(dropped).toBe(1);
    expect(
      acceptDrift(driftResponseSchema.parse({ connection: { to: 'n42', insight: 'both wait' } }), input)
        .dropped,
    ).toBe(0);
  });
});
