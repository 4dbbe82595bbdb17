// The contract every system measured by the retrieval benchmark implements (Tidepool and its peers).
import type { BenchConversation } from './locomo.js';
import type { RenderedBlock } from './metrics.js';

/** A search engine or memory measured on LoCoMo: one fresh memory per conversation. */
export interface RetrievalSystem {
  /** Row name in the report: `tidepool`, `minisearch`, `orama`, `mcp-memory` … */
  readonly name: string;
  /** Row mode: `lexical`, `hybrid`, `verbatim` … */
  readonly mode: string;
  /** Loads one conversation as a fresh memory, replacing whatever the previous call loaded. */
  load(conv: BenchConversation): Promise<void>;
  /** Ranked dialog ids (diaId) for a question, best first, at least `k` when available. */
  search(question: string, k: number): Promise<string[]>;
  /**
   * The text block an agent would be given for this question (for budget recall). Without it the
   * harness renders the top hits with {@link renderHitsBlock}.
   */
  renderBlock?(question: string): Promise<RenderedBlock>;
  close(): Promise<void>;
}

/** Text embedder for hybrid peers: one vector per text, all of length `dims`. */
export interface BenchEmbedder {
  readonly dims: number;
  embed(texts: readonly string[]): Promise<ReadonlyArray<ArrayLike<number>>>;
}

/** `2023-05-08 13:56` in UTC: how a memory shows a turn's time. */
export function formatBenchTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * Renders ranked hits as the lines an agent would read, one per turn:
 * `[2023-05-08 13:56] Caroline: I went to a LGBTQ support group yesterday…`. Unknown ids are skipped.
 */
export function renderHitsBlock(conv: BenchConversation, ranked: readonly string[]): RenderedBlock {
  const byId = new Map<string, { at: number; speaker: string; text: string }>();
  for (const s of conv.sessions) for (const t of s.turns) byId.set(t.diaId, { at: s.at, speaker: t.speaker, text: t.text });
  let text = '';
  const diaIdsInOrder: Array<{ diaId: string; offsetChars: number; endChars: number }> = [];
  for (const id of ranked) {
    const turn = byId.get(id);
    if (!turn) continue;
    const line = `[${formatBenchTime(turn.at)}] ${turn.speaker}: ${turn.text}`;
    diaIdsInOrder.push({ diaId: id, offsetChars: text.length, endChars: text.length + line.length });
    text += `${line}\n`;
  }
  return { text, diaIdsInOrder };
}
