// Splits a question into the keywords an agent would search for one by one (any language, via Intl.Segmenter).

// Function words and question words that a person would not type into a keyword search box. Not the product's list
// (script/english-stopwords.ts): this models a person at a search box (hedges such as "maybe" or "kind" go too), and
// the keyword peers' figures in docs/BENCHMARKS.md were measured with it.
const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have having he her hers ' +
    'him his how i if in into is it its itself me my of on or our ours she so than that the their theirs them then ' +
    'there these they this those to too up us was we were what when where which while who whom whose why will with ' +
    'would you your yours about after again all also am any because before between both during each few further ' +
    'just more most no nor not now only other out over own same should some such through under until very ' +
    'likely might may maybe something someone anything thing things kind sort'
  ).split(' '),
);

// Chinese function words and question particles (的, 了, 吗 …) with the same role.
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
