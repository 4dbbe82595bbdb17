/** Embedders over HTTP: OpenAI-compatible `/v1/embeddings`, Ollama `/api/embed`, Tideline's batch endpoint. */
import type { Embedder } from '../core/embedder.js';
import { TidepoolError } from '../core/errors.js';

/** Wire protocol of an embedding endpoint. */
export type EmbedProtocol = 'openai' | 'ollama' | 'tideline';

/** Options of an HTTP embedder. */
export interface HttpEmbedderOptions {
  protocol: EmbedProtocol;
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  attempts: number;
  backoffMs: number;
}

/** Posts batches to an embedding endpoint with a timeout and exponential backoff between attempts. */
export class HttpEmbedder implements Embedder {
  readonly model: string;
  readonly #o: HttpEmbedderOptions;

  constructor(o: HttpEmbedderOptions) {
    this.#o = o;
    this.model = o.model;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    let lastErr: unknown;
    for (let attempt = 0; attempt < this.#o.attempts; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, this.#o.backoffMs * 2 ** (attempt - 1)));
      try {
        return await this.#once(texts);
      } catch (e) {
        lastErr = e;
        if (e instanceof TidepoolError && e.code === 'invalid_input') break; // a 4xx will not heal by retrying
      }
    }
    throw new TidepoolError('unavailable', `embedding endpoint ${this.#o.url} failed: ${String((lastErr as Error)?.message ?? lastErr)}`, {
      cause: lastErr,
    });
  }

  async #once(texts: readonly string[]): Promise<Float32Array[]> {
    const { protocol, url, model, apiKey } = this.#o;
    const body =
      protocol === 'openai' ? { model, input: texts } : protocol === 'ollama' ? { model, input: texts } : { texts };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.#o.timeoutMs),
    });
    if (!res.ok) {
      const msg = `HTTP ${res.status} ${(await res.text().catch(() => '')).slice(0, 200)}`;
      throw new TidepoolError(res.status >= 400 && res.status < 500 && res.status !== 429 ? 'invalid_input' : 'unavailable', msg);
    }
    const json = (await res.json()) as { data?: Array<{ embedding: number[]; index?: number }>; embeddings?: number[][] };
    let vectors: number[][];
    if (Array.isArray(json.data)) {
      vectors = [...json.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => d.embedding);
    } else if (Array.isArray(json.embeddings)) {
      vectors = json.embeddings;
    } else {
      throw new TidepoolError('unavailable', 'embedding response has neither data[] nor embeddings[]');
    }
    if (vectors.length !== texts.length) {
      throw new TidepoolError('unavailable', `embedding response has ${vectors.length} vectors for ${texts.length} texts`);
    }
    return vectors.map((v) => Float32Array.from(v));
  }
}
