import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../core/clock.js';
import { relativeTime } from './relative-time.js';

const NOW = Date.UTC(2026, 10, 1, 12);

describe('relativeTime', () => {
  it.each([
    [0, 'today', '今天'],
    [0.4, 'today', '今天'],
    [1, 'yesterday', '昨天'],
    [3, '3 days ago', '3天前'],
    [6, '6 days ago', '6天前'],
    [7, 'last week', '上周'],
    [13, 'last week', '上周'],
    [14, '2 weeks ago', '2周前'],
    [29, '4 weeks ago', '4周前'],
    [30, 'last month', '上个月'],
    [59, 'last month', '上个月'],
    [60, '2 months ago', '2个月前'],
    [400, '13 months ago', '13个月前'],
  ])('labels %s days ago as "%s" / "%s" (SEEDS §1.6 bands)', (days, en, zh) => {
    expect(relativeTime(NOW - days * DAY_MS, NOW)).toBe(en);
    expect(relativeTime(NOW - days * DAY_MS, NOW, 'zh')).toBe(zh);
  });

  it('counts calendar days: 21 hours ago at noon is yesterday, not today', () => {
    expect(relativeTime(NOW - 0.9 * DAY_MS, NOW)).toBe('yesterday');
    expect(relativeTime(Date.UTC(2026, 9, 31, 23), Date.UTC(2026, 10, 1, 9))).toBe('yesterday');
    expect(relativeTime(Date.UTC(2026, 10, 1, 0, 5), Date.UTC(2026, 10, 1, 23))).toBe('today');
  });

  it('reads a time in the future as today', () => {
    expect(relativeTime(NOW + DAY_MS, NOW)).toBe('today');
  });
});
