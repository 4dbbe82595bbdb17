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
