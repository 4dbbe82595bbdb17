// Splits a question into the keywords an agent would search for one by one (any language, via Intl.Segmenter).
import { ENGLISH_FUNCTION_WORDS } from '../script/english-stopwords.js';

// The words a person leaves out when typing keywords into a search box: the product's English function words (the
// one list, script/english-stopwords.ts) plus hedges and vague words a searcher skips that recall's query stop list
// keeps ("May" is a month, "kind" a word a memory can be about). Until 2026-12 this was a copy of an
// older function-word list: the peers' figures in docs/BENCHMARKS.md measured before then kept 22 function words
// ("here", "down", "ever", "what's" …) as keywords.
const SEARCH_BOX_SKIPS = ['us', 'whose', 'likely', 'might', 'may', 'maybe', 'something', 'someone', 'anything', 'thing', 'things', 'kind', 'sort'];
const STOP_WORDS = new Set([...ENGLISH_FUNCTION_WORDS, ...SEARCH_BOX_SKIPS]);

// Chinese particles and question words (的, 了, 吗, 什么时候 …) a searcher skips. Not a copy of the keyword layer's
// Chinese list (script/chinese-stopwords.ts), which keeps single characters to the segmenter and lists other words.
const CJK_STOP_WORDS = new Set('的 了 吗 呢 吧 啊 是 在 和 与 或 也 都 就 还 又 把 被 给 对 从 到 什么 哪 哪里 哪些 怎么 为什么 多少 几 谁 何时 时候 什么时候 一个 这个 那个 有 没有'.split(' '));

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * Distinct lower-cased keywords of a question in order of appearance: word-like segments (Chinese is
 * split into words by ICU; runs of single characters, which ICU leaves for unknown words such as
 * names, are joined back), without stop words; Latin words need ≥ 3 letters; numbers are kept.
 * @example questionKeywords('When did Caroline go to the LGBTQ support group?') // ['caroline', 'lgbtq', 'support', 'group']
 */
export function questionKeywords(question: string): string[] {
  const out = new Set<string>();
  let hanRun = '';
  const flushRun = (): void => {
    if (hanRun.length > 1 && !CJK_STOP_WORDS.has(hanRun)) out.add(hanRun);
    hanRun = '';
  };
  for (const seg of segmenter.segment(question.normalize('NFKC'))) {
    const w = seg.segment.toLowerCase();
    const han = /\p{Script=Han}/u.test(w);
    if (han && seg.isWordLike && [...w].length === 1 && !CJK_STOP_WORDS.has(w)) {
      hanRun += w;
      continue;
    }
    flushRun();
    if (!seg.isWordLike) continue;
    if (han) {
      if (!CJK_STOP_WORDS.has(w)) out.add(w);
      continue;
    }
    if (STOP_WORDS.has(w)) continue;
    if (/^\d+$/u.test(w) || w.length >= 3) out.add(w);
  }
  flushRun();
  return [...out];
}
