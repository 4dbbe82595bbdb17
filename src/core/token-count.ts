/** Token counting with a real tokenizer (gpt-tokenizer, o200k), for every budgeted read (DESIGN §3). */
import { encode } from 'gpt-tokenizer';

/** Number of tokens `text` takes for a current OpenAI-family model. */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : encode(text).length;
}
