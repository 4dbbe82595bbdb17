// Writes dist/core/jieba-lexicon.txt and .json at build time (after `tsc`): jieba's dictionary (the dict.txt that
// @node-rs/jieba loads) as `word freq` lines sorted by their UTF-8 bytes, the sum of every frequency and the longest
// word. core/jieba-lexicon.ts looks up the words inside a short text in it by bisection, so that a prompt hook cuts
// Chinese with a dictionary of those words alone instead of building jieba's whole one (~0.1-0.2 s a process).
// Generated from the installed package so that it is always jieba's own dictionary; not kept in the repository.
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
const words = [...entries.keys()].map((w) => Buffer.from(w, 'utf8')).sort(Buffer.compare);
const dir = join(root, 'dist', 'core');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'jieba-lexicon.txt'), words.map((w) => `${w.toString('utf8')} ${entries.get(w.toString('utf8'))}\n`).join(''));
writeFileSync(join(dir, 'jieba-lexicon.json'), JSON.stringify({ version, total, longest, count: words.length }));
