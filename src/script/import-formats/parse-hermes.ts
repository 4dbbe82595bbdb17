/** Hermes Agent session files (`~/.hermes/sessions/*.json` and `*.jsonl`) as imported turns (SEEDS §1.7). */
import type { ImportedTurn, ParsedTranscript, ParseOptions } from './imported-turn.js';
import {
  clipTool,
  compactJson,
  contentText,
  isRecord,
  readJsonLines,
  str,
  toEpochMs,
} from './read-json-lines.js';

/** File names the Tideline importer skipped: cron runs, ephemeral sessions, request dumps and the index. */
export function isHermesSessionFile(name: string): boolean {
  return /\.jsonl?$/.test(name) && !/cron_|eph_|request_dump|sessions\.json/.test(name);
}

/** Tool-call markers Hermes writes into assistant text (SEEDS §1.7). */
const TOOL_MARK = /^\s*\[(?:工具调用|tool_call)[:：\s]*([^\]\s]*)/i;

/**
 * Reads a Hermes session: a `.json` object `{session_id?, platform?, model?, session_start?, last_updated?,
 * messages}` or a `.jsonl` file of one message a line whose first line may be a `session_meta` record. Messages
 * are OpenAI-style; a message without its own time gets the session start (or the file name's YYYYMMDD) and
 * `meta.approxTime`. Assistant text starting with `[工具调用`/`[tool_call` and `tool` messages become tool turns;
 * system messages are skipped. Refs are `hermes:<session>:<index>`.
 */
export function parseHermes(text: string, opts: ParseOptions): ParsedTranscript {
  const whole = parseWhole(text);
  let messages: unknown[];
  let head: Record<string, unknown> = {};
  let warnings: string[] = [];
  if (whole) {
    messages = Array.isArray(whole['messages']) ? whole['messages'] : [];
    head = whole;
  } else {
    const read = readJsonLines(text);
    warnings = read.warnings;
    messages = read.lines.map((l) => l.value);
    if (isRecord(messages[0]) && messages[0]['role'] === 'session_meta')
      head = messages.shift() as Record<string, unknown>;
  }
  const session = str(head['session_id']) ?? str(head['id']) ?? opts.fileId.replace(/\.jsonl?$/, '');
  const fallbackAt =
    toEpochMs(head['session_start']) ?? toEpochMs(head['timestamp']) ?? dateFromName(opts.fileId);
  const meta: Record<string, unknown> = {};
  if (str(head['platform'])) meta['platform'] = head['platform'];
  if (str(head['model'])) meta['model'] = head['model'];
  const turns: ImportedTurn[] = [];
  const toolNames = new Map<string, string>();
  let skipped = 0;
  messages.forEach((m, i) => {
    if (!isRecord(m)) return void skipped++;
    const own = toEpochMs(m['timestamp']);
    const at = own ?? fallbackAt;
    const base = {
      session,
      ref: `hermes:${session}:${i}`,
      ...(at !== undefined ? { at } : {}),
      meta: { ...meta, ...(own === undefined && at !== undefined ? { approxTime: true } : {}) },
    };
    const role = str(m['role']);
    const body = contentText(m['content']);
    if (role === 'user' && body.trim()) turns.push({ ...base, role: 'user', content: body });
    else if (role === 'assistant') {
      const mark = TOOL_MARK.exec(body);
      const calls = Array.isArray(m['tool_calls']) ? m['tool_calls'].filter(isRecord) : [];
      if (mark)
        turns.push(
          clipTool(
            {
              ...base,
              role: 'tool',
              ...(mark[1] ? { tool: mark[1] } : {}),
              content: body,
              meta: { ...base.meta, kind: 'tool_call' },
            },
            opts.maxToolChars,
          ),
        );
      else if (body.trim()) turns.push({ ...base, role: 'assistant', content: body });
      calls.forEach((c, k) => {
        const fn = isRecord(c['function']) ? c['function'] : {};
        const name = str(fn['name']) ?? 'tool';
        if (str(c['id'])) toolNames.set(str(c['id'])!, name);
        turns.push(
          clipTool(
            {
              ...base,
              ref: `${base.ref}:call${k}`,
              role: 'tool',
              tool: name,
              content: `${name} ${compactJson(fn['arguments'])}`.trim(),
              meta: { ...base.meta, kind: 'tool_call' },
            },
            opts.maxToolChars,
          ),
        );
      });
      if (!mark && !body.trim() && calls.length === 0) skipped++;
    } else if (role === 'tool') {
      const name = toolNames.get(str(m['tool_call_id']) ?? '') ?? str(m['name']);
      turns.push(
        clipTool(
          {
            ...base,
            role: 'tool',
            ...(name ? { tool: name } : {}),
            content: body,
            meta: { ...base.meta, kind: 'tool_result' },
          },
          opts.maxToolChars,
        ),
      );
    } else skipped++;
  });
  for (const t of turns) if (t.meta && Object.keys(t.meta).length === 0) delete t.meta;
  return { turns, skipped, warnings };
}

function parseWhole(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return isRecord(v) && Array.isArray(v['messages']) ? v : undefined;
  } catch {
    return undefined; // several JSON objects: a .jsonl file
  }
}

/** Midnight UTC of a `YYYYMMDD` in the file name (SEEDS §1.7), if any. */
function dateFromName(name: string): number | undefined {
  const m = /(20\d{2})(\d{2})(\d{2})/.exec(name);
  if (!m) return undefined;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(t) ? undefined : t;
}
