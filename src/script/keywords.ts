/** Keyword extraction for the script layer: jieba POS tags for Chinese, a stop-word tokenizer for English (DESIGN §5). */
import { getJieba, splitCjk } from './segment-text.js';
import type { StopwordSets } from './stopwords.js';

/** One tagged word, as jieba's `tag()` returns it. */
export interface TaggedWord {
  word: string;
  tag: string;
}

/** A part-of-speech tagger for a run of CJK text. */
export type PosTagger = (text: string) => readonly TaggedWord[];

/**
 * jieba flags kept for Chinese: nouns, verbs and adjectives, as the Tideline README intends (SEEDS T-20: its
 * code kept only nouns + vn, which dropped structural verbs such as 拒绝, 逃避, 失控).
 */
export const KEPT_ZH_TAGS: ReadonlySet<string> = new Set([
  'n',
  'nr',
  'nrt',
  'nrfg',
  'ns',
  'nt',
  'nz',
  'ng',
  'j', // nouns, names, places, organisations, abbreviations
  'v',
  'vn',
  'vd',
  'vi',
  'vg', // verbs, verbal nouns
  'a',
  'an',
  'ag', // adjectives
]);

/**
 * Minimum lengths (SEEDS §1.7): CJK words ≥ 2 characters; Latin words ≥ 3, but a lower-case alphabetic word ≥ 4
 * (capitalised names such as Ana or Bob keep 3; "day", "got", "way" are noise).
 */
export const MIN_ZH_CHARS = 2;
export const MIN_EN_CHARS = 3;
export const MIN_EN_LOWER_CHARS = 4;

/** Options of {@link extractKeywords}. */
export interface KeywordOptions {
  stopwords: StopwordSets;
  /** Defaults to the shared jieba instance. */
  tagger?: PosTagger;
  /** Search-mode cut of one long word into the words inside it; defaults to jieba's `cutForSearch`. */
  splitter?: (word: string) => readonly string[];
}

/** Kept words of at least this many characters also yield the kept words inside them (逃避责任 → 逃避, 责任). */
export const COMPOUND_CHARS = 4;

/** The shared jieba tagger (HMM on, so unknown compounds such as 连接池 stay one word). */
export const jiebaTagger: PosTagger = (text) => getJieba().tag(text, true);

/** jieba's search-mode cut, which emits the dictionary words inside a long word as well as the word. */
export const jiebaSplitter = (word: string): string[] => getJieba().cutForSearch(word, true);

const LATIN_WORD = /[A-Za-z][A-Za-z0-9]*(?:['’-][A-Za-z0-9]+)*/g;

/** Keywords of `text`, each once, in order of first appearance. */
export function extractKeywords(text: string, opts: KeywordOptions): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (w: string) => {
    if (!seen.has(w)) {
      seen.add(w);
      out.push(w);
    }
  };
  for (const part of splitCjk(text)) {
    if (part.cjk) chineseKeywords(part.text, opts).forEach(add);
    else englishKeywords(part.text, opts.stopwords.en).forEach(add);
  }
  return out;
}

/** A reusable `text → keywords` function bound to its stop words and tagger. */
export function createKeywordExtractor(opts: KeywordOptions): (text: string) => string[] {
  return (text) => extractKeywords(text, opts);
}

function chineseKeywords(run: string, opts: KeywordOptions): string[] {
  const tagger = opts.tagger ?? jiebaTagger;
  const keep = (word: string, tag: string) =>
    KEPT_ZH_TAGS.has(tag) && [...word].length >= MIN_ZH_CHARS && !opts.stopwords.zh.has(word);
  const out: string[] = [];
  for (const { word, tag } of tagger(run)) {
    if (!keep(word, tag)) continue;
    out.push(word);
    // Trigger: an idiom-like compound. Why: 逃避责任 is one dictionary word, but 逃避 is the structural verb that
    // recurs across memories. Outcome: its inner words that are themselves kept words follow it.
    if ([...word].length < COMPOUND_CHARS) continue;
    for (const sub of (opts.splitter ?? jiebaSplitter)(word)) {
      if (sub === word) continue;
      const tagged = tagger(sub);
      if (tagged.length === 1 && keep(sub, tagged[0]!.tag)) out.push(sub);
    }
  }
  return out;
}

/** English words of a non-CJK run: lower-cased, possessives removed, plurals of lower-case words folded. */
export function englishKeywords(text: string, stop: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(LATIN_WORD)) {
    let raw = m[0].replace(/['’]s$/i, '');
    if (/['’]/.test(raw)) raw = raw.split(/['’]/)[0]!; // contractions: don't → don (a stop word)
    const lower = raw.toLowerCase();
    if (stop.has(lower)) continue;
    // Trigger: a lower-case plural. Why: "groups" and "group" are one topic. Outcome: the singular; names keep their s.
    const word = raw === lower ? singular(lower) : lower;
    // Tideline measures the word as written, so "bugs" (4) stays, folded to "bug".
    if (/^[a-z]+$/.test(raw) && raw.length < MIN_EN_LOWER_CHARS) continue;
    if (word.length < MIN_EN_CHARS || stop.has(word) || /^[0-9]+$/.test(word)) continue;
    out.push(word);
  }
  return out;
}

/**
 * Folds the plainest plurals only: -ies → -y, and -s after b c d f g k m n p r t (groups, tests, kids). Endings such
 * as -es, -as, -os, -us, -is, -ws stay, because postgres, ideas, bonus, analysis or news are not plurals to cut.
 */
function singular(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length >= 4 && /[bcdfgkmnprt]s$/.test(w)) return w.slice(0, -1);
  return w;
}
