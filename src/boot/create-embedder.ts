/** Chooses the embedder adapter named by the configuration. */
import type { Config } from '../core/config.js';
import type { Embedder } from '../core/embedder.js';
import { TidepoolError } from '../core/errors.js';
import { HttpEmbedder } from '../embedders/http-embedder.js';

const DEFAULT_URL = {
  openai: 'https://api.openai.com/v1/embeddings',
  ollama: 'http://127.0.0.1:11434/api/embed',
  // SEEDS §1.2: Tideline's local batch endpoint.
  tideline: 'http://127.0.0.1:18001/embed_batch',
} as const;

/** The configured embedder, or undefined for `none` (lexical only). */
export function createEmbedder(c: Config['embedder']): Embedder | undefined {
  if (c.provider === 'none') return undefined;
  const model = c.model ?? (c.provider === 'tideline' ? 'tideline-local' : undefined);
  if (!model) {
    throw new TidepoolError('invalid_input', `embedder.model is required for provider ${c.provider}`, { field: 'embedder.model' });
  }
  return new HttpEmbedder({
    protocol: c.provider,
    url: c.url ?? DEFAULT_URL[c.provider],
    model,
    apiKey: c.apiKey,
    timeoutMs: c.timeoutMs,
    attempts: c.attempts,
    backoffMs: c.backoffMs,
  });
}
