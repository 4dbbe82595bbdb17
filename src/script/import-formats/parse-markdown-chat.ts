/** Markdown chat logs (exported ChatGPT/Claude chats, hand-written transcripts) as imported turns. */
import type { ImportedTurn, ParsedTranscript, ParseOptions } from './imported-turn.js';
import { toEpochMs } from './read-json-lines.js';

const ROLE_WORDS: ReadonlyArray<[ImportedTurn['role'], RegExp]> = [
  ['user', /^(user|human|you|me|question|用户|我|人类|提问)$/i],
  [
    'assistant',
    /^(assistant|ai|bot|model|chatgpt|gpt[-\w.]*|claude[-\w. ]*|gemini[-\w. ]*|copilot|deepseek[-\w. ]*|answer|助手|助理|ai ?助手|回答)$/i,
  ],
  ['system', /^(system|系统)$/i],
  ['tool', /^(tool|function|工具)$/i],
];

const DAY_MS = 86_400_000;
const TIME =
  /(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?|\b\d{1,2}:\d{2}(?::\d{2})?\b)/;
const HEADING = /^#{1,6}\s+(.+?)\s*#*\s*$/;
const BOLD = /^(?:\[([^\]]{1,40})\]\s*)?\*\*([^*]{1,60}?)(?:\*\*\s*[:：]|[:：]\s*\*\*)\s*(.*)$/;
const PLAIN =
  /^(?:\[([^\]]{1,40})\]\s*)?([A-Za-z][\w.'-]*(?: [\w.'-]+){0,2}(?: ?\([^)]{1,40}\))?|[\p{Script=Han}]{1,6}(?: ?[(（][^)）]{1,40}[)）])?)\s*[:：]\s*(.*)$/u;

interface Start {
  line: number;
  name: string;
  time: string | undefined;
  rest: string;
}

/**
 * Reads a markdown chat. A turn starts at a heading naming a role (`## User`, `### Assistant (10:15)`), at a bold
 * speaker (`**Caroline:** hi`, `**ChatGPT**: …`) or at a plain `Name: text` line; a bold or plain name must be a
 * role word or start at least two lines of the file. Role words map to their role; any other speaker is a person
 * (`role: 'user'`, `speaker` = the name). Times in the label are read as UTC; a bare time takes the date from
 * front matter `date:`, a heading, or the file name. Code fences are never split. Refs are `markdown:<fileId>:<turn>`.
 */
export function parseMarkdownChat(text: string, opts: ParseOptions): ParsedTranscript {
  const lines = text.split(/\r?\n/);
  const front = readFrontMatter(lines);
  const candidates = findStarts(lines, front.end);
  const counts = new Map<string, number>();
  for (const c of candidates) counts.set(c.start.name, (counts.get(c.start.name) ?? 0) + 1);
  // A name that is no role word must start two lines to be a speaker, so `**Note:** …` inside an answer stays text.
  const starts = candidates
    .filter((c) => c.kind === 'heading' || roleOf(c.start.name) || (counts.get(c.start.name) ?? 0) >= 2)
    .map((c) => c.start);
  const docDate =
    front.date ?? firstDate(lines.slice(0, starts[0]?.line ?? lines.length)) ?? firstDate([opts.fileId]);
  const session = front.session ?? opts.fileId;
  const turns: ImportedTurn[] = [];
  let skipped = 0;
  let lastAt: number | undefined;
  starts.forEach((s, i) => {
    const end = starts[i + 1]?.line ?? lines.length;
    const body = [s.rest, ...lines.slice(s.line + 1, end)]
      .join('\n')
      .replace(/(\n\s*(-{3,}|\*{3,}|_{3,})\s*)+$/, '')
      .trim();
    if (!body) return void skipped++;
    const role = roleOf(s.name);
    let at = s.time ? timeOf(s.time, docDate) : undefined;
    const approx = at === undefined && (lastAt ?? docDate) !== undefined;
    at ??= lastAt ?? docDate;
    if (!approx) lastAt = at;
    turns.push({
      role: role ?? 'user',
      ...(role ? {} : { speaker: s.name }),
      content: body,
      session,
      ...(at !== undefined ? { at } : {}),
      ref: `markdown:${opts.fileId}:${i}`,
      ...(approx ? { meta: { approxTime: true } } : {}),
    });
  });
  return { turns, skipped, warnings: starts.length === 0 ? ['no speaker turns found'] : [] };
}

function findStarts(
  lines: readonly string[],
  from: number,
): Array<{ kind: 'heading' | 'bold' | 'plain'; start: Start }> {
  const out: Array<{ kind: 'heading' | 'bold' | 'plain'; start: Start }> = [];
  let fence = false;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const h = HEADING.exec(line);
    if (h) {
      const label = splitLabel(h[1]!.replace(/[*_`]/g, ''));
      if (roleOf(label.name)) out.push({ kind: 'heading', start: { line: i, ...label, rest: '' } });
      continue;
    }
    const b = BOLD.exec(line);
    if (b) {
      const label = splitLabel(b[2]!);
      out.push({ kind: 'bold', start: { line: i, name: label.name, time: label.time ?? b[1], rest: b[3]! } });
      continue;
    }
    const p = PLAIN.exec(line);
    if (p && !/^https?$/i.test(p[2]!)) {
      const label = splitLabel(p[2]!);
      out.push({
        kind: 'plain',
        start: { line: i, name: label.name, time: label.time ?? p[1], rest: p[3]! },
      });
    }
  }
  return out;
}

/** `Assistant (2025-03-04 10:15)` → name `Assistant`, time `2025-03-04 10:15`; emoji and separators dropped. */
function splitLabel(raw: string): { name: string; time: string | undefined } {
  const time = TIME.exec(raw)?.[0];
  const name = (time ? raw.replace(time, '') : raw)
    .replace(/[()（）[\]]/g, ' ')
    .replace(/[\p{Extended_Pictographic}\uFE0F]/gu, '')
    .replace(/\s+[-—–·@|,]\s*$/, '')
    .replace(/^\s*[-—–·@|,]\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return { name, time };
}

function roleOf(name: string): ImportedTurn['role'] | undefined {
  return ROLE_WORDS.find(([, re]) => re.test(name.trim()))?.[0];
}

function timeOf(time: string, docDate: number | undefined): number | undefined {
  if (/^\d{4}-/.test(time)) return toEpochMs(time);
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time);
  if (!m || docDate === undefined) return undefined;
  return (
    Math.floor(docDate / DAY_MS) * DAY_MS +
    ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0)) * 1000
  );
}

function firstDate(lines: readonly string[]): number | undefined {
  for (const l of lines) {
    const m = /(\d{4})-(\d{2})-(\d{2})/.exec(l);
    if (m) return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  }
  return undefined;
}

function readFrontMatter(lines: readonly string[]): { end: number; date?: number; session?: string } {
  if (lines[0]?.trim() !== '---') return { end: 0 };
  const close = lines.indexOf('---', 1);
  if (close < 0) return { end: 0 };
  const out: { end: number; date?: number; session?: string } = { end: close + 1 };
  for (const l of lines.slice(1, close)) {
    const m = /^(\w+)\s*:\s*['"]?(.*?)['"]?\s*$/.exec(l);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    if (key === 'date' || key === 'created') {
      const d = toEpochMs(m[2]);
      if (d !== undefined) out.date = d;
    } else if (key === 'session' || key === 'id' || key === 'conversation_id') out.session = m[2]!;
  }
  return out;
}
