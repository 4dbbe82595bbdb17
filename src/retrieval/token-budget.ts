/** Fits ranked items into a token budget by dropping whole items, never cutting text. */
import { countTokens, tokensAtMost } from '../core/token-count.js';

/** A kept line: its cost in tokens (+1 for the newline), or its UTF-8 bytes + 1 while that bound was enough. */
interface Kept<T> {
  item: T;
  text: string;
  cost: number;
  counted: boolean;
}

/**
 * Keeps items in rank order while their rendered lines fit `maxTokens` (an item that does not fit is skipped). A line
 * takes at most `tokensAtMost` tokens (its bytes, or its pieces), so lines are kept on that bound while the bounds fit, and
 * counted (every kept line, then each next one) from the first that does not: the same items as counting every line,
 * without loading the tokenizer (~0.35 s) where the lines are short for the budget.
 */
export function fitToBudget<T>(items: readonly T[], render: (item: T) => string, maxTokens: number | undefined): T[] {
  if (maxTokens === undefined) return [...items];
  const kept: Array<Kept<T>> = [];
  let used = 0;
  for (const item of items) {
    const text = render(item);
    const bound = tokensAtMost(text, maxTokens - used - 1) + 1;
    if (used + bound <= maxTokens) {
      kept.push({ item, text, cost: bound, counted: false });
      used += bound;
      continue;
    }
    for (const k of kept) {
      if (k.counted) continue;
      used -= k.cost;
      k.cost = countTokens(k.text) + 1;
      k.counted = true;
      used += k.cost;
    }
    const cost = countTokens(text) + 1;
    if (used + cost > maxTokens) continue;
    kept.push({ item, text, cost, counted: true });
    used += cost;
  }
  return kept.map((k) => k.item);
}
