/** Codex CLI rollout transcripts (`~/.codex/sessions/YYYY/MM/DD/rollout-…-<uuid>.jsonl`) as imported turns. */
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

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** User messages Codex writes itself: environment and instruction blocks, not something the user said. */
const INJECTED = /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions)/;

/**
 * Reads a Codex rollout. Current files hold `{timestamp, type, payload}` lines: `session_meta` (session id),
 * `response_item` (message, function_call, function_call_output, custom_tool_call[_output], local_shell_call),
 * `event_msg` and `turn_context`. Older files start with a bare `{id, timestamp}` line followed by bare response
 * items. Reasoning, developer and system messages and Codex's injected context blocks are skipped; `event_msg`
 * user/agent messages are used only when a file has no message items. Refs are `codex:<session>:<line>`.
 */
export function parseCodex(text: string, opts: ParseOptions): ParsedTranscript {
  const { lines, warnings } = readJsonLines(text);
  let session = UUID.exec(opts.fileId)?.[0] ?? opts.fileId;
  let cwd: string | undefined;
  for (const { value: v } of lines) {
    const meta =
      str(v['type']) === 'session_meta' && isRecord(v['payload'])
        ? v['payload']
        : v['type'] === undefined && str(v['id'])
          ? v
          : undefined;
    if (meta) {
      session = str(meta['id']) ?? session;
      cwd = str(meta['cwd']) ?? cwd;
      break;
    }
  }
  const items = lines.flatMap(({ line, value: v }) => itemOf(line, v));
  const hasMessages = items.some((i) => str(i.item['type']) === 'message');
  const turns: ImportedTurn[] = [];
  const callById = new Map<string, ImportedTurn>();
  let skipped = lines.length - items.length;
  for (const { line, at, item, event } of items) {
    const ref = `codex:${session}:${line}`;
    const base = { session, ...(at !== undefined ? { at } : {}), ...(cwd ? { meta: { cwd } } : {}) };
    const type = str(item['type']);
    if (event) {
      const body = str(item['message']) ?? '';
      if (hasMessages || !body.trim() || (type !== 'user_message' && type !== 'agent_message')) skipped++;
      else turns.push({ ...base, role: type === 'user_message' ? 'user' : 'assistant', content: body, ref });
    } else if (type === 'message') {
      const role = str(item['role']);
      const body = contentText(item['content']);
      if (
        (role !== 'user' && role !== 'assistant') ||
        !body.trim() ||
        (role === 'user' && INJECTED.test(body))
      )
        skipped++;
      else turns.push({ ...base, role, content: body, ref });
    } else if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
      const name = str(item['name']) ?? (type === 'local_shell_call' ? 'local_shell' : 'tool');
      const args =
        type === 'function_call'
          ? item['arguments']
          : type === 'custom_tool_call'
            ? item['input']
            : item['action'];
      const turn = clipTool(
        {
          ...base,
          role: 'tool',
          tool: name,
          content: `${name} ${compactJson(args)}`.trim(),
          ref,
          meta: { ...base.meta, kind: 'tool_call', callId: item['call_id'] },
        },
        opts.maxToolChars,
      );
      turns.push(turn);
      if (str(item['call_id'])) callById.set(str(item['call_id'])!, turn);
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      const call = callById.get(str(item['call_id']) ?? '');
      const { body, ok } = readOutput(item['output']);
      if (call && ok !== undefined) call.ok = ok;
      turns.push(
        clipTool(
          {
            ...base,
            role: 'tool',
            ...(call?.tool ? { tool: call.tool } : {}),
            ...(ok !== undefined ? { ok } : {}),
            content: body,
            ref,
            meta: { ...base.meta, kind: 'tool_result', callId: item['call_id'] },
          },
          opts.maxToolChars,
        ),
      );
    } else skipped++; // reasoning, web_search_call and item types this parser does not know
  }
  return { turns, skipped, warnings };
}

interface Item {
  line: number;
  at: number | undefined;
  item: Record<string, unknown>;
  event: boolean;
}

function itemOf(line: number, v: Record<string, unknown>): Item[] {
  const type = str(v['type']);
  const at = toEpochMs(v['timestamp']);
  if ((type === 'response_item' || type === 'event_msg') && isRecord(v['payload']))
    return [{ line, at, item: v['payload'], event: type === 'event_msg' }];
  // Older rollouts: response items stand alone on their line.
  if (
    type &&
    [
      'message',
      'function_call',
      'function_call_output',
      'custom_tool_call',
      'custom_tool_call_output',
      'local_shell_call',
      'reasoning',
    ].includes(type)
  ) {
    return [{ line, at, item: v, event: false }];
  }
  return [];
}

/** A tool output: a plain string, or JSON `{output, metadata: {exit_code}}` whose exit code says whether it worked. */
function readOutput(output: unknown): { body: string; ok?: boolean } {
  const raw = isRecord(output) ? output : parseJson(output);
  if (raw) {
    const metadata = isRecord(raw['metadata']) ? raw['metadata'] : {};
    const code = metadata['exit_code'] ?? raw['exit_code'];
    const body = str(raw['output']) ?? str(raw['content']) ?? compactJson(raw);
    const ok =
      typeof code === 'number'
        ? code === 0
        : typeof raw['success'] === 'boolean'
          ? raw['success']
          : undefined;
    return ok === undefined ? { body } : { body, ok };
  }
  return { body: typeof output === 'string' ? output : compactJson(output) };
}

function parseJson(v: unknown): Record<string, unknown> | undefined {
  if (typeof v !== 'string' || !v.trim().startsWith('{')) return undefined;
  try {
    const p: unknown = JSON.parse(v);
    return isRecord(p) ? p : undefined;
  } catch {
    return undefined;
  }
}
