/** Parses a model spec (`none | openai:<model> | anthropic:<model> | sampling | agent`) into a provider descriptor. */

import { TidepoolError } from '../../core/errors.js';

/**
 * Provider settings, passed in by the caller: the fields of `config.sleep` (core/config.ts), which boot layers from
 * file < env (`TIDEPOOL_OPENAI_BASE_URL`, …) < flags. Never read from the environment here. The optional tuning
 * fields are not in the config schema yet; absent, the SDK defaults apply.
 */
export interface ModelProviderConfig {
  openaiBaseUrl?: string | undefined;
  openaiApiKey?: string | undefined;
  anthropicBaseUrl?: string | undefined;
  anthropicApiKey?: string | undefined;
  /** LM Studio accepts no `response_format: json_object`; set false for it. */
  openaiJsonMode?: boolean | undefined;
  /** `max_completion_tokens` for OpenAI reasoning models; `max_tokens` (default) for every compatible server. */
  openaiMaxTokensField?: 'max_tokens' | 'max_completion_tokens' | undefined;
  maxRetries?: number | undefined;
  timeoutMs?: number | undefined;
}

/** What `createModel` needs to build a provider; `none` means the night runs its deterministic steps only. */
export type ModelDescriptor =
  | { kind: 'none' }
  | {
      kind: 'openai';
      model: string;
      baseURL: string;
      apiKey: string;
      jsonMode?: boolean;
      maxTokensField?: 'max_tokens' | 'max_completion_tokens';
      maxRetries?: number;
      timeoutMs?: number;
    }
  | {
      kind: 'anthropic';
      model: string;
      baseURL: string;
      apiKey: string;
      maxRetries?: number;
      timeoutMs?: number;
    }
  | { kind: 'sampling' }
  | { kind: 'agent' };

/** Default endpoints of the two hosted APIs. */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** Key sent to local servers (Ollama, vLLM, llama.cpp, LM Studio), which ignore it but the SDKs require one. */
export const LOCAL_PLACEHOLDER_KEY = 'local-no-key';

/**
 * Parses `spec`. The model id is everything after the first colon, so Ollama tags such as `openai:qwen2.5:7b`
 * work. A missing API key is accepted only for loopback endpoints; otherwise the spec is refused here rather
 * than failing at 02:17 UTC.
 * @example parseModelSpec('openai:deepseek-chat', { openaiBaseUrl: 'https://api.deepseek.com/v1', openaiApiKey: k })
 */
export function parseModelSpec(spec: string, config: ModelProviderConfig = {}): ModelDescriptor {
  const s = spec.trim();
  if (s === 'none' || s === 'sampling' || s === 'agent') return { kind: s };
  const colon = s.indexOf(':');
  const provider = colon < 0 ? s : s.slice(0, colon);
  const model = colon < 0 ? '' : s.slice(colon + 1).trim();
  if (provider !== 'openai' && provider !== 'anthropic') {
    throw new TidepoolError(
      'invalid_input',
      `unknown model spec "${spec}": use none, openai:<model>, anthropic:<model>, sampling or agent`,
      {
        field: 'model',
      },
    );
  }
  if (model.length === 0) {
    throw new TidepoolError(
      'invalid_input',
      `model spec "${spec}" names no model: write ${provider}:<model>`,
      { field: 'model' },
    );
  }
  const tuning = {
    ...(config.maxRetries === undefined ? {} : { maxRetries: config.maxRetries }),
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
  };
  if (provider === 'openai') {
    const baseURL = nonEmpty(config.openaiBaseUrl) ?? DEFAULT_OPENAI_BASE_URL;
    return {
      kind: 'openai',
      model,
      baseURL,
      apiKey: keyFor('openai', baseURL, config.openaiApiKey),
      ...tuning,
      ...(config.openaiJsonMode === undefined ? {} : { jsonMode: config.openaiJsonMode }),
      ...(config.openaiMaxTokensField === undefined ? {} : { maxTokensField: config.openaiMaxTokensField }),
    };
  }
  const baseURL = nonEmpty(config.anthropicBaseUrl) ?? DEFAULT_ANTHROPIC_BASE_URL;
  return {
    kind: 'anthropic',
    model,
    baseURL,
    apiKey: keyFor('anthropic', baseURL, config.anthropicApiKey),
    ...tuning,
  };
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s.trim().length === 0 ? undefined : s.trim();
}

function keyFor(provider: 'openai' | 'anthropic', baseURL: string, apiKey: string | undefined): string {
  const key = nonEmpty(apiKey);
  if (key !== undefined) return key;
  if (isLoopback(baseURL)) return LOCAL_PLACEHOLDER_KEY;
  throw new TidepoolError(
    'invalid_input',
    `${provider} at ${baseURL} needs an API key: set ${provider.toUpperCase()}_API_KEY (or sleep.${provider}ApiKey in the config file)`,
    {
      field: `sleep.${provider}ApiKey`,
    },
  );
}

/** True for URLs on this machine, where local model servers run without keys. */
export function isLoopback(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new TidepoolError('invalid_input', `invalid base URL "${url}"`, { field: 'baseURL' });
  }
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
}
