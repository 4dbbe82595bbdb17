import { describe, expect, it } from 'vitest';
import { isTidepoolError } from '../../core/errors.js';
import { AgentModel } from './agent-model.js';
import { AnthropicModel } from './anthropic-model.js';
import { createModel } from './create-model.js';
import { OpenAiModel } from './openai-model.js';
import { SamplingModel } from './sampling-model.js';

describe('createModel', () => {
  it('builds the provider each descriptor names', () => {
    expect(createModel({ kind: 'none' })).toBeUndefined();
    const openai = createModel({ kind: 'openai', model: 'm', baseURL: 'http://127.0.0.1:1/v1', apiKey: 'k' });
    expect(openai).toBeInstanceOf(OpenAiModel);
    expect(openai?.name).toBe('openai:m');
    expect(
      createModel({ kind: 'anthropic', model: 'c', baseURL: 'http://127.0.0.1:1', apiKey: 'k' })?.name,
    ).toBe('anthropic:c');
    expect(
      createModel({ kind: 'anthropic', model: 'c', baseURL: 'http://127.0.0.1:1', apiKey: 'k' }),
    ).toBeInstanceOf(AnthropicModel);
    expect(createModel({ kind: 'sampling' }, { sample: () => Promise.resolve({ text: '' }) })).toBeInstanceOf(
      SamplingModel,
    );
    const agent = new AgentModel();
    expect(createModel({ kind: 'agent' }, { agent })).toBe(agent);
  });

  it('refuses sampling and agent without the live surface that supplies them', () => {
    for (const kind of ['sampling', 'agent'] as const) {
      expect(() => createModel({ kind })).toThrow(
        expect.objectContaining({ code: 'invalid_input' }) as Error,
      );
    }
    try {
      createModel({ kind: 'agent' });
    } catch (e) {
      expect(isTidepoolError(e, 'invalid_input')).toBe(true);
    }
  });
});
