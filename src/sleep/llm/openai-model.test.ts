import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startMockOpenAiServer, type MockLlmServer } from '../../../test/mock-llm-servers.js';
import { PlaceholderMap, pseudonymize } from '../../script/pii-scan.js';
import { buildLibrarianPrompt, librarianResponseSchema } from '../prompts/librarian-prompt.js';
import { askStructured } from './ask-structured.js';
import { OpenAiModel } from './openai-model.js';
import { estimateRequestTokens, estimateTokens } from './token-estimate.js';

const schema = z.object({ items: z.array(z.object({ n: z.number() })) });
const prompt = {
  system: 'Answer with JSON only.',
  messages: [{ role: 'user' as const, content: 'count to two' }],
};

let server: MockLlmServer;
beforeEach(async () => {
  server = await startMockOpenAiServer();
});
afterEach(async () => {
  await server.close();
});

function model(maxRetries = 0): OpenAiModel {
  return new OpenAiModel({ model: 'gpt-test', baseURL: server.url, apiKey: 'sk-test-key', maxRetries });
}

describe('OpenAiModel through the openai SDK', () => {
  it('returns the answer text and the usage the server reports', async () => {
    server.push({ text: 'hello', usage: { input: 17, output: 3 } });
    const r = await model().complete({ ...prompt, maxTokens: 50, json: true, temperature: 0.2 });
    expect(r).toEqual({ text: 'hello', inputTokens: 17, outputTokens: 3, cachedInputTokens: 0 });
    server.push({ text: 'again', usage: { input: 17, output: 3, cached: 12 } });
    // Prompt-cached input is part of the input and counted apart (issue 18).
    expect(await model().complete({ ...prompt, maxTokens: 50 })).toEqual({
      text: 'again',
      inputTokens: 17,
      outputTokens: 3,
      cachedInputTokens: 12,
    });
    const req = server.requests[0];
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.headers.authorization).toBe('Bearer sk-test-key');
    expect(req?.body).toMatchObject({
      model: 'gpt-test',
      max_tokens: 50,
      temperature: 0.2,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: 'Answer with JSON only.' },
        { role: 'user', content: 'count to two' },
      ],
    });
  });

  it('estimates tokens with the tokenizer when the server sends no usage', async () => {
    server.push({ text: '{"items":[]}', usage: null });
    const r = await model().complete({ ...prompt, maxTokens: 50 });
    expect(r.inputTokens).toBe(estimateRequestTokens(prompt));
    expect(r.outputTokens).toBe(estimateTokens('{"items":[]}'));
    expect(r.inputTokens).toBeGreaterThan(0);
    expect(server.requests[0]?.body).not.toHaveProperty('response_format');
  });

  it('uses max_completion_tokens when configured for reasoning models', async () => {
    server.push('ok');
    const m = new OpenAiModel({
      model: 'o-test',
      baseURL: server.url,
      apiKey: 'k',
      maxTokensField: 'max_completion_tokens',
    });
    await m.complete({ ...prompt, maxTokens: 99 });
    expect(server.requests[0]?.body).toMatchObject({ max_completion_tokens: 99 });
    expect(server.requests[0]?.body).not.toHaveProperty('max_tokens');
  });

  it('retries a bad JSON answer once with the error appended, then succeeds', async () => {
    server.push({ text: 'Sure! Here you go: items 1 and 2', usage: { input: 10, output: 8 } });
    server.push({ text: '```json\n{"items":[{"n":1},{"n":2}]}\n```', usage: { input: 30, output: 12 } });
    const r = await askStructured(model(), prompt, schema, { step: 'test', maxTokens: 100 });
    expect(r).toMatchObject({ kind: 'ok', value: { items: [{ n: 1 }, { n: 2 }] }, attempts: 2, dropped: 0 });
    expect(r.tokens).toEqual({ input: 40, output: 20 });
    const retry = server.requests[1]?.body as { messages: Array<{ role: string; content: string }> };
    expect(retry.messages).toHaveLength(4);
    expect(retry.messages[2]).toEqual({ role: 'assistant', content: 'Sure! Here you go: items 1 and 2' });
    expect(retry.messages[3]?.content).toMatch(/rejected: no JSON object/);
  });

  it('skips and reports after two bad answers, counting both attempts', async () => {
    server.push(
      { text: '{"items": "none"}', usage: { input: 5, output: 5 } },
      { text: 'no', usage: { input: 6, output: 1 } },
    );
    const r = await askStructured(model(), prompt, schema, { step: 'test', maxTokens: 100 });
    expect(r.kind).toBe('skipped');
    if (r.kind !== 'skipped') return;
    expect(r.reason).toMatch(/^invalid_answer: /);
    expect(r.tokens).toEqual({ input: 11, output: 6 });
    expect(server.requests).toHaveLength(2);
  });

  it('lets the SDK retry an HTTP 500 and then returns the answer', async () => {
    server.push({ status: 500 }, { text: '{"items":[]}', usage: { input: 1, output: 1 } });
    const r = await model(2).complete({ ...prompt, maxTokens: 10 });
    expect(r.text).toBe('{"items":[]}');
    expect(server.requests).toHaveLength(2);
  });

  it('reports a persistent HTTP 500 as a skipped step, not a crash', async () => {
    server.push({ status: 500 }, { status: 500 });
    const r = await askStructured(model(1), prompt, schema, { step: 'test', maxTokens: 10 });
    expect(r.kind).toBe('skipped');
    if (r.kind === 'skipped') expect(r.reason).toMatch(/^model_error: openai:gpt-test failed/);
    expect(server.requests).toHaveLength(2);
  });

  it('sends no personal data when the librarian prompt is built with the PII redactor', async () => {
    server.push(
      '{"proposals":[{"op":"abstract","kind":"preference","content":"[person_1] likes tea","evidence":["1"]}]}',
    );
    const map = new PlaceholderMap();
    const redact = (t: string) => pseudonymize(t, { knownPersons: ['Erika Mustermann'] }, map).text;
    const built = buildLibrarianPrompt(
      {
        episodes: [{ id: '1', at: 0, speaker: 'Erika Mustermann', role: 'user', text: 'Erika Mustermann (erika@example.org) said she likes tea' }],
        nearest: [{ id: '9', kind: 'fact', status: 'reliable', content: 'Erika Mustermann lives in Berlin' }],
      },
      { redact },
    );
    const r = await askStructured(model(), built, librarianResponseSchema, {
      step: 'librarian',
      maxTokens: built.maxTokens,
    });
    expect(r.kind).toBe('ok');
    const sent = JSON.stringify(server.requests.map((q) => q.body));
    expect(sent).not.toMatch(/Erika|Mustermann|erika@example\.org/);
    expect(sent).toContain('[person_1]');
  });
});
