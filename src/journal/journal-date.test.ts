import { describe, expect, it } from 'vitest';
import {
  addDays,
  assertJournalDate,
  dayInZone,
  daysBetween,
  isClockTime,
  isJournalDate,
  timeInZone,
  zonedEpoch,
} from './journal-date.js';

describe('journal dates', () => {
  it.each([
    ['2026-10-29', true],
    ['2024-02-29', true],
    ['2026-02-29', false],
    ['2026-02-30', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['../../etc/passwd', false],
    ['/etc/passwd', false],
    ['2026-10-29.md', false],
    ['2026-10-29/../x', false],
  ])('accepts only real YYYY-MM-DD dates: %s → %s', (s, ok) => {
    expect(isJournalDate(s)).toBe(ok);
  });

  it('throws invalid_input naming the field for a path posing as a date', () => {
    expect(() => assertJournalDate('../x', 'date')).toThrow(
      expect.objectContaining({ code: 'invalid_input', field: 'date' }),
    );
  });

  it('counts whole days across month, year and leap boundaries', () => {
    expect(daysBetween('2026-10-29', '2026-11-05')).toBe(7);
    expect(daysBetween('2025-12-31', '2026-01-01')).toBe(1);
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2026-11-05', '2026-10-29')).toBe(-7);
    expect(addDays('2026-11-05', -90)).toBe('2026-08-07');
  });

  it('gives the day and time of an instant in a zone', () => {
    const ms = Date.parse('2026-11-05T23:30:00Z');
    expect(dayInZone(ms, 'UTC')).toBe('2026-11-05');
    expect(dayInZone(ms, 'Asia/Shanghai')).toBe('2026-11-06');
    expect(timeInZone(ms, 'Asia/Shanghai')).toBe('07:30');
    expect(isClockTime('07:30')).toBe(true);
    expect(isClockTime('24:00')).toBe(false);
  });

  it('converts a wall-clock day and time in a zone back to epoch ms', () => {
    expect(zonedEpoch('2026-11-06', '07:30', 'Asia/Shanghai')).toBe(Date.parse('2026-11-05T23:30:00Z'));
    expect(zonedEpoch('2026-07-01', '12:00', 'Europe/Berlin')).toBe(Date.parse('2026-07-01T10:00:00Z'));
    expect(zonedEpoch('2026-01-01', '00:00', 'UTC')).toBe(Date.parse('2026-01-01T00:00:00Z'));
  });

  it('refuses an unknown time zone', () => {
    expect(() => dayInZone(0, 'Mars/Olympus')).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });
});
