/** Stop-word lists of the keyword layer: a pure parser and the one boot-time read of the package's data files. */
import { readFileSync } from 'node:fs';

/** Stop words per language, lower case. */
export interface StopwordSets {
  en: ReadonlySet<string>;
  zh: ReadonlySet<string>;
}

/** Parses a stop-word file: one word a line, `#` starts a comment, blank lines ignored, English folded to lower case. */
export function parseStopwords(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, '').trim().toLowerCase();
    if (line) out.add(line);
  }
  return out;
}

let cached: StopwordSets | undefined;

/**
 * Reads `data/stopwords-en.txt` and `data/stopwords-zh.txt` from the package root once and caches them.
 * The path is relative to this module, so it holds from `src/script/` and from `dist/script/` alike.
 */
export function loadStopwords(): StopwordSets {
  cached ??= {
    en: parseStopwords(readFileSync(new URL('../../data/stopwords-en.txt', import.meta.url), 'utf8')),
    zh: parseStopwords(readFileSync(new URL('../../data/stopwords-zh.txt', import.meta.url), 'utf8')),
  };
  return cached;
}
