/** A `Model` over the Anthropic Messages API (`anthropic:<model>`), through `@anthropic-ai/sdk`. */

import type { default as AnthropicClient } from '@anthropic-ai/sdk';
import { loadOptional } from '../../core/load-optional.js';
import { TidepoolError } from '../../core/errors.js';
import type { Model, ModelRequest, ModelResponse } from './model.js';
import { providerError } from './provider-error.js';

/** Settings of one Anthropic model; nothing here is read from the environment. */
export interface AnthropicModelOptions {
  /** e.g. `claude-haiku-4-5`. */
  model: string;
  /** e.g. `https://api.anthropic.com` (the SDK appends `/v1/messages`). */
  baseURL: string;
  apiKey: string;
  /** Retries of the SDK for 408/409/429/5xx and connection errors (SDK default 2). */
  maxRetries?: number;
  /** Per-request timeout in ms (default 120 000). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Calls `messages.create` of the Anthropic SDK (loaded on first use). The text blocks of the answer are joined;
 * usage comes from the response, which the Messages API always sends. `temperature` is not sent: the current
 * Messages API (SDK 1.x) has no sampling parameters.
 */
export class AnthropicModel implements Model {
  readonly name: string;
  #options: AnthropicModelOptions;
  #client: Promise<AnthropicClient> | undefined;

  constructor(options: AnthropicModelOptions) {
    if (options.model.length === 0) {
      throw new TidepoolError('invalid_input', 'Anthropic model id is empty', { field: 'model' });
    }
    this.#options = options;
    this.name = `anthropic:${options.model}`;
  }

  async complete(req: ModelRequest): Promise<ModelResponse> {
    const client = await this.#getClient();
    const body: AnthropicClient.MessageCreateParamsNonStreaming = {
      model: this.#options.model,
      max_tokens: req.maxTokens,
      system: req.system,
      messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
    };
    let message: AnthropicClient.Message;
    try {
      message = await client.messages.create(body);
    } catch (cause) {
      throw providerError(this.name, cause);
    }
    const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    // Anthropic counts cache reads and writes apart from `input_tokens`; all of them were read as input.
    const u = message.usage;
    const cached = u.cache_read_input_tokens ?? 0;
    return {
      text,
      inputTokens: u.input_tokens + cached + (u.cache_creation_input_tokens ?? 0),
      outputTokens: u.output_tokens,
      cachedInputTokens: cached,
    };
  }

  #getClient(): Promise<AnthropicClient> {
    const o = this.#options;
    // Optional dependency, loaded only when this provider is used (STYLE §9).
    this.#client ??= loadOptional('@anthropic-ai/sdk', 'the anthropic model provider', () => import('@anthropic-ai/sdk')).then(
      ({ default: Anthropic }) =>
        new Anthropic({
          apiKey: o.apiKey,
          baseURL: o.baseURL,
          maxRetries: o.maxRetries ?? 2,
          timeout: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        }),
    );
    return this.#client;
  }
}
