import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startMockAnthropicServer, type MockLlmServer } from '../../../test/mock-llm-servers.js';
import { AnthropicModel } from './anthropic-model.js';
import { askStructured } from './ask-structured.js';

const schema = z.object({ ok: z.boolean() });
const prompt = {
  system: 'Reply with JSON.',
  messages: [{ role: 'user' as const, content: 'are you there?' }],
};

let server: MockLlmServer;
beforeEach(async () => {
  server = await startMockAnthropicServer();
});
afterEach(async () => {
  await server.close();
});

function model(maxRetries = 0): AnthropicModel {
  return new AnthropicModel({ model: 'claude-test', baseURL: server.url, apiKey: 'sk-ant-test', maxRetries });
}

describe('AnthropicModel through @anthropic-ai/sdk', () => {
  it('sends system, messages and max_tokens and returns text with the reported usage', async () => {
    server.push({ text: '{"ok":true}', usage: { input: 21, output: 4 } });
    const r = await model().complete({ ...prompt, maxTokens: 64, json: true });
    expect(r).toEqual({ text: '{"ok":true}', inputTokens: 21, outputTokens: 4, cachedInputTokens: 0 });
    // Cache reads come apart from input_tokens; they are input all the same, and counted apart (issue 18).
    server.push({ text: '{"ok":1}', usage: { input: 21, output: 4, cached: 15 } });
    expect(await model().complete({ ...prompt, maxTokens: 64 })).toEqual({
      text: '{"ok":1}',
      inputTokens: 21,
      outputTokens: 4,
      cachedInputTokens: 15,
    });
    const req = server.requests[0];
    expect(req?.path).toBe('/v1/messages');
    // SDK 1.x sends the key as a bearer token; older versions used x-api-key.
    expect([req?.headers['x-api-key'], req?.headers.authorization]).toContain(
      req?.headers['x-api-key'] === undefined ? 'Bearer sk-ant-test' : 'sk-ant-test',
    );
    expect(req?.body).toMatchObject({
      model: 'claude-test',
      max_tokens: 64,
      system: 'Reply with JSON.',
      messages: [{ role: 'user', content: 'are you there?' }],
    });
  });

  it('retries a bad answer once, then skips and reports with both attempts counted', async () => {
    server.push(
      { text: 'I think so.', usage: { input: 10, output: 3 } },
      { text: '{"ok":"yes"}', usage: { input: 20, output: 5 } },
    );
    const r = await askStructured(model(), prompt, schema, { step: 'test', maxTokens: 32 });
    expect(r).toMatchObject({ kind: 'skipped', attempts: 2, tokens: { input: 30, output: 8 } });
    expect(server.requests).toHaveLength(2);
    const second = server.requests[1]?.body as { messages: unknown[] };
    expect(second.messages).toHaveLength(3);
  });

  it('lets the SDK retry an HTTP 500 and returns the second answer', async () => {
    server.push({ status: 500 }, '{"ok":true}');
    const r = await askStructured(model(2), prompt, schema, { step: 'test', maxTokens: 32 });
    expect(r).toMatchObject({ kind: 'ok', value: { ok: true }, attempts: 1 });
    expect(server.requests).toHaveLength(2);
  });

  it('reports a persistent failure as a skip naming the model', async () => {
    server.push({ status: 529 }, { status: 529 });
    const r = await askStructured(model(1), prompt, schema, { step: 'test', maxTokens: 32 });
    expect(r.kind).toBe('skipped');
    if (r.kind === 'skipped') expect(r.reason).toMatch(/^model_error: anthropic:claude-test failed/);
  });
});
