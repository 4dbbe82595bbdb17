/**
 * Time expressions in a query ("on 13 October, 2023", "in June", "2023年5月3日", "yesterday") become time windows
 * that recall searches inside and boosts, with chrono-node parsing English and Chinese.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as chrono from 'chrono-node';
import { hasCjk } from '../script/segment-text.js';

/** A span of time a query names. */
export interface TimeWindow {
  readonly start: number;
  readonly end: number;
}

/** The windows a query names and the query with their words taken out. */
export interface QueryTime {
  readonly windows: readonly TimeWindow[];
  /** The query without the time words, so "October" or "2023" does not match every text that says it. */
  readonly rest: string;
}

/** Half a day either side of a named day or month: the memory's clock and the asker's may be in different zones. */
const SLACK_MS = 14 * 3_600_000;
const DAY_MS = 86_400_000;

/** A date written out (a number or a month's name), as opposed to a relative one. */
const ABSOLUTE = /\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|[〇零一二三四五六七八九十两]+\s*[年月日号]/iu;

/** A bare year ("in 2023", "2023年") chrono does not read on its own. */
const BARE_YEAR = /(?:\b(?:in|during|of|since)\s+((?:19|20)\d\d)\b|((?:19|20)\d\d)\s*年(?!\s*\d))/giu;

/** Relative spans chrono reads as one day ("last week" = the day a week ago) that mean a wider window. */
const WEEK_WORD = /week|周|星期|禮拜|礼拜/iu;

/** The month, of the latest year in which it has begun by `now` ("in June" said in May means last June). */
function latestMonth(month: number, now: number): TimeWindow {
  const d = new Date(now);
  const year = Date.UTC(d.getUTCFullYear(), month - 1, 1) <= now ? d.getUTCFullYear() : d.getUTCFullYear() - 1;
  return { start: Date.UTC(year, month - 1, 1) - SLACK_MS, end: Date.UTC(year, month, 1) + SLACK_MS };
}

function windowOf(c: chrono.ParsedComponents, text: string, sayYear: number | undefined, now: number): TimeWindow | undefined {
  const known = (k: chrono.Component): boolean => c.isCertain(k);
  const month = c.get('month');
  const year = !known('year') && known('month') && sayYear !== undefined ? sayYear : c.get('year');
  const day = c.get('day');
  if (month === null || year === null || day === null) return undefined;
  if (WEEK_WORD.test(text)) {
    const mid = Date.UTC(year, month - 1, day);
    return { start: mid - 4 * DAY_MS, end: mid + 4 * DAY_MS };
  }
  if (known('day') && (known('month') || !known('weekday'))) {
    const start = Date.UTC(year, month - 1, day);
    return { start: start - SLACK_MS, end: start + DAY_MS + SLACK_MS };
  }
  if (known('month') && known('year')) {
    return { start: Date.UTC(year, month - 1, 1) - SLACK_MS, end: Date.UTC(year, month, 1) + SLACK_MS };
  }
  if (known('month')) return latestMonth(month, now);
  if (known('weekday')) {
    // "last weekend", "on Monday": the implied day, give or take the weekend.
    const start = Date.UTC(year, month - 1, day);
    return { start: start - DAY_MS - SLACK_MS, end: start + 2 * DAY_MS + SLACK_MS };
  }
  return undefined;
}

/** Something chrono could read as time: a digit, a time word or a CJK date character. Others skip the parser. */
const TIMEISH = new RegExp(
  '\\d|[年月日号周天昨今明前后星期礼拜]|\\b(?:yesterday|today|tonight|tomorrow|ago|last|next|this|past|since|weekends?|' +
    '(?:day|night|week|month|year|hour|minute)s?|morning|evening|afternoon|noon|midnight|' +
    '(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|' +
    'june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\b',
  'iu',
);

