import { describe, expect, it } from 'vitest';
import { isTidepoolError } from '../../core/errors.js';
import type { ModelRequest } from './model.js';
import { sampleFnFromCreateMessage, SamplingModel } from './sampling-model.js';
import { estimateRequestTokens } from './token-estimate.js';

const req: ModelRequest = {
  system: 'be brief',
  messages: [{ role: 'user', content: 'hi' }],
  maxTokens: 20,
  step: 'dream',
};

describe('SamplingModel', () => {
  it('passes the request to the sampling function and keeps its token counts', async () => {
    const seen: ModelRequest[] = [];
    const m = new SamplingModel((r) => {
      seen.push(r);
      return Promise.resolve({ text: 'ok', inputTokens: 11, outputTokens: 1 });
    });
    expect(await m.complete(req)).toEqual({ text: 'ok', inputTokens: 11, outputTokens: 1 });
    expect(seen).toEqual([req]);
    expect(m.name).toBe('sampling');
  });

  it('estimates tokens when the client reports none (MCP sampling has no usage)', async () => {
    const m = new SamplingModel(() => Promise.resolve({ text: 'a short answer' }));
    const r = await m.complete(req);
    expect(r.inputTokens).toBe(estimateRequestTokens(req));
    expect(r.outputTokens).toBeGreaterThan(0);
  });

  it('wraps a failing client as llm_failed', async () => {
    const m = new SamplingModel(() => Promise.reject(new Error('client refused sampling')));
    await expect(m.complete(req)).rejects.toSatisfy((e) => isTidepoolError(e, 'llm_failed'));
  });
});

describe('sampleFnFromCreateMessage over a real MCP client/server pair', () => {
  it('asks the connected client through sampling/createMessage and parses its answer', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const { CreateMessageRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const { z } = await import('zod');
    const { askStructured } = await import('./ask-structured.js');

    const server = new McpServer({ name: 'tidepool-test', version: '0.0.0' });
    const client = new Client({ name: 'host', version: '0.0.0' }, { capabilities: { sampling: {} } });
    const seen: unknown[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      seen.push(request.params);
      return {
        role: 'assistant',
        model: 'host-model',
        content: { type: 'text', text: '{"symbols":["a","b","c"]}' },
      };
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    try {
      const model = new SamplingModel(sampleFnFromCreateMessage((p) => server.server.createMessage(p)));
      const r = await askStructured(
        model,
        { system: 'dream', messages: [{ role: 'user', content: '{}' }] },
        z.object({ symbols: z.array(z.string()) }),
        {
          step: 'dream',
          maxTokens: 200,
        },
      );
      expect(r).toMatchObject({ kind: 'ok', value: { symbols: ['a', 'b', 'c'] } });
      expect(seen).toEqual([
        {
          systemPrompt: 'dream',
          messages: [{ role: 'user', content: { type: 'text', text: '{}' } }],
          maxTokens: 200,
        },
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
