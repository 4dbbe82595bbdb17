/** A `Model` over any OpenAI-compatible chat endpoint: OpenAI, DeepSeek, Ollama, vLLM, llama.cpp server, LM Studio. */

import type { default as OpenAIClient } from 'openai';
import { loadOptional } from '../../core/load-optional.js';
import { TidepoolError } from '../../core/errors.js';
import type { Model, ModelRequest, ModelResponse } from './model.js';
import { providerError } from './provider-error.js';
import { estimateRequestTokens, estimateTokens } from './token-estimate.js';

/** Settings of one OpenAI-compatible model; nothing here is read from the environment. */
export interface OpenAiModelOptions {
  /** The model id the server knows, e.g. `gpt-4o-mini`, `deepseek-chat`, `qwen2.5:7b`. */
  model: string;
  /** e.g. `https://api.openai.com/v1`, `https://api.deepseek.com/v1`, `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  /** Local servers accept any key; the SDK insists on a non-empty one. */
  apiKey: string;
  /** Retries of the SDK for 408/409/429/5xx and connection errors (SDK default 2). */
  maxRetries?: number;
  /** Per-request timeout in ms (default 120 000). */
  timeoutMs?: number;
  /** Ask for `response_format: json_object` when a request wants JSON (default true; LM Studio wants false). */
  jsonMode?: boolean;
  /** Field carrying the length limit: `max_tokens` (default; every compatible server) or `max_completion_tokens` (OpenAI reasoning models). */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

/** Default request timeout: long enough for a slow local model to write a few hundred tokens. */
const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Calls `chat.completions.create` of the `openai` SDK (loaded on first use). Usage comes from the response; when
 * the server sends none (some local servers), both sides are estimated with gpt-tokenizer.
 */
export class OpenAiModel implements Model {
  readonly name: string;
  #options: OpenAiModelOptions;
  #client: Promise<OpenAIClient> | undefined;

  constructor(options: OpenAiModelOptions) {
    if (options.model.length === 0)
      throw new TidepoolError('invalid_input', 'OpenAI model id is empty', { field: 'model' });
    this.#options = options;
    this.name = `openai:${options.model}`;
  }

  async complete(req: ModelRequest): Promise<ModelResponse> {
    const client = await this.#getClient();
    const o = this.#options;
    const body: OpenAIClient.Chat.ChatCompletionCreateParamsNonStreaming = {
      model: o.model,
      messages: [{ role: 'system', content: req.system }, ...req.messages],
      [o.maxTokensField ?? 'max_tokens']: req.maxTokens,
    };
    if (req.temperature !== undefined) body.temperature = req.temperature;
    if (req.json === true && o.jsonMode !== false) body.response_format = { type: 'json_object' };
    let completion: OpenAIClient.Chat.ChatCompletion;
    try {
      completion = await client.chat.completions.create(body);
    } catch (cause) {
      throw providerError(this.name, cause);
    }
    const text = completion.choices[0]?.message.content ?? '';
    const usage = completion.usage;
    return {
      text,
      inputTokens: usage?.prompt_tokens ?? estimateRequestTokens(req),
      outputTokens: usage?.completion_tokens ?? estimateTokens(text),
      // The stable system prompt comes first in every request, so a provider's automatic prefix cache can serve it.
      cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    };
  }

  #getClient(): Promise<OpenAIClient> {
    const o = this.#options;
    // The SDK is an optional dependency: load it only when this provider is actually used (STYLE §9).
    this.#client ??= loadOptional('openai', 'the openai model provider', () => import('openai')).then(
      ({ default: OpenAI }) =>
        new OpenAI({
          apiKey: o.apiKey,
          baseURL: o.baseURL,
          organization: null,
          project: null,
          webhookSecret: null,
          maxRetries: o.maxRetries ?? 2,
          timeout: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        }),
    );
    return this.#client;
  }
}
