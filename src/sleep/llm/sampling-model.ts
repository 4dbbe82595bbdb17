/** A `Model` backed by MCP sampling: the connected client's own model answers through `server.createMessage`. */

import type { Model, ModelRequest, ModelResponse } from './model.js';
import { providerError } from './provider-error.js';
import { estimateRequestTokens, estimateTokens } from './token-estimate.js';

/** What the MCP surface supplies: one sampling round trip. Token counts are optional (MCP does not report usage). */
export type SampleFn = (
  req: ModelRequest,
) => Promise<{ text: string; inputTokens?: number; outputTokens?: number }>;

/**
 * Delegates each request to `sample` (the MCP surface builds it from `server.createMessage`, mapping `system` to
 * `systemPrompt` and `maxTokens` to `maxTokens`). Missing token counts are estimated with gpt-tokenizer, so the
 * night's budget still holds.
 */
export class SamplingModel implements Model {
  readonly name: string;
  #sample: SampleFn;

  constructor(sample: SampleFn, name = 'sampling') {
    this.#sample = sample;
    this.name = name;
  }

  async complete(req: ModelRequest): Promise<ModelResponse> {
    let answer: Awaited<ReturnType<SampleFn>>;
    try {
      answer = await this.#sample(req);
    } catch (cause) {
      throw providerError(this.name, cause);
    }
    return {
      text: answer.text,
      inputTokens: answer.inputTokens ?? estimateRequestTokens(req),
      outputTokens: answer.outputTokens ?? estimateTokens(answer.text),
    };
  }
}

/** The part of the MCP SDK's `Server.createMessage` the adapter needs (typed structurally: sleep/ stays SDK-free). */
export type CreateMessageFn = (params: {
  systemPrompt: string;
  messages: Array<{ role: 'user' | 'assistant'; content: { type: 'text'; text: string } }>;
  maxTokens: number;
  temperature?: number;
}) => Promise<{ content: unknown }>;

/**
 * Builds the `SampleFn` from an MCP server's `createMessage` (pass `(p) => server.server.createMessage(p)`). Text
 * content is returned; a content array (sampling with tools) contributes its text blocks; anything else is ''.
 */
export function sampleFnFromCreateMessage(createMessage: CreateMessageFn): SampleFn {
  return async (req) => {
    const result = await createMessage({
      systemPrompt: req.system,
      messages: req.messages.map((m) => ({ role: m.role, content: { type: 'text', text: m.content } })),
      maxTokens: req.maxTokens,
      ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
    });
    const blocks = Array.isArray(result.content) ? (result.content as unknown[]) : [result.content];
    return { text: blocks.map(textOf).join('') };
  };
}

function textOf(block: unknown): string {
  if (typeof block !== 'object' || block === null) return '';
  const b = block as { type?: unknown; text?: unknown };
  return b.type === 'text' && typeof b.text === 'string' ? b.text : '';
}
