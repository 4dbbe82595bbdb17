// The @orama/orama peer with its defaults: full-text search, or hybrid (full-text + vectors) when given an embedder.
import { create, insertMultiple, search } from '@orama/orama';
import type { AnyOrama } from '@orama/orama';
import type { BenchConversation } from '../locomo.js';
import type { BenchEmbedder, RetrievalSystem } from '../retrieval-system.js';

/**
 * Indexes each turn as one field `"<speaker>: <text>"` (plus `embedding` in hybrid mode), the
 * document of the README's calibration row (R@10 0.312), and searches with Orama's default parameters.
 */
export class OramaPeer implements RetrievalSystem {
  readonly name = 'orama';
  readonly mode: string;
  readonly #embedder: BenchEmbedder | undefined;
  readonly #similarity: number | undefined;
  #db: AnyOrama | undefined;

  /**
   * Full-text without an embedder; hybrid with one (`mode: 'hybrid'`). Orama's vector half keeps only
   * hits with cosine ≥ its default `similarity` of 0.8; passing another value names the mode
   * `hybrid-s<value>` so that a tuned row is never mistaken for the default one.
   */
  constructor(options: { embedder?: BenchEmbedder; similarity?: number } = {}) {
    this.#embedder = options.embedder;
    this.#similarity = options.similarity;
    this.mode = !this.#embedder ? 'fulltext' : options.similarity === undefined ? 'hybrid' : `hybrid-s${options.similarity}`;
  }

  async load(conv: BenchConversation): Promise<void> {
    const turns = conv.sessions.flatMap((s) => s.turns);
    const e = this.#embedder;
    const db: AnyOrama = e
      ? create({ schema: { text: 'string', embedding: `vector[${e.dims}]` } as const })
      : create({ schema: { text: 'string' } as const });
    const texts = turns.map((t) => `${t.speaker}: ${t.text}`);
    const vectors = e ? await e.embed(texts) : [];
    const docs = turns.map((t, i) => {
      const v = vectors[i];
      return v ? { id: t.diaId, text: texts[i], embedding: Array.from(v) } : { id: t.diaId, text: texts[i] };
    });
    await insertMultiple(db, docs);
    this.#db = db;
  }

  async search(question: string, k: number): Promise<string[]> {
    const db = this.#db;
    if (!db) return [];
    const e = this.#embedder;
    const vector = e ? (await e.embed([question]))[0] : undefined;
    const result = vector
      ? await search(db, {
          mode: 'hybrid',
          term: question,
          vector: { value: Array.from(vector), property: 'embedding' },
          limit: k,
          ...(this.#similarity === undefined ? {} : { similarity: this.#similarity }),
        })
      : await search(db, { term: question, limit: k });
    return result.hits.map((h) => String(h.id));
  }

  async close(): Promise<void> {
    this.#db = undefined;
  }
}
