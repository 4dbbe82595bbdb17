// Retrieval metrics of the LoCoMo benchmark: evidence recall@k, NDCG@k, session recall@k and recall at a token budget.
import { countTokens } from '../core/token-count.js';

/** A text block an agent would be given, with where each dialog turn's line starts (and ends) in it. */
export interface RenderedBlock {
  readonly text: string;
  /**
   * Turns in block order. `offsetChars` is where the turn's line starts; `endChars` where it ends
   * (exclusive). Without `endChars` a line ends where the next entry starts, or at the end of the text.
   */
  readonly diaIdsInOrder: ReadonlyArray<{ readonly diaId: string; readonly offsetChars: number; readonly endChars?: number }>;
}

/** Counts tokens of a text; the benchmark uses gpt-tokenizer's default encoding (o200k_base). */
export type TokenCounter = (text: string) => number;

/** The real tokenizer: gpt-tokenizer's default encoding (o200k_base, the GPT-4o/GPT-5 family). */
export const countBenchTokens: TokenCounter = (text) => countTokens(text);

/** Keeps the first occurrence of every id, so a repeated hit cannot take two ranks. */
export function dedupeRanked(ranked: readonly string[]): string[] {
  return [...new Set(ranked)];
}

/**
 * Share of a question's evidence turns found in the top `k` of `ranked`. `evidence` holds distinct
 * ids; ids that do not exist in the conversation stay in it and count as misses (LoCoMo README).
 * 0 when there is no evidence (the harness skips such questions instead).
 */
export function recallAtK(ranked: readonly string[], evidence: readonly string[], k: number): number {
  if (evidence.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  let found = 0;
  for (const id of evidence) if (top.has(id)) found += 1;
  return found / evidence.length;
}

/**
 * NDCG@k with binary relevance: DCG = Σ rel_i / log2(i + 1) over ranks i = 1..k; the ideal DCG puts
 * `min(retrievableCount, k)` relevant turns first, where `retrievableCount` counts the evidence ids
 * that exist in the conversation. 0 when nothing is retrievable.
 */
export function ndcgAtK(
  ranked: readonly string[],
  evidence: readonly string[],
  retrievableCount: number,
  k: number,
): number {
  const ideal = Math.min(retrievableCount, k);
  if (ideal === 0) return 0;
  const relevant = new Set(evidence);
  let dcg = 0;
  const top = ranked.slice(0, k);
  for (let i = 0; i < top.length; i += 1) if (relevant.has(top[i] as string)) dcg += 1 / Math.log2(i + 2);
  let idcg = 0;
  for (let i = 0; i < ideal; i += 1) idcg += 1 / Math.log2(i + 2);
  return dcg / idcg;
}

/**
 * Share of the evidence's distinct sessions that appear among the sessions of the top `k` turns.
 * `sessionOf` maps a dialog id to its session key, or undefined when the id names no existing
 * session; such an id forms a session of its own that no ranking can reach.
 */
export function sessionRecallAtK(
  ranked: readonly string[],
  evidence: readonly string[],
  sessionOf: (diaId: string) => string | undefined,
  k: number,
): number {
  const wanted = new Set(evidence.map((id) => sessionOf(id) ?? `\u0000unreachable:${id}`));
  if (wanted.size === 0) return 0;
  const seen = new Set<string>();
  for (const id of ranked.slice(0, k)) {
    const s = sessionOf(id);
    if (s !== undefined) seen.add(s);
  }
  let found = 0;
  for (const s of wanted) if (seen.has(s)) found += 1;
  return found / wanted.size;
}

/**
 * Recall at a token budget: for each budget N, the share of evidence turns whose whole line lies in
 * the first N tokens of the block, i.e. `tokens(text[0, lineEnd)) ≤ N` with the line's trailing
 * whitespace excluded — the turns an agent still sees when the block is cut to N tokens without
 * cutting a line. A turn listed twice counts at its first line; a missing evidence turn is a miss.
 */
export function budgetRecall(
  block: RenderedBlock,
  evidence: readonly string[],
  budgets: readonly number[],
  count: TokenCounter = countBenchTokens,
): Record<string, number> {
  const ends = new Map<string, number>();
  const entries = block.diaIdsInOrder;
  for (let i = 0; i < entries.length; i += 1) {
    const e = entries[i] as RenderedBlock['diaIdsInOrder'][number];
    if (ends.has(e.diaId)) continue;
    let end = e.endChars ?? entries[i + 1]?.offsetChars ?? block.text.length;
    while (end > e.offsetChars && /\s/u.test(block.text[end - 1] as string)) end -= 1;
    ends.set(e.diaId, end);
  }
  const evidenceTokens = evidence.map((id) => {
    const end = ends.get(id);
    return end === undefined ? Number.POSITIVE_INFINITY : count(block.text.slice(0, end));
  });
  const out: Record<string, number> = {};
  for (const n of budgets) {
    const inside = evidenceTokens.filter((t) => t <= n).length;
    out[String(n)] = evidence.length === 0 ? 0 : inside / evidence.length;
  }
  return out;
}
