/** Stop-word lists of the keyword layer: a pure parser and the parsed English and Chinese lists. */
import { CHINESE_STOPWORDS_TEXT } from './chinese-stopwords.js';
import { ENGLISH_FUNCTION_WORDS, ENGLISH_KEYWORD_STOPWORDS_TEXT } from './english-stopwords.js';

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

/** The keyword layer's lists, parsed once: English function words plus its own (`english-stopwords.ts`), Chinese. */
export function loadStopwords(): StopwordSets {
  cached ??= {
    en: new Set([...ENGLISH_FUNCTION_WORDS, ...parseStopwords(ENGLISH_KEYWORD_STOPWORDS_TEXT)]),
    zh: parseStopwords(CHINESE_STOPWORDS_TEXT),
  };
  return cached;
}