const WEEK_OF = /(?:the\s+)?(first|1st|second|2nd|third|3rd|fourth|4th|last)\s+week\s+of\s+$/iu;
const WEEK_BEFORE = /(?:the\s+)?(?:week|days)\s+(?:before|prior\s+to)\s+$/iu;
const WEEK_AFTER = /(?:the\s+)?(?:week|days)\s+(?:after|following)\s+$/iu;
const PART_OF = /(?:(?:in\s+)?the\s+)?(beginning|start|early\s+part|middle|end)\s+of\s+$|\b(early|mid|late)[\s-]+$/iu;

/**
 * Narrows or moves a window by the words just before its date: "the week before 16 November", "the second week of
 * November", "the beginning of May", "late June". Returns the words it read, to take them out of the query too.
 */
function refine(w: TimeWindow, before: string): { window: TimeWindow; said: string } {
  const span = w.end - w.start;
  const m =
    WEEK_OF.exec(before) ?? WEEK_BEFORE.exec(before) ?? WEEK_AFTER.exec(before) ?? PART_OF.exec(before);
  if (!m) return { window: w, said: '' };
  const said = m[0];
  const mid = w.start + SLACK_MS;
  if (WEEK_BEFORE.test(said)) return { window: { start: mid - 8 * DAY_MS, end: mid + DAY_MS }, said };
  if (WEEK_AFTER.test(said)) return { window: { start: mid, end: mid + 8 * DAY_MS }, said };
  if (span < 20 * DAY_MS) return { window: w, said: '' };
  const nth = WEEK_OF.exec(said)?.[1]?.toLowerCase();
  if (nth) {
    const k = nth.startsWith('l') ? -1 : ({ f: 0, '1': 0, s: 1, '2': 1, t: 2, '3': 2 } as Record<string, number>)[nth[0]!] ?? 3;
    const start = k < 0 ? w.end - 8 * DAY_MS : w.start + k * 7 * DAY_MS;
    return { window: { start, end: start + 8 * DAY_MS }, said };
  }
  const part = (m[1] ?? m[2] ?? '').toLowerCase();
  const third = span / 3;
  if (/^(beginning|start|early)/u.test(part)) return { window: { start: w.start, end: w.start + third + DAY_MS }, said };
  if (/^(end|late)/u.test(part)) return { window: { start: w.end - third - DAY_MS, end: w.end }, said };
  return { window: { start: w.start + third - DAY_MS, end: w.end - third + DAY_MS }, said };
}

const ZH_DIGITS: Record<string, number> = { 〇: 0, 零: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** A small count written in digits or Chinese numerals (一 to 九十九). */
function zhCount(s: string): number {
  if (/^\d+$/u.test(s)) return Number(s);
  const [tens, ones] = s.includes('十') ? s.split('十') : ['', s];
  return (s.includes('十') ? (tens ? ZH_DIGITS[tens] ?? 1 : 1) * 10 : 0) + (ones ? ZH_DIGITS[ones] ?? 0 : 0);
}

/** Chinese relative spans chrono's Chinese parser leaves out: 上周, 上个月, 去年, 三天前, 两周前, 上周末. */
const ZH_RELATIVE =
  /(上上?(?:个)?(?:周末|星期|礼拜|周)(?![一二三四五六日天])|上上?个?月|去年|前年|([0-9〇零一二两三四五六七八九十]{1,3})\s*(?:个)?(天|日|周|星期|礼拜|月)前)/gu;

function zhRelativeWindows(text: string, now: number): TimeWindow[] {
  const out: TimeWindow[] = [];
  const d = new Date(now);
  const month = (back: number) => {
    const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1);
    return { start: start - SLACK_MS, end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back + 1, 1) + SLACK_MS };
  };
  const year = (back: number) => ({
    start: Date.UTC(d.getUTCFullYear() - back, 0, 1) - SLACK_MS, end: Date.UTC(d.getUTCFullYear() - back + 1, 0, 1) + SLACK_MS,
  });
  const week = (back: number) => ({ start: now - back * 7 * DAY_MS - 4 * DAY_MS, end: now - back * 7 * DAY_MS + 4 * DAY_MS });
  for (const m of text.matchAll(ZH_RELATIVE)) {
    const w = m[1]!;
    const back = w.startsWith('上上') ? 2 : 1;
    if (m[2] !== undefined) {
      const n = zhCount(m[2]);
      const unit = m[3]!;
      if (unit === '天' || unit === '日') {
        const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - n);
        out.push({ start: day - SLACK_MS, end: day + DAY_MS + SLACK_MS });
      } else out.push(unit === '月' ? month(n) : week(n));
    } else if (w.endsWith('周末')) {
      // The weekend before now: Saturday and Sunday, give or take a day.
      const sat = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 1) % 7 || 7) - (back - 1) * 7);
      out.push({ start: sat - DAY_MS - SLACK_MS, end: sat + 2 * DAY_MS + SLACK_MS });
    } else if (w.endsWith('月')) out.push(month(back));
    else if (w === '去年' || w === '前年') out.push(year(w === '去年' ? 1 : 2));
    else out.push(week(back));
  }
  return out;
}

