/** The Vercel AI SDK adapter against the real `ai` package: its generateText/streamText, wrapLanguageModel and its own mock model. */
import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory, type Tidepool } from '../src/index.js';
import { tidepoolMiddleware, tidepoolTools } from '../src/surfaces/ai-sdk/ai-sdk-adapter.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const stop = { unified: 'stop' as const, raw: 'stop' };

/** The text of every system message the model was given. */
function systemText(prompt: Array<{ role: string; content: unknown }>): string {
  return prompt.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');
}

describe('tidepool-memory/ai-sdk', () => {
  let memory: Tidepool;
  beforeEach(async () => {
    memory = await openMemory({ path: ':memory:', embedder: 'none', warn: () => {} });
  });
  afterEach(async () => memory.close());

  it('gives the model remember and recall tools that write and read the memory', async () => {
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        step++;
        if (step === 1) {
          return { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'remember', input: JSON.stringify({ text: 'The staging database moved to port 6543', key: 'staging.db.port' }) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
        }
        if (step === 2) {
          return { content: [{ type: 'tool-call', toolCallId: 'c2', toolName: 'recall', input: JSON.stringify({ query: 'staging port' }) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
        }
        return { content: [{ type: 'text', text: 'Port 6543.' }], finishReason: stop, usage, warnings: [] };
      },
    });
    const result = await generateText({ model, tools: tidepoolTools(memory), stopWhen: stepCountIs(5), prompt: 'Remember the new staging port, then tell me what it is.' });
    expect(result.text).toBe('Port 6543.');
    const recalled = result.steps[1]!.toolResults[0]!.output as { results: Array<{ text: string; id: string }> };
    expect(recalled.results[0]!.text).toContain('6543');
    expect((await memory.recall({ query: 'staging port' }))[0]!.text).toBe('The staging database moved to port 6543');
  });

  it('rejects a tool call whose input breaks the schema, naming the field, and stores nothing', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({ content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'remember', input: JSON.stringify({ text: '' }) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] }),
    });
    const result = await generateText({ model, tools: tidepoolTools(memory), prompt: 'x' });
    const error = result.steps[0]!.content.find((c) => c.type === 'tool-error') as { error: Error } | undefined;
    expect(String(error?.error)).toMatch(/text/);
    expect(await memory.recall({ query: 'x' })).toEqual([]);
  });

  it('injects the context block and related memories, and records the exchange (generateText)', async () => {
    await memory.remember({ text: 'Ana prefers short answers', kind: 'preference' });
    const inner = new MockLanguageModelV3({ doGenerate: { content: [{ type: 'text', text: 'Noted, I will keep it short.' }], finishReason: stop, usage, warnings: [] } });
    const middleware = tidepoolMiddleware(memory, { session: 'chat-1' });
    const model = wrapLanguageModel({ model: inner, middleware });
    await generateText({ model, prompt: 'How does Ana like her answers?' });
    expect(systemText(inner.doGenerateCalls[0]!.prompt)).toContain('Ana prefers short answers');
    const turns = (await memory.timeline({ session: 'chat-1', order: 'asc' })).items.map((e) => `${e.role}: ${e.content}`);
    expect(turns).toEqual(['user: How does Ana like her answers?', 'assistant: Noted, I will keep it short.']);
  });

  it('records a streamed answer once the stream ends (streamText)', async () => {
    const inner = new MockLanguageModelV3({
      doStream: {
        stream: convertArrayToReadableStream([
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Hello ' },
          { type: 'text-delta', id: 't', delta: 'there.' },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: stop, usage },
        ]),
      },
    });
    const model = wrapLanguageModel({ model: inner, middleware: tidepoolMiddleware(memory, { session: 'chat-2' }) });
    const result = streamText({ model, prompt: 'Say hello' });
    expect(await result.text).toBe('Hello there.');
    await result.consumeStream();
    const turns = (await memory.timeline({ session: 'chat-2', order: 'asc' })).items.map((e) => `${e.role}: ${e.content}`);
    expect(turns).toEqual(['user: Say hello', 'assistant: Hello there.']);
  });
});
