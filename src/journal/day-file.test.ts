import { describe, expect, it } from 'vitest';
import {
  appendSection,
  hasTopLevelHeading,
  parseDayFile,
  parseHeadingTime,
  visibleText,
} from './day-file.js';

describe('day files', () => {
  it('parses ## sections with times, skipping headings inside code fences', () => {
    const text =
      '# 2026-11-05\n\n## 【09:05 planned】\nline a\n\n```\n## not a heading\n```\n\n## untimed\n\n\n## [7:15 early]\nx\n';
    const { title, sections } = parseDayFile(text);
    expect(title).toBe('2026-11-05');
    expect(sections.map((s) => [s.heading, s.time, s.title, s.line, s.bodyLines])).toEqual([
      ['【09:05 planned】', '09:05', 'planned', 3, 5],
      ['untimed', undefined, 'untimed', 10, 0],
      ['[7:15 early]', '07:15', 'early', 13, 1],
    ]);
  });

  it.each([
    ['【14:30 干了什么】', '14:30', '干了什么'],
    ['【 9:00 早会】', '09:00', '早会'],
    ['14:30 wrote tests', '14:30', 'wrote tests'],
    ['[23:59 late]', '23:59', 'late'],
    ['wrote tests at 14:30', undefined, 'wrote tests at 14:30'],
    ['【25:00 nope】', undefined, '【25:00 nope】'],
  ])('reads the time of heading %s', (heading, time, title) => {
    expect(parseHeadingTime(heading)).toEqual({ time, title });
  });

  it('appends without changing existing bytes and reports the heading line', () => {
    const first = appendSection(undefined, '2026-11-05', '## 【09:00 a】', 'body a');
    expect(first).toEqual({ text: '# 2026-11-05\n\n## 【09:00 a】\nbody a\n', line: 3 });
    const second = appendSection(first.text, '2026-11-05', '## 【10:00 b】', 'body b\n\n');
    expect(second.text.startsWith(first.text)).toBe(true);
    expect(second.text.slice(first.text.length)).toBe('\n## 【10:00 b】\nbody b\n');
    expect(second.line).toBe(6);
    const noNewline = appendSection('# d\ntext', 'd', '## 【11:00 c】', 'c');
    expect(noNewline.text).toBe('# d\ntext\n\n## 【11:00 c】\nc\n');
    expect(noNewline.text.split('\n')[noNewline.line - 1]).toBe('## 【11:00 c】');
  });

  it('treats a body of HTML comments as empty and spots headings that would split a section', () => {
    expect(visibleText('<!-- what goes here -->\n')).toBe('');
    expect(hasTopLevelHeading('text\n## oops')).toBe(true);
    expect(hasTopLevelHeading('text\n### fine\n```\n# in code\n```')).toBe(false);
  });
});
