/** Shared reading steps of the transcript parsers: JSON lines, timestamps, message parts, tool text. */
import { MAX_TOOL_CHARS, type ImportedTurn } from './imported-turn.js';

/** One JSON value of a JSON-lines text with its 1-based line number. */
export interface JsonLine {
  line: number;
  value: Record<string, unknown>;
}

/** Parses every non-blank line as a JSON object; the others become warnings. */
export function readJsonLines(text: string): { lines: JsonLine[]; warnings: string[] } {
  const lines: JsonLine[] = [];
  const warnings: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    try {
      const value: unknown = JSON.parse(raw);
      if (isRecord(value)) lines.push({ line: i + 1, value });
      else warnings.push(`line ${i + 1}: not a JSON object`);
    } catch {
      warnings.push(`line ${i + 1}: not JSON`);
    }
  });
  return { lines, warnings };
}

/** True for a plain JSON object. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string field, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/**
 * Epoch ms UTC of an ISO-8601 string (a string without offset is read as UTC) or of a number (seconds below 10¹¹,
 * else milliseconds). Undefined when it cannot be read.
 */
export function toEpochMs(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v < 1e11 ? Math.round(v * 1000) : Math.round(v);
  if (typeof v !== 'string' || !v.trim()) return undefined;
  const s = v.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return toEpochMs(Number(s));
  const m =
    /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(s);
  if (!m) {
    const t = Date.parse(s);
    return Number.isNaN(t) ? undefined : t;
  }
  const time = m[2] ? (m[2].length === 5 ? `${m[2]}:00` : m[2]) : '00:00:00';
  const frac = m[3] ? `.${m[3].slice(0, 3).padEnd(3, '0')}` : '';
  const zone =
    !m[4] || m[4].toUpperCase() === 'Z'
      ? 'Z'
      : m[4].length === 5
        ? `${m[4].slice(0, 3)}:${m[4].slice(3)}`
        : m[4];
  const t = Date.parse(`${m[1]}T${time}${frac}${zone}`);
  return Number.isNaN(t) ? undefined : t;
}

/** Text of a message's content: a string, or the text parts of a part list (images become `[image]`). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const p of content) {
    if (typeof p === 'string') parts.push(p);
    else if (isRecord(p)) {
      const t = str(p['text']) ?? (typeof p['content'] === 'string' ? p['content'] : undefined);
      if (t !== undefined) parts.push(t);
      else if (/image/.test(str(p['type']) ?? '')) parts.push('[image]');
    }
  }
  return parts.join('\n');
}

/** Cuts tool text to `max` characters, recording the original length in meta. */
export function clipTool(turn: ImportedTurn, max: number = MAX_TOOL_CHARS): ImportedTurn {
  if (turn.content.length <= max) return turn;
  return {
    ...turn,
    content: `${turn.content.slice(0, max)}…`,
    meta: { ...turn.meta, truncatedFrom: turn.content.length },
  };
}

/** A JSON value as compact text for a tool call's arguments. */
export function compactJson(v: unknown): string {
  if (v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
