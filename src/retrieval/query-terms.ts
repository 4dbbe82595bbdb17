/** Turns a user's query into safe index terms: words, minus stop words, with CJK segmented by jieba. */
import { ENGLISH_FUNCTION_WORDS } from '../script/english-stopwords.js';
import { characterBigrams, cjkWords, splitCjk } from '../script/segment-text.js';

// English function words (`script/english-stopwords.ts`, the keyword layer's list starts from the same words).
const EN_STOP = new Set(ENGLISH_FUNCTION_WORDS);

const ZH_STOP = new Set([
  '一个', '没有', '我们', '你们', '他们', '什么', '怎么',
  // Question words, as "when", "where", "why" and "how" are English stop words.
  '什么时候', '时候', '哪里', '哪儿', '为什么', '怎么样', '如何', '多少', '是否', '何时',
  // Single-character particles, pronouns and function verbs: every other single character stays a query word.
  ...'的了是在和也就都而及与着或吗呢吧啊把被给让从对向到很才又还过我你他她它这那哪谁个些有没不会地得之其',
]);

/** Query terms for the word index, lower-cased, in order; de-duplicated but for repeated Chinese bigrams. */
export function queryTerms(query: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  // A bigram said again counts again (BM25 sums repeated query terms): a long Chinese query, such as a conversation,
  // says what it is about more than once (MADial archive-recall R@10 0.601 -> 0.619 with the repeats).
  const bigram = (b: string) => (seen.has(b) ? out.push(b) : add(b));
  const add = (t: string) => {
    if (t && !seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  };
  // A query of several lines is a conversation (recall before a reply): its single characters are left to its bigrams.
  // Each one, matched as a prefix, finds nearly every text holding the character, and a conversation holds dozens
  // (玩, 吃, 跑…): they drowned its rarer words (MADial archive-recall R@10 0.647 -> 0.663; docs/BENCHMARKS.md).
  const conversation = query.split('\n').filter((l) => l.trim().length > 0).length > 1;
  for (const part of splitCjk(query)) {
    if (part.cjk) {
      const single = !conversation || [...part.text].length === 1;
      for (const w of cjkWords(part.text)) if (!ZH_STOP.has(w) && (single || [...w].length > 1)) add(w);
      // The run's bigrams as well (the index holds them beside the words), but not those of two particles.
      for (const b of characterBigrams(part.text)) if (![...b].every((c) => ZH_STOP.has(c))) bigram(b);
      continue;
    }
    for (const m of part.text.toLowerCase().matchAll(/[\p{L}\p{N}][\p{L}\p{N}'_-]*/gu)) {
      const w = m[0].replace(/'s$/, '').replace(/^['_-]+|['_-]+$/g, '');
      if (w.length === 0 || EN_STOP.has(w)) continue;
      add(w);
    }
  }
  return out;
}
