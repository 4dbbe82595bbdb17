/** Parsing and appending the markdown of day files and MEMORY.md: `##` sections whose headings carry a time. */
import { isClockTime } from './journal-date.js';

/** One `## ` section of a markdown file. */
export interface DaySection {
  /** Heading text after `## `, trimmed. */
  heading: string;
  /** `HH:MM` when the heading carries a time (`【14:30 …】`, `[14:30 …]` or `14:30 …`). */
  time: string | undefined;
  /** The heading without its time and brackets. */
  title: string;
  /** 1-based line of the heading. */
  line: number;
  /** The body: the lines up to the next `## ` heading, without leading and trailing blank lines. */
  body: string;
  /** Number of lines in `body` (0 when empty). */
  bodyLines: number;
}

/** A parsed markdown file. */
export interface ParsedDayFile {
  /** Text of the first `# ` heading before any section, if any. */
  title: string | undefined;
  sections: DaySection[];
}

const FENCE_RE = /^\s{0,3}(```|~~~)/;
const H2_RE = /^##(?!#)(?:[ \t]+(.*?))?[ \t]*$/;
const H1_RE = /^#(?!#)\s+(.*?)\s*$/;
// 【14:30 title】 (the seed's convention, SEEDS §2.3), or the ASCII forms agents often write instead.
const TIMED_RE = /^(?:【\s*|\[\s*)?(\d{1,2}):(\d{2})(?=[\s】\]]|$)\s*(.*?)\s*[】\]]?\s*$/;

/** Splits text into lines without their `\n` or `\r\n`. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Reads the time and title out of a section heading. */
export function parseHeadingTime(heading: string): { time: string | undefined; title: string } {
  const m = TIMED_RE.exec(heading.trim());
  if (m) {
    const time = `${m[1]!.padStart(2, '0')}:${m[2]}`;
    if (isClockTime(time)) return { time, title: m[3] ?? '' };
  }
  return { time: undefined, title: heading.trim() };
}

/** Parses `##` sections, ignoring headings inside fenced code blocks. */
export function parseDayFile(text: string): ParsedDayFile {
  const lines = splitLines(text);
  const sections: DaySection[] = [];
  let title: string | undefined;
  let inFence = false;
  let current: { heading: string; line: number; body: string[] } | undefined;
  const close = () => {
    if (!current) return;
    const body = trimBlank(current.body);
    const { time, title: t } = parseHeadingTime(current.heading);
    sections.push({
      heading: current.heading,
      time,
      title: t,
      line: current.line,
      body: body.join('\n'),
      bodyLines: body.length,
    });
  };
  lines.forEach((line, i) => {
    if (FENCE_RE.test(line)) inFence = !inFence;
    const h2 = inFence ? null : H2_RE.exec(line);
    if (h2) {
      close();
      current = { heading: h2[1] ?? '', line: i + 1, body: [] };
      return;
    }
    if (current) current.body.push(line);
    else if (title === undefined && !inFence) {
      const h1 = H1_RE.exec(line);
      if (h1) title = h1[1];
    }
  });
  close();
  return { title, sections };
}

function trimBlank(lines: string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a]!.trim() === '') a++;
  while (b > a && lines[b - 1]!.trim() === '') b--;
  return lines.slice(a, b);
}

/** The body with HTML comments removed: what a reader would see. Skeleton sections hold only comments. */
export function visibleText(body: string): string {
  return body.replace(/<!--[\s\S]*?-->/g, '').trim();
}

/** The canonical section heading line written by `add`: `## 【14:30 what was done】` (SEEDS §2.3). */
export function formatSectionHeading(time: string, title: string): string {
  return `## 【${time} ${title.trim()}】`;
}

/** True when `body` has a line that would start a new `#` or `##` section and so split the one being added. */
export function hasTopLevelHeading(body: string): boolean {
  let inFence = false;
  for (const line of splitLines(body)) {
    if (FENCE_RE.test(line)) inFence = !inFence;
    else if (!inFence && /^#{1,2}(?!#)(\s|$)/.test(line)) return true;
  }
  return false;
}

/**
 * Appends a section to a day file's text without changing any existing byte, except a missing final newline.
 * A new file starts with `# YYYY-MM-DD`. Returns the new text and the 1-based line of the new heading.
 */
export function appendSection(
  existing: string | undefined,
  date: string,
  headingLine: string,
  body: string,
): {
  text: string;
  line: number;
} {
  let text = existing === undefined || existing === '' ? `# ${date}\n` : existing;
  if (!text.endsWith('\n')) text += '\n';
  if (!text.endsWith('\n\n')) text += '\n';
  const line = text.split('\n').length;
  const cleanBody = body.replace(/\r\n/g, '\n').replace(/\s+$/, '');
  text += `${headingLine}\n${cleanBody === '' ? '' : `${cleanBody}\n`}`;
  return { text, line };
}
