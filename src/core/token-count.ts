/** Token counting with a real tokenizer (gpt-tokenizer, o200k), for every budgeted read (DESIGN §3). */
import { createRequire } from 'node:module';

type Encode = (text: string, options: { disallowedSpecial: Set<string> }) => number[];
let encode: Encode | undefined;
/** Special-token text (`<|endoftext|>`) in a memory is counted as the plain text it is; by default encode throws on it. */
const PLAIN = { disallowedSpecial: new Set<string>() };

/** Number of tokens `text` takes for a current OpenAI-family model. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  // Loaded on first use: the encoding tables are megabytes of JavaScript that every CLI start would parse.
  encode ??= (createRequire(import.meta.url)('gpt-tokenizer') as { encode: Encode }).encode;
  return encode(text, PLAIN).length;
}

/**
 * Whether `text` takes at most `max` tokens: the same answer as `countTokens(text) <= max`. Every token of a byte-level
 * BPE stands for one UTF-8 byte or more, so a text of at most `max` bytes fits without the tokenizer, whose first use
 * in a process loads its tables (~0.35 s on the 2-core VM of docs/BENCHMARKS.md): the prompt hook's block is mostly
 * that short, and the hook runs on every prompt.
 */
export function withinTokens(text: string, max: number): boolean {
  return tokensAtMost(text) <= max || countTokens(text) <= max;
}

/** An upper bound of `countTokens(text)` that needs no tokenizer: its UTF-8 bytes (see `withinTokens`). */
export function tokensAtMost(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
