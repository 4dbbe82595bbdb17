// @orama/orama as a scale-benchmark peer: in-memory full-text index, optionally with 384-d vectors for hybrid search.
import { create, insert, insertMultiple, save, search } from '@orama/orama';
import type { AnyOrama } from '@orama/orama';
import { HASH_EMBEDDING_DIMS } from '../scale/hash-embedding.js';
import type { ScaleSystem, ScaleSystemFactory } from '../scale/scale-system.js';
import type { ScaleItem } from '../scale/synthetic-episodes.js';

class OramaScale implements ScaleSystem {
  readonly #hybrid: boolean;
  #db: AnyOrama;

  constructor(hybrid: boolean) {
    this.#hybrid = hybrid;
    this.#db = hybrid
      ? create({ schema: { text: 'string', embedding: `vector[${HASH_EMBEDDING_DIMS}]` } as const })
      : create({ schema: { text: 'string' } as const });
  }

  #doc(i: ScaleItem): { id: string; text: string; embedding?: number[] } {
    const text = `${i.speaker}: ${i.text}`;
    return this.#hybrid && i.embedding ? { id: i.id, text, embedding: Array.from(i.embedding) } : { id: i.id, text };
  }

  async ingestBatch(items: readonly ScaleItem[]): Promise<void> {
    await insertMultiple(this.#db, items.map((i) => this.#doc(i)));
  }

  async ingestOne(item: ScaleItem): Promise<void> {
    await insert(this.#db, this.#doc(item));
  }

  async search(query: string, k: number): Promise<string[]> {
    const r = await search(this.#db, { term: query, limit: k });
    return r.hits.map((h) => String(h.id));
  }

  async searchHybrid(query: string, embedding: Float32Array, k: number): Promise<string[]> {
    const r = await search(this.#db, {
      mode: 'hybrid',
      term: query,
      vector: { value: Array.from(embedding), property: 'embedding' },
      limit: k,
    });
    return r.hits.map((h) => String(h.id));
  }

  /** Its serialised index (Orama `save`), what it would persist. */
  dbSizeBytes(): number {
    return Buffer.byteLength(JSON.stringify(save(this.#db)));
  }

  async close(): Promise<void> {
    this.#db = create({ schema: { text: 'string' } as const });
  }
}

/** Orama with its defaults, full-text only. */
export const oramaScaleFactory: ScaleSystemFactory = {
  name: 'orama',
  hybrid: false,
  storage: 'memory',
  ref: { module: import.meta.url, exportName: 'oramaScaleFactory' },
  create: async () => new OramaScale(false),
};

/** Orama with a `vector[384]` field: full-text and hybrid (its default hybrid parameters). */
export const oramaHybridScaleFactory: ScaleSystemFactory = {
  name: 'orama-hybrid',
  hybrid: true,
  storage: 'memory',
  ref: { module: import.meta.url, exportName: 'oramaHybridScaleFactory' },
  create: async () => new OramaScale(true),
};