/** Words that open a range of two dates ("between … and …", "from … to …", "从…到…") and join its ends. */
const RANGE_OPEN = /(?:\b(?:between|from)|从|自|在)\s*$/iu;
const RANGE_JOIN = /^\s*(?:and|to|until|till|through|thru|-|–|—|~|和|与|到|至)\s*$/iu;

/** A chrono-node parser of one language (the English locale's `parse` is the package's own default `parse`). */
type ChronoParser = Pick<typeof chrono, 'parse'>;
let english: ChronoParser | undefined;
let chinese: ChronoParser | undefined;

/**
 * chrono-node's parser for a query, loaded on the first query that looks like it names a time: the English or the
 * Chinese locale alone (a subpath of the package), not the package's root, which loads all sixteen of its locales
 * (~105 against ~30 ms of a fresh process's start-up, English alone; a hook reads every prompt in a new process).
 */
function chronoFor(cjk: boolean): ChronoParser {
  if (cjk) return (chinese ??= loadLocale('zh') as typeof chrono.zh);
  return (english ??= loadLocale('en') as typeof chrono.en);
}

/**
 * A chrono-node locale: from the one file `npm run build` bundles it into (dist/cli/chrono-<locale>.cjs,
 * scripts/bundle-cli.mjs; the same package version's code, ~10 against ~35-50 ms to load, where the package is a
 * hundred small modules), else from the package (a clone run from its sources, a build without the bundling step).
 */
function loadLocale(locale: 'en' | 'zh'): unknown {
  const bundled = new URL(`../cli/chrono-${locale}.cjs`, import.meta.url);
  const load = createRequire(import.meta.url);
  return existsSync(bundled) ? load(fileURLToPath(bundled)) : load(`chrono-node/${locale}`);
}

/** Reads the time expressions of `query`; relative ones ("last week") count back from `now`. */
export function queryTime(query: string, now: number): QueryTime {
  if (!TIMEISH.test(query)) return { windows: [], rest: query };
  const cjk = hasCjk(query);
  const parser = chronoFor(cjk);
  const windows: TimeWindow[] = [];
  let rest = query;
  const parsed = parser.parse(query, { instant: new Date(now), timezone: 0 });
  // "between May 3 and May 10, 2023": a year said once holds for the dates around it.
  const said = parsed.find((r) => r.start.isCertain('year'))?.start.get('year') ?? undefined;
  let previous: { window: TimeWindow; end: number; opensRange: boolean } | undefined;
  for (const r of parsed) {
    const from = windowOf(r.start, r.text, said, now);
    if (!from) continue;
    const to = r.end ? windowOf(r.end, r.text, said, now) : undefined;
    const before = query.slice(0, r.index);
    // "between August 11 and August 15": chrono reads two dates; they are one range.
    if (previous?.opensRange && RANGE_JOIN.test(query.slice(previous.end, r.index)) && from.end > previous.window.start) {
      const range = { start: previous.window.start, end: (to ?? from).end };
      windows[windows.length - 1] = range;
      previous = undefined;
      if (ABSOLUTE.test(r.text)) rest = rest.replace(r.text, ' ');
      continue;
    }
    const refined = refine(to ? { start: from.start, end: to.end } : from, before);
    windows.push(refined.window);
    previous = { window: refined.window, end: r.index + r.text.length, opensRange: !to && RANGE_OPEN.test(before) };
    // A date's words leave the query; relative words ("today", "Friday") may be what the text itself says.
    if (ABSOLUTE.test(r.text)) rest = rest.replace(`${refined.said}${r.text}`, ' ').replace(r.text, ' ');
  }
  if (cjk) windows.push(...zhRelativeWindows(query, now));
  for (const m of rest.matchAll(BARE_YEAR)) {
    const y = Number(m[1] ?? m[2]);
    windows.push({ start: Date.UTC(y, 0, 1) - SLACK_MS, end: Date.UTC(y + 1, 0, 1) + SLACK_MS });
  }
  rest = rest.replace(BARE_YEAR, ' ');
  // Spaces collapse, line breaks stay: a query of several lines is a conversation (`latestLineTerms`, `queryTerms`).
  return { windows, rest: rest.replace(/[^\S\n]+/g, ' ').replace(/ ?\n[\s]*/g, '\n').trim() };
}

