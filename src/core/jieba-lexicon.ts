/**
 * jieba's dictionary as a sorted file, for cutting a short text without building jieba's whole dictionary (~0.1-0.2 s
 * of every prompt hook that holds Chinese). jieba cuts a sentence along the most probable path through the
 * dictionary words it contains, each word's probability its frequency over the sum of all frequencies: a dictionary
 * holding only the words inside the text, and one more entry that no text holds carrying the rest of that sum, gives
 * every word the same probability and the same cut (script/segment-text.ts; its test compares both on real chats).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** What `scripts/jieba-lexicon.mjs` writes at build time beside this module (dist/core/jieba-lexicon.json and .txt). */
interface LexiconMeta {
  /** The @node-rs/jieba version whose dict.txt the lines come from: the lines of another version are not used. */
  version: string;
  /** The sum of every word's frequency. */
  total: number;
  /** The longest word, in UTF-16 code units. */
  longest: number;
}

/** A word no text holds (two private-use characters), carrying the frequencies of the words left out. */
const REST = '\uE000\uE001';
const NEWLINE = 0x0a;
const SPACE = 0x20;

/** The sorted `word freq` lines, and their meta; null where the build did not write them or jieba changed since. */
let lexicon: { lines: Buffer; meta: LexiconMeta } | null | undefined;

function load(): { lines: Buffer; meta: LexiconMeta } | null {
  if (lexicon !== undefined) return lexicon;
  lexicon = null;
  const require = createRequire(import.meta.url);
  let version: string;
  try {
    version = (require('@node-rs/jieba/package.json') as { version: string }).version;
  } catch {
    return lexicon;
  }
  // Beside the compiled module; from the sources (tests, tsx), the build's copy.
  for (const dir of ['./', '../../dist/core/']) {
    try {
      const meta = require(`${dir}jieba-lexicon.json`) as LexiconMeta;
      if (meta.version !== version) break;
      lexicon = { lines: readFileSync(fileURLToPath(new URL(`${dir}jieba-lexicon.txt`, import.meta.url))), meta };
      break;
    } catch {
      // not built there
    }
  }
  return lexicon;
}

/** Byte offset of the first line whose word is not below `key` (the lines' length when none): bisection by position. */
function firstAtLeast(lines: Buffer, key: Buffer): number {
  let lo = 0;
  let hi = lines.length;
  // lo and hi are line starts; the answer lies in [lo, hi].
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = lines.lastIndexOf(NEWLINE, mid - 1) + 1;
    const space = lines.indexOf(SPACE, start);
    if (lines.compare(key, 0, key.length, start, space) < 0) lo = lines.indexOf(NEWLINE, space) + 1;
    else hi = start;
  }
  return lo;
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
  const { lines, meta } = l;
  const found = new Map<string, string>();
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    for (let n = 1; n <= meta.longest && i + n <= text.length; n++) {
      const word = text.slice(i, i + n);
      if (found.has(word)) continue;
      const key = Buffer.from(word, 'utf8');
      const at = firstAtLeast(lines, key);
      if (at >= lines.length) break;
      const space = lines.indexOf(SPACE, at);
      // No word starts with `word`: none longer from this position either.
      if (space - at < key.length || lines.compare(key, 0, key.length, at, at + key.length) !== 0) break;
      if (space - at !== key.length) continue;
      const end = lines.indexOf(NEWLINE, space);
      const line = lines.toString('utf8', at, end);
      found.set(word, line);
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return Buffer.from(`${[...found.values()].join('\n')}${found.size > 0 ? '\n' : ''}${REST} ${meta.total - sum}\n`, 'utf8');
}
