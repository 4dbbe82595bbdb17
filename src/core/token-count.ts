/** Token counting with a real tokenizer (gpt-tokenizer, o200k), for every budgeted read (DESIGN §3). */
import { createRequire } from 'node:module';

type Encode = (text: string) => number[];
let encode: Encode | undefined;

/** Number of tokens `text` takes for a current OpenAI-family model. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  // Loaded on first use: the encoding tables are megabytes of JavaScript that every CLI start would parse.
  encode ??= (createRequire(import.meta.url)('gpt-tokenizer') as { encode: Encode }).encode;
  return encode(text).length;
}