/** Whether a time falls inside any of the windows. */
export function inWindows(windows: readonly TimeWindow[], at: number): boolean {
  return windows.some((w) => at >= w.start && at < w.end);
}

/**
 * How long after a window something in it may still be told of: `minMs` (a week: "last Friday", "the other day"),
 * or the window's own length when longer ("last month" is said during the next month).
 */
export function tellingReach(w: TimeWindow, minMs: number): number {
  return minMs > 0 ? Math.max(minMs, w.end - w.start) : 0;
}

/**
 * Whether a text said at `at`, after one of the windows and within its telling reach, tells of something inside
 * it: its own time words ("last week", "yesterday", "on the 15th") read as of when it was said land in the window.
 */
export function toldOf(windows: readonly TimeWindow[], text: string, at: number, minReachMs: number): boolean {
  return mayTellOf(windows, text, at, minReachMs) && landsIn(windows, text, at);
}

/** The costly half of `toldOf`: the text's time words, read as of `at`, name a span overlapping a window. */
export function landsIn(windows: readonly TimeWindow[], text: string, at: number): boolean {
  return queryTime(text, at).windows.some((t) => windows.some((w) => t.start < w.end && t.end > w.start));
}

/** The cheap half of `toldOf`: said within a window's telling reach, and with words that say when. */
export function mayTellOf(windows: readonly TimeWindow[], text: string, at: number, minReachMs: number): boolean {
  return windows.some((w) => at >= w.end && at < w.end + tellingReach(w, minReachMs)) && saysWhen(text);
}

/** A question about when something happened ("When did…", "What year…", "什么时候…"). */
const ASKS_WHEN = /^\s*(?:when\b|what (?:year|month|day|date|time)\b|how long ago\b|since when\b)|(?:什么时候|何时|哪天|哪一天|哪年|哪一年|几月|几号|多久以前)/iu;

/** Words that place a telling in time: the turns that answer a "when" question say them. */
const SAYS_WHEN =
  /\b(?:yesterday|today|tonight|tomorrow|ago|last|next|recently|weekend|week|month|year|since|(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|june|july|august|september|october|november|december|\d{1,2}(?:st|nd|rd|th))\b|(?:昨天|昨晚|今天|今晚|明天|前天|前几天|上周|这周|本周|上个月|去年|前年|最近|周末|星期|礼拜|[0-9一二三四五六七八九十几两]+(?:年|月|日|号|天前|周前|个月前))/iu;

/** Whether the query asks when something happened. */
export function asksWhen(query: string): boolean {
  return ASKS_WHEN.test(query);
}

/** Whether a text says when something happened (a date, a weekday, "last week", "yesterday", "去年"…). */
export function saysWhen(text: string): boolean {
  return SAYS_WHEN.test(text);
}
