// The character-bigram BM25 peer: the simplest sound method for Chinese (MADial README's calibration row).
import MiniSearch from 'minisearch';
import type { BenchConversation } from '../locomo.js';
import type { RetrievalSystem } from '../retrieval-system.js';

interface TurnDoc {
  readonly id: string;
  readonly text: string;
}

/**
 * Tokens of the recipe: every run of letters/digits, lower-cased, split into overlapping character bigrams (a
 * one-character run stays one token). Works for any script: `我爱北京` → 我爱, 爱北, 北京; `Bart` → ba, ar, rt.
 */
export function characterBigrams(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const chars = [...m[0]];
    if (chars.length === 1) out.push(chars[0]!);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

/**
 * Plain BM25 (k1 1.2, b 0.75, no BM25+ term) over character bigrams, one turn's text = one document, the question
 * tokenized the same way; the document of the MADial README's calibration row (dialogue.json R@10 0.953,
 * archive-recall.json 0.602). minisearch does the indexing and scoring with the tokenizer swapped.
 */
export class BigramBm25Peer implements RetrievalSystem {
  readonly name = 'bigram-bm25';
  readonly mode = 'character bigrams';
  #index: MiniSearch<TurnDoc> | undefined;

  async load(conv: BenchConversation): Promise<void> {
    const index = new MiniSearch<TurnDoc>({
      fields: ['text'],
      tokenize: characterBigrams,
      processTerm: (t) => t,
      searchOptions: { bm25: { k: 1.2, b: 0.75, d: 0 } },
    });
    index.addAll(conv.sessions.flatMap((s) => s.turns.map((t) => ({ id: t.diaId, text: t.text }))));
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
