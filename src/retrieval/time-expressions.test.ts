import { describe, expect, it } from 'vitest';
import { asksWhen, inWindows, queryTime, saysWhen, toldOf } from './time-expressions.js';

const NOW = Date.UTC(2024, 0, 10, 9); // 10 January 2024
const day = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d, 12);

describe('queryTime', () => {
  it('reads an English date as that day, and takes its words out of the query', () => {
    const t = queryTime('What painting did Melanie show to Caroline on October 13, 2023?', NOW);
    expect(t.windows).toHaveLength(1);
    expect(inWindows(t.windows, day(2023, 10, 13))).toBe(true);
    expect(inWindows(t.windows, day(2023, 10, 15))).toBe(false);
    expect(inWindows(t.windows, day(2024, 10, 13))).toBe(false);
    expect(t.rest).not.toMatch(/October|13|2023/);
    expect(t.rest).toContain('painting');
  });

  it('keeps the line breaks of a query of several lines (a conversation), collapsing only spaces', () => {
    const t = queryTime('A:  2023年5月3日我们去了海边\nB: 真好   玩\n\nA: 我还想再去', NOW);
    expect(t.windows.length).toBeGreaterThan(0);
    expect(t.rest.split('\n')).toEqual(['A: 我们去了海边', 'B: 真好 玩', 'A: 我还想再去']);
  });

  it('reads day-month-year and month-year forms', () => {
    expect(inWindows(queryTime('What did Gina find on 1 February, 2023?', NOW).windows, day(2023, 2, 1))).toBe(true);
    const dec = queryTime('What class did Maria start in December 2023?', NOW).windows;
    expect(inWindows(dec, day(2023, 12, 1))).toBe(true);
    expect(inWindows(dec, day(2023, 12, 31))).toBe(true);
    expect(inWindows(dec, day(2024, 1, 5))).toBe(false);
  });

  it('takes a month without a year as the latest one begun by now', () => {
    const june = queryTime('When did Melanie go camping in June?', NOW).windows;
    expect(inWindows(june, day(2023, 6, 20))).toBe(true);
    expect(inWindows(june, day(2022, 6, 20))).toBe(false);
    const jan = queryTime('what did we plan in January?', NOW).windows;
    expect(inWindows(jan, day(2024, 1, 3))).toBe(true);
  });

  it('lets a year said once hold for the dates around it', () => {
    const w = queryTime('What did John do between May 3 and May 10, 2023?', NOW).windows;
    expect(inWindows(w, day(2023, 5, 3))).toBe(true);
    expect(inWindows(w, day(2023, 5, 10))).toBe(true);
  });

  it('counts relative expressions back from now', () => {
    const yesterday = queryTime('what did we discuss yesterday?', NOW);
    expect(inWindows(yesterday.windows, day(2024, 1, 9))).toBe(true);
    expect(yesterday.rest).toContain('yesterday'); // a relative word may be what the text itself says
    const lastWeek = queryTime('where did she go last week?', NOW).windows;
    expect(inWindows(lastWeek, day(2024, 1, 3))).toBe(true);
    expect(inWindows(lastWeek, day(2023, 12, 20))).toBe(false);
  });

  it('reads a bare year only after a preposition', () => {
    const w = queryTime('How many times has Melanie gone to the beach in 2023?', NOW);
    expect(inWindows(w.windows, day(2023, 7, 1))).toBe(true);
    expect(inWindows(w.windows, day(2024, 1, 2))).toBe(false);
    expect(queryTime('error 2023 in the parser', NOW).windows).toEqual([]);
  });

  it('narrows or moves a window by the words before its date', () => {
    const second = queryTime('Which country was Tim visiting in the second week of November 2023?', NOW).windows;
    expect(inWindows(second, day(2023, 11, 10))).toBe(true);
    expect(inWindows(second, day(2023, 11, 3))).toBe(false);
    expect(inWindows(second, day(2023, 11, 25))).toBe(false);
    const early = queryTime('Which tournament did Nate win in the beginning of November 2022?', NOW);
    expect(inWindows(early.windows, day(2022, 11, 4))).toBe(true);
    expect(inWindows(early.windows, day(2022, 11, 20))).toBe(false);
    expect(early.rest).not.toMatch(/beginning/);
    const late = queryTime('What did she do in late June 2023?', NOW).windows;
    expect(inWindows(late, day(2023, 6, 27))).toBe(true);
    expect(inWindows(late, day(2023, 6, 5))).toBe(false);
    const before = queryTime('Where was Tim in the week before 16 November 2023?', NOW).windows;
    expect(inWindows(before, day(2023, 11, 10))).toBe(true);
    expect(inWindows(before, day(2023, 11, 20))).toBe(false);
  });

  it('reads "between … and …" and "从…到…" as one range, and two dates joined otherwise as two days', () => {
    const between = queryTime('Where was John between August 11 and August 15 2023?', NOW);
    expect(between.windows).toHaveLength(1);
    for (const d of [11, 13, 15]) expect(inWindows(between.windows, day(2023, 8, d))).toBe(true);
    expect(inWindows(between.windows, day(2023, 8, 17))).toBe(false);
    expect(between.rest).not.toMatch(/August|11|15/);
    const zh = queryTime('约翰从2023年8月11日到8月15日在哪里？', NOW).windows;
    expect(zh).toHaveLength(1);
    expect(inWindows(zh, day(2023, 8, 13))).toBe(true);
    const two = queryTime('What happened on May 3 and May 10, 2023?', NOW).windows;
    expect(two).toHaveLength(2);
    expect(inWindows(two, day(2023, 5, 6))).toBe(false);
  });

  it('reads Chinese relative spans as English ones are read', () => {
    const thu = Date.UTC(2023, 4, 4, 12); // Thursday 4 May 2023
    const span = (q: string) => queryTime(q, thu).windows;
    expect(inWindows(span('我上周去了哪里？'), day(2023, 4, 27))).toBe(true);
    expect(inWindows(span('我上周去了哪里？'), day(2023, 5, 3))).toBe(false);
    expect(inWindows(span('上个月我们讨论了什么'), day(2023, 4, 15))).toBe(true);
    expect(inWindows(span('上个月我们讨论了什么'), day(2023, 5, 2))).toBe(false);
    expect(inWindows(span('去年她在哪里工作'), day(2022, 7, 1))).toBe(true);
    expect(inWindows(span('三天前买了什么'), day(2023, 5, 1))).toBe(true);
    expect(inWindows(span('两周前见了谁'), day(2023, 4, 20))).toBe(true);
    expect(inWindows(span('两个月前搬家了吗'), day(2023, 3, 10))).toBe(true);
    const weekend = span('上周末做了什么？');
    expect(inWindows(weekend, day(2023, 4, 29)) && inWindows(weekend, day(2023, 4, 30))).toBe(true);
    expect(inWindows(weekend, day(2023, 4, 26))).toBe(false);
    // English says the same spans the same way.
    expect(inWindows(queryTime('What did we discuss last month?', thu).windows, day(2023, 4, 15))).toBe(true);
  });

  it('reads Chinese dates', () => {
    const t = queryTime('梅兰妮在2023年10月13日给卡罗琳看了哪幅画？', NOW);
    expect(inWindows(t.windows, day(2023, 10, 13))).toBe(true);
    expect(t.rest).not.toContain('2023');
    expect(inWindows(queryTime('她六月去露营了吗？', NOW).windows, day(2023, 6, 10))).toBe(true);
    expect(inWindows(queryTime('2023年她去了哪里', NOW).windows, day(2023, 3, 1))).toBe(true);
  });

  it('leaves text without a time expression alone', () => {
    for (const q of ['May I ask what Jon likes?', 'I need 5 apples', 'What is the launch code?']) {
      expect(queryTime(q, NOW)).toEqual({ windows: [], rest: q });
    }
  });
});

