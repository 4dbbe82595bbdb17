/**
 * jieba's dictionary as a sorted file, for cutting a short text without building jieba's whole dictionary (~0.1-0.2 s
 * of every prompt hook that holds Chinese). jieba cuts a sentence along the most probable path through the
 * dictionary words it contains, each word's probability its frequency over the sum of all frequencies: a dictionary
 * holding only the words inside the text, and one more entry that no text holds carrying the rest of that sum, gives
 * every word the same probability and the same cut (script/segment-text.ts; its test compares both on real chats).
 */
import { openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { builtArtifact } from './build-artifact.js';

const require = createRequire(import.meta.url);

/**
 * jieba's whole dictionary: the package's dict.txt, read alone (its dict.js reads idf.txt as well, 6 MB that search-mode
 * cuts never use, and keeps both).
 */
export function jiebaWholeDictionary(): Buffer {
  return readFileSync(require.resolve('@node-rs/jieba/dict.txt'));
}

/** What `scripts/jieba-lexicon.mjs` writes at build time beside this module (dist/core/jieba-lexicon.json and .txt). */
interface LexiconMeta {
  /** The @node-rs/jieba version whose dict.txt the lines come from: the lines of another version are not used. */
  version: string;
  /** The sum of every word's frequency. */
  total: number;
  /** The longest word, in UTF-16 code units. */
  longest: number;
  /** The .txt file's length in bytes. */
  bytes: number;
  /** The first word and byte offset of each block of lines, in order. */
  blocks: ReadonlyArray<readonly [word: string, offset: number]>;
}

/** A word no text holds (two private-use characters), carrying the frequencies of the words left out. */
const REST = '\uE000\uE001';

/**
 * The lexicon's file, its meta and the blocks read so far (each its `word freq` lines): a prompt reads the few blocks
 * its characters fall in (~3 kB each) rather than the whole 4 MB file, whose fresh pages alone cost ~12 ms on the 2-core
 * VMs of docs/BENCHMARKS.md. Null where the build did not write it or jieba changed since.
 */
interface Lexicon {
  fd: number;
  meta: LexiconMeta;
  blocks: Map<number, string[]>;
}
let lexicon: Lexicon | null | undefined;

function load(): Lexicon | null {
  if (lexicon !== undefined) return lexicon;
  const built = builtArtifact<LexiconMeta>('jieba-lexicon', '@node-rs/jieba');
  try {
    lexicon = built && { fd: openSync(built.txt, 'r'), meta: built.meta, blocks: new Map() };
  } catch {
    lexicon = null; // unreadable: the whole dictionary is built instead
  }
  return lexicon;
}

/** The lines of block `k`, read on first use. */
function block(l: Lexicon, k: number): string[] {
  let lines = l.blocks.get(k);
  if (lines === undefined) {
    const from = l.meta.blocks[k]![1];
    const to = k + 1 < l.meta.blocks.length ? l.meta.blocks[k + 1]![1] : l.meta.bytes;
    const buf = Buffer.allocUnsafe(to - from);
    const got = readSync(l.fd, buf, 0, buf.length, from);
    if (got !== buf.length) throw new Error(`jieba lexicon: read ${got} of ${buf.length} bytes at ${from}`);
    lines = buf.toString('utf8').split('\n');
    lines.pop();
    l.blocks.set(k, lines);
  }
  return lines;
}

const wordOf = (line: string): string => line.slice(0, line.indexOf(' '));

/** The first line whose word is not below `key`, in JS string order; undefined past the last. */
function firstAtLeast(l: Lexicon, key: string): string | undefined {
  const firsts = l.meta.blocks;
  // The last block starting at or below `key` (none: the answer is the first block's first line).
  let lo = 0;
  let hi = firsts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (firsts[mid]![0] <= key) lo = mid + 1;
    else hi = mid;
  }
  const k = lo - 1;
  if (k < 0) return firsts.length > 0 ? block(l, 0)[0] : undefined;
  const lines = block(l, k);
  let a = 0;
  let b = lines.length;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (wordOf(lines[mid]!) < key) a = mid + 1;
    else b = mid;
  }
  if (a < lines.length) return lines[a];
  return k + 1 < firsts.length ? block(l, k + 1)[0] : undefined;
}

/**
 * A jieba dictionary (`word freq` lines) holding every dictionary word found inside `text`, and one entry no text
 * holds with the rest of the frequencies, so that jieba cuts `text` with it exactly as with its whole dictionary.
 * Undefined where the build wrote no lexicon. Meant for short texts: each position is looked up once per length up
 * to the longest word, stopping at the first length that no word starts with.
 */
export function jiebaDictionaryFor(text: string): Buffer | undefined {
  const l = load();
  if (l === null) return undefined;
  const found = new Map<string, string>();
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    for (let n = 1; n <= l.meta.longest && i + n <= text.length; n++) {
      const key = text.slice(i, i + n);
      if (found.has(key)) continue;
      const line = firstAtLeast(l, key);
      // No word starts with `key`: none longer from this position either.
      if (line === undefined || !line.startsWith(key)) break;
      if (line.charCodeAt(key.length) !== 0x20) continue;
      found.set(key, line);
      sum += Number(line.slice(key.length + 1));
    }
  }
  return Buffer.from(`${[...found.values()].join('\n')}${found.size > 0 ? '\n' : ''}${REST} ${l.meta.total - sum}\n`, 'utf8');
}
