/** Token estimates with a real tokenizer, for servers that report no usage and for budget planning. */

import type { ModelRequest } from './model.js';

type CountTokens = (text: string) => number;
let counter: Promise<CountTokens> | undefined;

/** Per-message framing overhead of chat formats (role markers, separators), in tokens. */
const MESSAGE_OVERHEAD = 4;

function loadCounter(): Promise<CountTokens> {
  // gpt-tokenizer parses its BPE ranks on import (~0.4 s); load it only when a count is needed (STYLE §9).
  counter ??= import('gpt-tokenizer').then((m) => (text: string) => m.countTokens(text));
  return counter;
}

/** Counts the tokens of `text` with the o200k tokenizer (gpt-tokenizer's default); 0 for empty text. */
export async function estimateTokens(text: string): Promise<number> {
  if (text.length === 0) return 0;
  const count = await loadCounter();
  return count(text);
}

/** Estimates the prompt tokens of a whole request: system + every message + framing overhead. */
export async function estimateRequestTokens(req: Pick<ModelRequest, 'system' | 'messages'>): Promise<number> {
  let total = (await estimateTokens(req.system)) + MESSAGE_OVERHEAD;
  for (const m of req.messages) total += (await estimateTokens(m.content)) + MESSAGE_OVERHEAD;
  return total;
}