describe('when questions', () => {
  it('recognises questions about time in English and Chinese', () => {
    for (const q of ['When did Melanie paint a sunrise?', 'what year did they marry', '她什么时候去的巴黎？', '你哪天到的']) expect(asksWhen(q)).toBe(true);
    for (const q of ['What did Melanie paint?', 'Where is the key?', '她去了哪里？']) expect(asksWhen(q)).toBe(false);
  });

  it('recognises texts that say when', () => {
    for (const t of ['I painted that lake sunrise last year!', 'We went camping yesterday', 'on the 15th after my trip', '我上周去了巴黎', '三天前到的']) {
      expect(saysWhen(t)).toBe(true);
    }
    for (const t of ['I love painting sunsets.', 'Thanks, Caroline!', '我喜欢画画']) expect(saysWhen(t)).toBe(false);
  });
});

describe('toldOf', () => {
  const WEEK = 7 * 86_400_000;
  const novWeek2 = queryTime('Which country was Tim visiting in the second week of November 2023?', NOW).windows;

  it('counts a turn said after the window whose own time words, read as of then, land inside it', () => {
    // Thursday 16 November 2023: "last Friday" is the 10th, inside the second week.
    expect(inWindows(novWeek2, day(2023, 11, 16))).toBe(false);
    expect(toldOf(novWeek2, 'I went to a castle during my trip to the UK last Friday!', day(2023, 11, 16), WEEK)).toBe(true);
    // Monday 20 November: "yesterday" is the 19th, after the window.
    expect(toldOf(novWeek2, 'We went to the castle yesterday', day(2023, 11, 20), WEEK)).toBe(false);
    expect(toldOf(novWeek2, 'We went to the castle last week', day(2023, 11, 20), WEEK)).toBe(true);
    expect(toldOf(novWeek2, 'I went to a castle during my trip to the UK!', day(2023, 11, 16), WEEK)).toBe(false);
  });

  it('reaches a week after the window, or the window\'s own length when longer', () => {
    expect(toldOf(novWeek2, 'two weeks ago I was in the UK', day(2023, 12, 2), WEEK)).toBe(false); // past the reach
    const march = queryTime('What did John attend in March 2023?', NOW).windows;
    expect(toldOf(march, 'My colleagues and I went to a convention last month.', day(2023, 4, 18), WEEK)).toBe(true);
    expect(toldOf(march, 'My colleagues and I went to a convention last month.', day(2023, 4, 18), 0)).toBe(false);
    expect(toldOf(march, 'We went to a convention last week.', day(2023, 4, 18), WEEK)).toBe(false);
  });

  it('reads Chinese time words as of when they were said', () => {
    const may3 = queryTime('玛丽亚2023年5月3日和谁吃了晚饭？', NOW).windows;
    const evening = Date.UTC(2023, 4, 4, 20);
    expect(toldOf(may3, '我昨天和妈妈吃了晚饭', evening, WEEK)).toBe(true);
    expect(toldOf(may3, '我和妈妈吃了晚饭', evening, WEEK)).toBe(false);
    expect(toldOf(may3, '我前天和妈妈吃了晚饭', Date.UTC(2023, 4, 5, 20), WEEK)).toBe(true);
    expect(toldOf(may3, '三天前和妈妈吃了晚饭', Date.UTC(2023, 4, 6, 20), WEEK)).toBe(true);
    const march = queryTime('约翰2023年3月和同事参加了什么？', NOW).windows;
    expect(toldOf(march, '上个月我和同事去参加了一个大会', day(2023, 4, 18), WEEK)).toBe(true);
  });
});
