// Writes dist/core/o200k-words.txt and .json at build time (after `tsc`): the o200k tokens that are ASCII strings,
// sorted, between NUL separators (a one-byte text read in a few ms), and gpt-tokenizer's own split pattern with the
// version they come from. core/token-count.ts bounds a text's tokens with them without loading the tokenizer, whose
// tables cost ~0.3 s of every prompt hook that injects more bytes than its token budget (docs/BENCHMARKS.md).
// Generated from the installed package so that they are always the tokenizer's own; not kept in the repository.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const ranks = require('gpt-tokenizer/bpeRanks/o200k_base').default;
const { O200K_TOKEN_SPLIT_REGEX: split } = require('gpt-tokenizer/encodingParams/constants');
const { version } = require('gpt-tokenizer/package.json');
// ASCII without NUL (the separator); in JS string order, which token-count.ts searches by.
const words = ranks.filter((w) => typeof w === 'string' && /^[\x01-\x7f]+$/.test(w)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const dir = join(root, 'dist', 'core');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'o200k-words.txt'), `\0${words.join('\0')}\0`, 'latin1');
writeFileSync(join(dir, 'o200k-words.json'), JSON.stringify({ version, pattern: split.source, flags: split.flags, count: words.length }));
