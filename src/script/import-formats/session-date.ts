// Parses LoCoMo session timestamps ("1:56 pm on 8 May, 2023", "2023年5月8日 下午1:56", ISO 8601) into epoch ms, UTC.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Chinese day-part words that shift a 12-hour clock into the afternoon or evening. */
const CJK_PM = /(下午|晚上|傍晚|中午)/u;
const CJK_AM = /(上午|早上|凌晨|清晨)/u;

interface DayParts {
  readonly y: number;
  readonly m: number;
  readonly d: number;
}

function findDay(text: string): DayParts | undefined {
  const iso = /(\d{4})-(\d{2})-(\d{2})/u.exec(text);
  if (iso) return { y: Number(iso[1]), m: Number(iso[2]), d: Number(iso[3]) };
  const cjk = /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]/u.exec(text);
  if (cjk) return { y: Number(cjk[1]), m: Number(cjk[2]), d: Number(cjk[3]) };
  const dayMonth = /(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,})\.?,?\s+(\d{4})/u.exec(text);
  if (dayMonth) {
    const m = monthOf(dayMonth[2] as string);
    if (m !== undefined) return { y: Number(dayMonth[3]), m, d: Number(dayMonth[1]) };
  }
  const monthDay = /([A-Za-z]{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})/u.exec(text);
  if (monthDay) {
    const m = monthOf(monthDay[1] as string);
    if (m !== undefined) return { y: Number(monthDay[3]), m, d: Number(monthDay[2]) };
  }
  return undefined;
}

function monthOf(word: string): number | undefined {
  const i = MONTHS.indexOf(word.slice(0, 3).toLowerCase());
  return i < 0 ? undefined : i + 1;
}

function findTime(text: string): { h: number; min: number; s: number } | undefined {
  const t = /(\d{1,2})\s*[:：]\s*(\d{2})(?:\s*[:：]\s*(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?/iu.exec(text);
  if (!t) return undefined;
  let h = Number(t[1]);
  const suffix = (t[4] ?? '').toLowerCase().replace(/\./gu, '');
  const pm = suffix === 'pm' || (suffix === '' && CJK_PM.test(text));
  const am = suffix === 'am' || (suffix === '' && CJK_AM.test(text));
  if (pm && h < 12) h += 12;
  if (am && h === 12) h = 0;
  return { h, min: Number(t[2]), s: Number(t[3] ?? 0) };
}

/**
 * Epoch milliseconds (UTC) of a session's date/time text, or undefined when no calendar date can be
 * found. LoCoMo times carry no zone; they are read as UTC so that every run gives the same numbers.
 * @example parseSessionDate('1:56 pm on 8 May, 2023') // Date.UTC(2023, 4, 8, 13, 56)
 */
export function parseSessionDate(text: string): number | undefined {
  // A full ISO timestamp with zone is taken as written.
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/u.test(text.trim())) {
    const ms = Date.parse(text.trim());
    return Number.isNaN(ms) ? undefined : ms;
  }
  const day = findDay(text);
  if (!day) return undefined;
  // The time regex must not see the date's own digits ("2023-05-08" has no colon, so it is safe).
  const time = findTime(text) ?? { h: 0, min: 0, s: 0 };
  if (day.m < 1 || day.m > 12 || time.h > 23 || time.min > 59 || time.s > 59) return undefined;
  const ms = Date.UTC(day.y, day.m - 1, day.d, time.h, time.min, time.s);
  // Reject 31 June and the like instead of rolling over into the next month.
  if (new Date(ms).getUTCDate() !== day.d) return undefined;
  return ms;
}
