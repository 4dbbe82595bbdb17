/** Token counting with a real tokenizer (gpt-tokenizer, o200k), for every budgeted read (DESIGN §3). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { remembered } from './bounded-memo.js';
import { builtArtifact } from './build-artifact.js';

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
 * Whether `text` takes at most `max` tokens: the same answer as `countTokens(text) <= max`, from the bound
 * `tokensAtMost` where it is enough. The tokenizer's first use in a process loads its tables (~0.3 s on the 2-core VM
 * of docs/BENCHMARKS.md), and the prompt hook runs on every prompt.
 */
export function withinTokens(text: string, max: number): boolean {
  return tokensAtMost(text, max) <= max || countTokens(text) <= max;
}

/** What `scripts/o200k-words.mjs` writes at build time beside this module (dist/core/o200k-words.json and .txt). */
interface CommonTokensMeta {
  /** The gpt-tokenizer version the words come from: words of another version are not used. */
  version: string;
  /** The tokenizer's own split pattern for o200k, and its flags. */
  pattern: string;
  flags: string;
}

/**
 * The tokenizer's ASCII tokens, sorted, each between NUL separators in one one-byte string (~0.9 MB, read in a few ms:
 * a Set of them took ~75 ms to build), searched by bisection; and the split. Loaded on the first text longer in bytes
 * than its budget; null where the build did not write them.
 */
let common: { split: RegExp; words: string; seen: Map<string, number> } | null | undefined;

function commonTokens(): { split: RegExp; words: string; seen: Map<string, number> } | null {
  if (common !== undefined) return common;
  const built = builtArtifact<CommonTokensMeta>('o200k-words', 'gpt-tokenizer');
  try {
    common = built && { split: new RegExp(built.meta.pattern, built.meta.flags), words: readFileSync(built.txt, 'latin1'), seen: new Map() };
  } catch {
    common = null; // unreadable: the bound falls back to bytes
  }
  return common;
}

/** Whether `piece` is one of the sorted NUL-separated `words` (`\0a\0b\0…\0`): bisection by position. */
function isWord(words: string, piece: string): boolean {
  let lo = 0;
  let hi = words.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = words.lastIndexOf('\0', mid) + 1;
    const end = words.indexOf('\0', start);
    if (end < 0) return false;
    const word = words.slice(start, end);
    if (word === piece) return true;
    if (word < piece) lo = end;
    else hi = start - 1;
  }
  return false;
}

/**
 * An upper bound of `countTokens(text)` that needs no tokenizer. Its UTF-8 bytes, when that is at most `enough` (all
 * the caller needs to know): every token of a byte-level BPE stands for one byte or more. Else the tokenizer's own
 * cut of the text into pieces, which it encodes one by one, each counted as one token when it is one of the
 * tokenizer's ASCII tokens (a piece that is a whole token is encoded as that token) and as its bytes otherwise: an
 * English block is bounded within ~10 % of its tokens rather than at four or five times, so a prompt hook's block
 * mostly fits its budget without the tokenizer.
 */
export function tokensAtMost(text: string, enough = Number.POSITIVE_INFINITY): number {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= enough) return bytes;
  const c = commonTokens();
  if (c === null) return bytes;
  let n = 0;
  // Pieces repeat (a block is measured again with each line added): each one's cost is remembered.
  const cost = (piece: string) => (isWord(c.words, piece) ? 1 : Buffer.byteLength(piece, 'utf8'));
  for (const [piece] of text.matchAll(c.split)) n += remembered(c.seen, 50_000, piece, cost);
  return n;
}
