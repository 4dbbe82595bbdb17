/** Word segmentation for the lexical indexes: jieba search-mode cuts and character bigrams for CJK, Latin text left to the tokenizer. */
import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';
import type * as JiebaModule from '@node-rs/jieba';
import { remembered } from '../core/bounded-memo.js';
import { jiebaDictionaryFor, jiebaWholeDictionary } from '../core/jieba-lexicon.js';

const require = createRequire(import.meta.url);
let jieba: Jieba | undefined;
let jiebaClass: typeof JiebaModule.Jieba | undefined;

/** jieba's native class (a few ms to load; building its whole dictionary is what costs, see `getJieba`). */
function jiebaModule(): typeof JiebaModule.Jieba {
  jiebaClass ??= (require('@node-rs/jieba') as typeof JiebaModule).Jieba;
  return jiebaClass;
}

/**
 * The shared jieba instance, loaded on first use: the native module and its dictionary cost a few hundred ms of
 * start-up, which English-only commands never pay (`jiebaWholeDictionary`).
 */
export function getJieba(): Jieba {
  if (!jieba) jieba = jiebaModule().withDict(jiebaWholeDictionary());
  return jieba;
}

/** Whether this process has built jieba's whole dictionary (`getJieba`). */
export function wholeDictionaryLoaded(): boolean {
  return jieba !== undefined;
}

/**
 * CJK characters a process cuts with dictionaries of their own words (`jiebaDictionaryFor`) before it builds jieba's
 * whole one. A prompt hook cuts a prompt and a turn or two; a process that goes on (an import, a server) has spent
 * about the whole dictionary's build on small ones by then (~6 µs a character against 110-230 ms for the whole
 * dictionary, on the 2-core VM of 4 December), and builds it.
 */
const SMALL_DICTIONARY_CHARS = 20_000;
let smallDictionaryChars = 0;

/**
 * jieba's search-mode cut of a CJK run: with a dictionary of the run's own words while the process has cut little,
 * then with the whole one. Both give the same words (jieba-lexicon.ts).
 */
function cutForSearch(run: string): string[] {
  if (jieba === undefined && smallDictionaryChars + run.length <= SMALL_DICTIONARY_CHARS) {
    const dict = jiebaDictionaryFor(run);
    if (dict !== undefined) {
      smallDictionaryChars += run.length;
      return jiebaModule().withDict(dict).cutForSearch(run, true);
    }
  }
  return getJieba().cutForSearch(run, true);
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/g;

/** True when `text` holds Chinese, Japanese or Korean characters. */
export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/**
 * Text for the word index: each CJK run is replaced by its jieba search-mode words and its character bigrams (those
 * that are not already words), separated by spaces, so that `咖啡` matches `用户爱喝咖啡` (search mode also emits the
 * short words inside long ones: 喝咖啡 → 咖啡, 喝咖啡) and a name jieba cuts apart still matches as bigrams.
 */
export function segmentForIndex(text: string): string {
  // "de-stress" is indexed as de, stress and destress, so a query spelling it either way finds it.
  const joined = text.includes('-') ? [...text.matchAll(/\b[\p{L}]+(?:-[\p{L}]+)+\b/gu)].map((m) => m[0].replace(/-/g, '')) : [];
  if (joined.length > 0) text = `${text} ${joined.join(' ')}`;
  if (!hasCjk(text)) return text;
  return remembered(recentCjk, 4096, text, segmentCjk);
}

function segmentCjk(text: string): string {
  return text.replace(CJK_RUN, (run) => {
    const words = cutForSearch(run);
    const have = new Set(words);
    return ` ${[...words, ...characterBigrams(run).filter((b) => !have.has(b))].join(' ')} `;
  });
}

/** The last few thousand CJK texts segmented: a turn is segmented again as the context of the turns after it. */
const recentCjk = new Map<string, string>();

/**
 * The overlapping character bigrams of a CJK run (`北京大学` → 北京, 京大, 大学; none for one character). Indexed
 * beside jieba's words, they find what jieba's dictionary splits badly in real chats (names, slang, new words):
 * a query's bigrams match a text's whatever either was cut into.
 */
export function characterBigrams(run: string): string[] {
  const chars = [...run];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/**
 * CJK words of a query (jieba search mode), single characters included: the index keeps them, and a verb like 买
 * or a noun jieba does not know (虎斑猫 → 虎/斑/猫) is often only single characters.
 */
export function cjkWords(run: string): string[] {
  return cutForSearch(run).filter((w) => CJK.test(w));
}

/** Splits text into CJK runs and the rest, in order. */
export function splitCjk(text: string): Array<{ cjk: boolean; text: string }> {
  const out: Array<{ cjk: boolean; text: string }> = [];
  let last = 0;
  for (const m of text.matchAll(CJK_RUN)) {
    if (m.index > last) out.push({ cjk: false, text: text.slice(last, m.index) });
    out.push({ cjk: true, text: m[0] });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ cjk: false, text: text.slice(last) });
  return out;
}
