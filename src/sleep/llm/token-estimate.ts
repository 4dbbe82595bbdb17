/** Token estimates with the real tokenizer, for servers that report no usage and for budget planning. */

import { countTokens } from '../../core/token-count.js';
import type { ModelRequest } from './model.js';

/** Per-message framing overhead of chat formats (role markers, separators), in tokens. */
const MESSAGE_OVERHEAD = 4;

/** Counts the tokens of `text` (o200k, core/token-count); 0 for empty text. */
export function estimateTokens(text: string): number {
  return countTokens(text);
}

/** Estimates the prompt tokens of a whole request: system + every message + framing overhead. */
export function estimateRequestTokens(req: Pick<ModelRequest, 'system' | 'messages'>): number {
  let total = estimateTokens(req.system) + MESSAGE_OVERHEAD;
  for (const m of req.messages) total += estimateTokens(m.content) + MESSAGE_OVERHEAD;
  return total;
}
