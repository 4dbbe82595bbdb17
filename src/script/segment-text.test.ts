// jieba's cut of a short text with a dictionary of that text's own words (core/jieba-lexicon.ts) is the cut of its
// whole dictionary, so a prompt hook need not build the whole one; a process that goes on cutting builds it.
import { existsSync, readFileSync } from 'node:fs';
import { Jieba } from '@node-rs/jieba';
import { describe, expect, it, vi } from 'vitest';
import { jiebaDictionaryFor } from '../core/jieba-lexicon.js';
import { cjkWords, getJieba, segmentForIndex, splitCjk, wholeDictionaryLoaded } from './segment-text.js';

const SENTENCES = [
  '你还记得老王养的猫叫什么吗？',
  '我上周在北京大学附近的咖啡馆见了老王，他养了一只虎斑猫。',
  '小明硕士毕业于中国科学院计算所，后在日本京都大学深造。',
  '他说的那个竞态条件我们明天再排查一下。',
  '这周末要搬家，搬进新房子之后请大家来吃火锅。',
  '南京市长江大桥上车水马龙。',
  '结婚的和尚未结婚的都来了。',
  '我爱喝咖啡，尤其是手冲的埃塞俄比亚耶加雪菲。',
  '工信处女干事每月经过下属科室都要亲口交代二十四口交换机等技术性器件的安装工作。',
  '永和服装饰品有限公司的张三丰说今天不上班。',
  '东京の天気は晴れです。',
  '서울의 날씨가 좋습니다',
  '买',
  '卖书',
  '一',
  '葡萄牙语和西班牙语哪个更难学？我觉得都不容易。',
  '他的微信名叫做“奶茶三分糖去冰”，真的绝绝子。',
];

/** jieba's search-mode cut of `run` with the small dictionary for it. */
function smallCut(run: string): string[] {
  const dict = jiebaDictionaryFor(run);
  expect(dict, 'the build writes dist/core/jieba-lexicon.txt (npm run build)').toBeDefined();
  return Jieba.withDict(dict!).cutForSearch(run, true);
}

const runsOf = (texts: readonly string[]) => texts.flatMap((t) => splitCjk(t).filter((p) => p.cjk).map((p) => p.text));

describe('a dictionary of a text’s own words', () => {
  it('cuts as jieba’s whole dictionary does, on sentences and on random runs of their characters', () => {
    const whole = getJieba();
    const runs = runsOf(SENTENCES);
    const chars = [...new Set(runs.join(''))];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let k = 0; k < 300; k++) runs.push(Array.from({ length: 1 + Math.floor(next() * 24) }, () => chars[Math.floor(next() * chars.length)]!).join(''));
    for (const run of runs) expect(smallCut(run), run).toEqual(whole.cutForSearch(run, true));
  });

  it('needs the entry that carries the rest of the frequencies: without it, some sentences cut otherwise', () => {
    const whole = getJieba();
    const withoutRest = (run: string) =>
      Jieba.withDict(Buffer.from(jiebaDictionaryFor(run)!.toString('utf8').split('\n').filter((l) => l !== '' && !l.startsWith('\uE000')).join('\n'))).cutForSearch(run, true);
    const differ = runsOf(SENTENCES).filter((run) => withoutRest(run).join('|') !== whole.cutForSearch(run, true).join('|'));
    expect(differ.length).toBeGreaterThan(0);
  });

  const madial = new URL('../../../shared/data/madial-zh/dialogue.json', import.meta.url);
  it.skipIf(!existsSync(madial))('cuts every Chinese run of the real MADial-Bench chats as the whole dictionary does', () => {
    const whole = getJieba();
    const texts: string[] = [];
    const walk = (x: unknown): void => {
      if (typeof x === 'string') texts.push(x);
      else if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object') Object.values(x).forEach(walk);
    };
    walk(JSON.parse(readFileSync(madial, 'utf8')));
    const runs = [...new Set(runsOf(texts))];
    expect(runs.length).toBeGreaterThan(1000);
    const differ = runs.filter((run) => smallCut(run).join('|') !== whole.cutForSearch(run, true).join('|'));
    expect(differ).toEqual([]);
  });
});

describe('segmentation in a process', () => {
  it('cuts a prompt without building the whole dictionary, and builds it once the process has cut much more', async () => {
    // A fresh copy of the module: the tests above built the whole dictionary in this one.
    vi.resetModules();
    const fresh = await import('./segment-text.js');
    expect(fresh.wholeDictionaryLoaded()).toBe(false);
    const prompt = '你还记得老王养的猫叫什么吗？我上周在北京大学附近的咖啡馆见了他';
    const indexed = fresh.segmentForIndex(prompt);
    const asked = fresh.cjkWords('你还记得老王养的猫叫什么吗');
    expect(fresh.wholeDictionaryLoaded()).toBe(false);
    // The same words as with the whole dictionary (this file's first copy of the module has it).
    expect(wholeDictionaryLoaded()).toBe(true);
    expect(indexed).toBe(segmentForIndex(prompt));
    expect(asked).toEqual(cjkWords('你还记得老王养的猫叫什么吗'));
    const long = runsOf(SENTENCES).join('');
    for (let n = 0; n * long.length < 25_000; n++) fresh.cjkWords(long);
    expect(fresh.wholeDictionaryLoaded()).toBe(true);
    expect(fresh.cjkWords(long)).toEqual(cjkWords(long));
  });
});
