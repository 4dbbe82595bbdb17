import { describe, expect, it } from 'vitest';
import { isTidepoolError } from '../../core/errors.js';
import {
  DEFAULT_ANTHROPIC_BASE_URL,
  DEFAULT_OPENAI_BASE_URL,
  LOCAL_PLACEHOLDER_KEY,
  parseModelSpec,
} from './parse-model-spec.js';

describe('parseModelSpec', () => {
  it.each(['none', 'sampling', 'agent', '  none  '])('reads %j as a provider without settings', (spec) => {
    expect(parseModelSpec(spec)).toEqual({ kind: spec.trim() });
  });

  it('takes base URL and key of an OpenAI-compatible endpoint from the config passed in', () => {
    expect(
      parseModelSpec('openai:deepseek-chat', {
        openaiBaseUrl: 'https://api.deepseek.com/v1',
        openaiApiKey: 'sk-1',
        timeoutMs: 5000,
      }),
    ).toEqual({
      kind: 'openai',
      model: 'deepseek-chat',
      baseURL: 'https://api.deepseek.com/v1',
      apiKey: 'sk-1',
      timeoutMs: 5000,
    });
  });

  it('defaults to the hosted endpoints', () => {
    expect(parseModelSpec('openai:gpt-4o-mini', { openaiApiKey: 'k' })).toMatchObject({
      baseURL: DEFAULT_OPENAI_BASE_URL,
    });
    expect(parseModelSpec('anthropic:claude-haiku-4-5', { anthropicApiKey: 'k' })).toMatchObject({
      kind: 'anthropic',
      model: 'claude-haiku-4-5',
      baseURL: DEFAULT_ANTHROPIC_BASE_URL,
      apiKey: 'k',
    });
  });

  it('keeps colons inside the model id (Ollama tags) and needs no key on loopback', () => {
    expect(parseModelSpec('openai:qwen2.5:7b', { openaiBaseUrl: 'http://127.0.0.1:11434/v1' })).toEqual({
      kind: 'openai',
      model: 'qwen2.5:7b',
      baseURL: 'http://127.0.0.1:11434/v1',
      apiKey: LOCAL_PLACEHOLDER_KEY,
    });
    expect(parseModelSpec('openai:local', { openaiBaseUrl: 'http://localhost:1234/v1' })).toMatchObject({
      apiKey: LOCAL_PLACEHOLDER_KEY,
    });
  });

  it.each([
    ['an unknown provider', 'gemini:pro', {}, 'model'],
    ['a missing model id', 'openai:', { openaiApiKey: 'k' }, 'model'],
    ['a hosted endpoint without key', 'openai:gpt-4o', {}, 'sleep.openaiApiKey'],
    [
      'an Anthropic endpoint without key',
      'anthropic:claude',
      { anthropicApiKey: '  ' },
      'sleep.anthropicApiKey',
    ],
    ['a malformed base URL', 'openai:x', { openaiBaseUrl: 'not a url' }, 'baseURL'],
  ])('refuses %s with invalid_input', (_name, spec, config, field) => {
    try {
      parseModelSpec(spec, config);
      expect.unreachable();
    } catch (e) {
      expect(isTidepoolError(e, 'invalid_input')).toBe(true);
      if (isTidepoolError(e)) expect(e.field).toBe(field);
    }
  });
});
