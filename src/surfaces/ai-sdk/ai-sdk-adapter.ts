/** Tidepool for the Vercel AI SDK (`ai` 6): memory tools for `generateText`/`streamText`, and a middleware that injects the context block and records the turns. */
import type { LanguageModelMiddleware, Tool } from 'ai';
import { z } from 'zod';
import type { Tidepool } from '../../app/tidepool.js';
import { MemoryProvider, type MemoryProviderOptions } from '../../app/injection/memory-provider.js';

/** The tools `tidepoolTools` returns, keyed by the names the model sees (a type alias, so it is an AI SDK `ToolSet`). */
export type TidepoolTools = {
  readonly remember: Tool<{ text: string; key?: string }, { id: string }>;
  readonly recall: Tool<{ query: string; limit?: number }, { results: Array<{ id: string; text: string; layer: string; score: number }> }>;
};

/**
 * Memory tools for the AI SDK: `remember` stores a durable memory (a `key` supersedes its earlier value), `recall`
 * searches the memory. Their inputs are zod schemas, which the AI SDK accepts as they are.
 * @example await generateText({ model, tools: tidepoolTools(memory), prompt })
 */
export function tidepoolTools(memory: Tidepool): TidepoolTools {
  return {
    remember: {
      description: 'Store a durable memory (a fact, preference or decision worth keeping across sessions). A key supersedes the earlier value stored under it.',
      inputSchema: z.object({
        text: z.string().min(1).describe('what to remember, as one self-contained sentence'),
        key: z.string().min(1).optional().describe('a stable name for a value that may change, e.g. staging.db.port'),
      }),
      execute: async ({ text, key }) => ({ id: (await memory.remember({ text, ...(key ? { key } : {}) })).id }),
    },
    recall: {
      description: 'Search long-term memory: past conversations, structured memories and known facts, best first.',
      inputSchema: z.object({
        query: z.string().min(1).describe('what to look for, in words'),
        limit: z.number().int().min(1).max(50).optional().describe('how many results (default 10)'),
      }),
      execute: async ({ query, limit }) => ({
        results: (await memory.recall({ query, ...(limit ? { limit } : {}) })).map((h) => ({ id: h.id, text: h.text, layer: h.layer, score: h.score })),
      }),
    },
  };
}

type Prompt = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params']['prompt'];

/** The text of the last user message of a prompt. */
function lastUserText(prompt: Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i]!;
    if (m.role === 'user') return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
  }
  return '';
}

/** Options of `tidepoolMiddleware`: the provider's (session, token budget, SOUL text). */
export type TidepoolMiddlewareOptions = MemoryProviderOptions;

/**
 * A language-model middleware: before each call it puts the session-start block and the memories related to the
 * user's last message into a system message; after it, it records the exchange (user text, assistant text) in the
 * session. Memory trouble never fails the call (the provider answers an empty block and warns).
 * @example const model = wrapLanguageModel({ model: openai('gpt-5'), middleware: tidepoolMiddleware(memory, { session: 'chat-42' }) })
 */
export function tidepoolMiddleware(memory: Tidepool, opts: TidepoolMiddlewareOptions = {}): LanguageModelMiddleware & { provider: MemoryProvider } {
  const provider = new MemoryProvider(memory, opts);
  return {
    specificationVersion: 'v3',
    provider,
    transformParams: async ({ params }) => {
      const user = lastUserText(params.prompt);
      const parts = [await provider.systemPromptBlock(), user ? await provider.prefetch(user) : ''].filter((t) => t.trim() !== '');
      if (parts.length === 0) return params;
      return { ...params, prompt: [{ role: 'system', content: parts.join('\n\n') }, ...params.prompt] };
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      const assistant = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      const user = lastUserText(params.prompt);
      if (user || assistant) await provider.syncTurn(user, assistant);
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const result = await doStream();
      let assistant = '';
      const user = lastUserText(params.prompt);
      const recorder = new TransformStream({
        transform(part: { type: string; delta?: string }, controller) {
          if (part.type === 'text-delta' && typeof part.delta === 'string') assistant += part.delta;
          controller.enqueue(part);
        },
        async flush() {
          if (user || assistant) await provider.syncTurn(user, assistant);
        },
      });
      return { ...result, stream: result.stream.pipeThrough(recorder) as typeof result.stream };
    },
  };
}
