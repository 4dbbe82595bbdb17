/** Reciprocal-rank fusion of ranked candidate lists into one score per item. */

/** One ranked list of candidates from one retriever. */
export interface RankedList {
  /** Item keys best first (`layer:id`). */
  keys: readonly string[];
  /** Weight of this list in the fusion. */
  weight: number;
}

/** RRF: Σ weight / (k + rank), rank starting at 1 (Cormack et al. 2009, k = 60 by default). */
export function fuseRanks(lists: readonly RankedList[], k = 60): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of lists) {
    l.keys.forEach((key, i) => out.set(key, (out.get(key) ?? 0) + l.weight / (k + i + 1)));
  }
  return out;
}
