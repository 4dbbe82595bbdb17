/** Fits ranked items into a token budget by dropping whole items, never cutting text. */
import { countTokens } from '../core/token-count.js';

/** Keeps items in rank order while their rendered lines fit `maxTokens` (an item that does not fit is skipped). */
export function fitToBudget<T>(items: readonly T[], render: (item: T) => string, maxTokens: number | undefined): T[] {
  if (maxTokens === undefined) return [...items];
  const out: T[] = [];
  let used = 0;
  for (const it of items) {
    const cost = countTokens(render(it)) + 1; // +1 for the newline between lines
    if (used + cost > maxTokens) continue;
    used += cost;
    out.push(it);
  }
  return out;
}
