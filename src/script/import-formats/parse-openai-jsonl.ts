/** OpenAI-style chat JSONL (one message a line, or one `{messages: [...]}` conversation a line) as imported turns. */
import type { ImportedTurn, ParsedTranscript, ParseOptions } from './imported-turn.js';
import {
  clipTool,
  compactJson,
  contentText,
  isRecord,
  str,
  toEpochMs,
  readJsonLines,
  type JsonLine,
} from './read-json-lines.js';

/**
 * Reads chat-completions messages `{role, content, name?, tool_calls?, tool_call_id?}` with an optional time in
 * `timestamp`, `created_at`, `created` or `time` and an optional session in `session_id`, `conversation_id` or
 * `thread_id`. A line holding `messages` is one conversation (its `id` is the session). Assistant `tool_calls`
 * become tool turns; `tool`/`function` messages are tool results. System and developer messages are skipped.
 * Refs are `openai-jsonl:<fileId>:<line>[:<message>][:<call>]`.
 */
export function parseOpenAiJsonl(text: string, opts: ParseOptions): ParsedTranscript {
  const { lines, warnings } = wholeJson(text) ?? readJsonLines(text);
  const out: ParsedTranscript = { turns: [], skipped: 0, warnings };
  const toolNames = new Map<string, string>();
  for (const { line, value } of lines) {
    const ctx = { opts, out, toolNames };
    if (Array.isArray(value['messages'])) {
      const session = sessionOf(value) ?? `${opts.fileId}#${line}`;
      const baseAt = timeOf(value);
      value['messages'].forEach((m: unknown, i) => {
        if (isRecord(m))
          readMessage(m, `openai-jsonl:${opts.fileId}:${line}:${i}`, session, timeOf(m) ?? baseAt, ctx);
        else out.skipped++;
      });
    } else if (typeof value['role'] === 'string') {
      readMessage(
        value,
        `openai-jsonl:${opts.fileId}:${line}`,
        sessionOf(value) ?? opts.fileId,
        timeOf(value),
        ctx,
      );
    } else out.skipped++;
  }
  return out;
}

/** A pretty-printed file: one conversation object, or an array of messages or conversations (index = line). */
function wholeJson(text: string): { lines: JsonLine[]; warnings: string[] } | undefined {
  const t = text.trim();
  if (!(t.startsWith('[') || (t.startsWith('{') && t.includes('\n')))) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    const list = Array.isArray(v) ? v : [v];
    return { lines: list.filter(isRecord).map((value, i) => ({ line: i + 1, value })), warnings: [] };
  } catch {
    return undefined; // one JSON object a line
  }
}

interface Ctx {
  opts: ParseOptions;
  out: ParsedTranscript;
  toolNames: Map<string, string>;
}

function readMessage(
  m: Record<string, unknown>,
  ref: string,
  session: string,
  at: number | undefined,
  ctx: Ctx,
): void {
  const role = str(m['role']);
  const base = { session, ...(at !== undefined ? { at } : {}) };
  const speaker = str(m['name']);
  const body = contentText(m['content']);
  if (role === 'user' || role === 'assistant') {
    if (body.trim())
      ctx.out.turns.push({ ...base, role, ...(speaker ? { speaker } : {}), content: body, ref });
    const calls = Array.isArray(m['tool_calls'])
      ? m['tool_calls']
      : isRecord(m['function_call'])
        ? [{ function: m['function_call'] }]
        : [];
    calls.forEach((c: unknown, k) => {
      const fn = isRecord(c) && isRecord(c['function']) ? c['function'] : undefined;
      if (!fn) return;
      const name = str(fn['name']) ?? 'tool';
      const id = isRecord(c) ? str(c['id']) : undefined;
      if (id) ctx.toolNames.set(id, name);
      ctx.out.turns.push(
        clipTool(
          {
            ...base,
            role: 'tool',
            tool: name,
            content: `${name} ${compactJson(fn['arguments'])}`.trim(),
            ref: `${ref}:call${k}`,
            meta: { kind: 'tool_call', ...(id ? { callId: id } : {}) },
          },
          ctx.opts.maxToolChars,
        ),
      );
    });
    if (!body.trim() && calls.length === 0) ctx.out.skipped++;
  } else if (role === 'tool' || role === 'function') {
    const id = str(m['tool_call_id']);
    const name = (id ? ctx.toolNames.get(id) : undefined) ?? speaker;
    const turn: ImportedTurn = {
      ...base,
      role: 'tool',
      ...(name ? { tool: name } : {}),
      content: body,
      ref,
      meta: { kind: 'tool_result', ...(id ? { callId: id } : {}) },
    };
    ctx.out.turns.push(clipTool(turn, ctx.opts.maxToolChars));
  } else ctx.out.skipped++; // system and developer prompts are instructions, not experience
}

function sessionOf(v: Record<string, unknown>): string | undefined {
  return (
    str(v['session_id']) ??
    str(v['conversation_id']) ??
    str(v['thread_id']) ??
    (Array.isArray(v['messages']) ? str(v['id']) : undefined)
  );
}

function timeOf(v: Record<string, unknown>): number | undefined {
  return (
    toEpochMs(v['timestamp']) ?? toEpochMs(v['created_at']) ?? toEpochMs(v['created']) ?? toEpochMs(v['time'])
  );
}
