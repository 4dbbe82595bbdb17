// Writes dist/core/jieba-lexicon.txt and .json at build time (after `tsc`): jieba's dictionary (the dict.txt that
// @node-rs/jieba loads) as `word freq` lines in JS string order, the sum of every frequency, the longest word, and the
// first word and byte offset of every BLOCK-th line. core/jieba-lexicon.ts looks up the words inside a short text by
// bisection over those, reading only the blocks it needs, so that a prompt hook cuts Chinese with a dictionary of
// those words alone instead of building jieba's whole one (~0.1-0.2 s a process). Generated from the installed
// package so that it is always jieba's own dictionary; not kept in the repository.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { version } = require('@node-rs/jieba/package.json');
const lines = readFileSync(require.resolve('@node-rs/jieba/dict.txt'), 'utf8').split('\n');
const entries = new Map();
let total = 0;
let longest = 0;
for (const line of lines) {
  const [word, freq] = line.trim().split(/\s+/);
  if (!word || freq === undefined) continue;
  const n = Number(freq);
  if (!Number.isInteger(n) || n < 0) throw new Error(`jieba-lexicon: bad frequency in ${JSON.stringify(line)}`);
  // jieba counts every line in its total; a word listed twice would need jieba's own rule for which one it keeps.
  if (entries.has(word)) throw new Error(`jieba-lexicon: ${word} is listed twice in dict.txt`);
  entries.set(word, n);
  total += n;
  longest = Math.max(longest, word.length);
}
const words = [...entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const BLOCK = 256;
const blocks = [];
let text = '';
let bytes = 0;
for (const [i, w] of words.entries()) {
  const line = `${w} ${entries.get(w)}\n`;
  if (i % BLOCK === 0) blocks.push([w, bytes]);
  text += line;
  bytes += Buffer.byteLength(line, 'utf8');
}
const dir = join(root, 'dist', 'core');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'jieba-lexicon.txt'), text);
writeFileSync(join(dir, 'jieba-lexicon.json'), JSON.stringify({ version, total, longest, count: words.length, bytes, blocks }));
