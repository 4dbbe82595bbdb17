// The minisearch peer (BM25 with its default options): one dialog turn = one document, "speaker: text".
import MiniSearch from 'minisearch';
import type { BenchConversation } from '../locomo.js';
import type { RetrievalSystem } from '../retrieval-system.js';

interface TurnDoc {
  readonly id: string;
  readonly text: string;
}

/**
 * Indexes each turn as one field `"<speaker>: <text>"` (image caption included) and searches with
 * minisearch's defaults; this is the document of the README's calibration row (R@10 0.539).
 */
export class MiniSearchPeer implements RetrievalSystem {
  readonly name = 'minisearch';
  readonly mode = 'bm25';
  #index: MiniSearch<TurnDoc> | undefined;

  async load(conv: BenchConversation): Promise<void> {
    const index = new MiniSearch<TurnDoc>({ fields: ['text'] });
    index.addAll(conv.sessions.flatMap((s) => s.turns.map((t) => ({ id: t.diaId, text: `${t.speaker}: ${t.text}` }))));
    this.#index = index;
  }

  async search(question: string, k: number): Promise<string[]> {
    const hits = this.#index?.search(question) ?? [];
    return hits.slice(0, k).map((h) => String(h.id));
  }

  async close(): Promise<void> {
    this.#index = undefined;
  }
}
