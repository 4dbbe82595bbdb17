// minisearch as a scale-benchmark peer: an in-memory BM25 index of synthetic episodes.
import MiniSearch from 'minisearch';
import type { ScaleSystem, ScaleSystemFactory } from '../scale/scale-system.js';
import type { ScaleItem } from '../scale/synthetic-episodes.js';

interface Doc {
  readonly id: string;
  readonly text: string;
}

class MiniSearchScale implements ScaleSystem {
  #index = new MiniSearch<Doc>({ fields: ['text'] });

  async ingestBatch(items: readonly ScaleItem[]): Promise<void> {
    this.#index.addAll(items.map((i) => ({ id: i.id, text: `${i.speaker}: ${i.text}` })));
  }

  async ingestOne(item: ScaleItem): Promise<void> {
    this.#index.add({ id: item.id, text: `${item.speaker}: ${item.text}` });
  }

  async search(query: string, k: number): Promise<string[]> {
    return this.#index.search(query).slice(0, k).map((h) => String(h.id));
  }

  /** Its serialised index (minisearch `toJSON`), what it would persist. */
  dbSizeBytes(): number {
    return Buffer.byteLength(JSON.stringify(this.#index));
  }

  async close(): Promise<void> {
    this.#index = new MiniSearch<Doc>({ fields: ['text'] });
  }
}

/** minisearch with its defaults, lexical only; documents are `"<speaker>: <text>"` as in the retrieval bench. */
export const miniSearchScaleFactory: ScaleSystemFactory = {
  name: 'minisearch',
  hybrid: false,
  storage: 'memory',
  ref: { module: import.meta.url, exportName: 'miniSearchScaleFactory' },
  create: async () => new MiniSearchScale(),
};
