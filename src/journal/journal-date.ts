/** Calendar days and clock times of the journal: real `YYYY-MM-DD` dates, day arithmetic, days and times in a zone. */
import { TidepoolError } from '../core/errors.js';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DAY_MS = 86_400_000;

/** True when `s` is a real calendar date written `YYYY-MM-DD` (so `2026-02-30` and `../x` are not). */
export function isJournalDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** Throws `invalid_input` unless `s` is a real `YYYY-MM-DD` date; `field` names the input. */
export function assertJournalDate(s: string, field = 'date'): string {
  if (!isJournalDate(s)) {
    throw new TidepoolError('invalid_input', `${field}: expected a real date YYYY-MM-DD`, { field });
  }
  return s;
}

/** True when `s` is a clock time `HH:MM` (00:00-23:59). */
export function isClockTime(s: string): boolean {
  return TIME_RE.test(s);
}

function dayIndex(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / DAY_MS);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return dayIndex(to) - dayIndex(from);
}

/** The date `n` days after `date` (negative `n` goes back). */
export function addDays(date: string, n: number): string {
  return new Date((dayIndex(date) + n) * DAY_MS).toISOString().slice(0, 10);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      });
    } catch (cause) {
      throw new TidepoolError('invalid_input', `timeZone: unknown time zone ${timeZone}`, {
        field: 'timeZone',
        cause,
      });
    }
    formatters.set(timeZone, f);
  }
  return f;
}

function wallClock(ms: number, timeZone: string): { date: string; time: string; asUtc: number } {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(ms)) parts[p.type] = p.value;
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const time = `${parts.hour}:${parts.minute}`;
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return { date, time, asUtc };
}

/** Throws `invalid_input` unless `timeZone` is an IANA zone this runtime knows. */
export function assertTimeZone(timeZone: string): string {
  formatter(timeZone);
  return timeZone;
}

/** The calendar day of epoch `ms` in `timeZone` (`UTC` gives the UTC day). */
export function dayInZone(ms: number, timeZone: string): string {
  return wallClock(ms, timeZone).date;
}

/** The wall-clock time `HH:MM` of epoch `ms` in `timeZone`. */
export function timeInZone(ms: number, timeZone: string): string {
  return wallClock(ms, timeZone).time;
}

/** Epoch ms of the wall-clock `date` + `time` in `timeZone` (the earlier instant when a clock change repeats it). */
export function zonedEpoch(date: string, time: string, timeZone: string): number {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const guess = Date.UTC(y, mo - 1, d, h, mi);
  const offset = (ms: number) => wallClock(ms, timeZone).asUtc - Math.floor(ms / 1000) * 1000;
  const first = guess - offset(guess);
  const second = guess - offset(first);
  return Math.min(first, second);
}
