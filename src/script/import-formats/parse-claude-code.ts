/** Claude Code session transcripts (`~/.claude/projects/<project>/<session>.jsonl`) as imported turns. */
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

/**
 * Reads a Claude Code JSONL transcript. Lines of type `user`/`assistant` carry `message.content`, a string or a
 * list of blocks: text (kept verbatim; consecutive text and image blocks of one message form one turn), tool_use
 * (a `tool` turn named after the tool), tool_result (a `tool` turn with `ok = !is_error`; the call it answers
 * gets the same `ok`), thinking (skipped). Summary, system, snapshot and `isMeta` lines are skipped.
 * Refs are `claude-code:<sessionId>:<uuid>:<block>`, stable when the file grows.
 */
export function parseClaudeCode(text: string, opts: ParseOptions): ParsedTranscript {
  const { lines, warnings } = readJsonLines(text);
  const turns: ImportedTurn[] = [];
  const callByToolUseId = new Map<string, ImportedTurn>();
  let skipped = 0;
  for (const { line, value: v } of lines) {
    const type = str(v['type']);
    const message = v['message'];
    if ((type !== 'user' && type !== 'assistant') || !isRecord(message) || v['isMeta'] === true) {
      skipped++;
      continue;
    }
    const session = str(v['sessionId']) ?? opts.fileId;
    const at = toEpochMs(v['timestamp']);
    const role = str(message['role']) === 'assistant' || type === 'assistant' ? 'assistant' : 'user';
    const base = `claude-code:${session}:${str(v['uuid']) ?? `line${line}`}`;
    const meta: Record<string, unknown> = {};
    if (str(v['cwd'])) meta['cwd'] = v['cwd'];
    if (str(message['model'])) meta['model'] = message['model'];
    if (v['isSidechain'] === true) meta['sidechain'] = true;
    const push = (t: Omit<ImportedTurn, 'session' | 'at'>) => {
      const turn: ImportedTurn = { ...t, session, ...(at !== undefined ? { at } : {}) };
      if (Object.keys(meta).length > 0 || t.meta) turn.meta = { ...meta, ...t.meta };
      turns.push(turn);
      return turn;
    };
    const content = message['content'];
    if (typeof content === 'string') {
      if (content.trim()) push({ role, content, ref: `${base}:0` });
      else skipped++;
      continue;
    }
    if (!Array.isArray(content)) {
      skipped++;
      continue;
    }
    let pending: { start: number; parts: unknown[] } | undefined;
    const flush = () => {
      if (!pending) return;
      const body = contentText(pending.parts);
      if (body.trim()) push({ role, content: body, ref: `${base}:${pending.start}` });
      pending = undefined;
    };
    content.forEach((block: unknown, i) => {
      if (!isRecord(block)) return;
      const bt = str(block['type']);
      if (bt === 'text' || bt === 'image') {
        pending ??= { start: i, parts: [] };
        pending.parts.push(block);
      } else if (bt === 'tool_use') {
        flush();
        const name = str(block['name']) ?? 'tool';
        const turn = push(
          clipTool(
            {
              role: 'tool',
              tool: name,
              content: `${name} ${compactJson(block['input'])}`.trim(),
              ref: `${base}:${i}`,
              meta: { kind: 'tool_call', toolUseId: block['id'] },
            },
            opts.maxToolChars,
          ),
        );
        if (str(block['id'])) callByToolUseId.set(str(block['id'])!, turn);
      } else if (bt === 'tool_result') {
        flush();
        const call = callByToolUseId.get(str(block['tool_use_id']) ?? '');
        const ok = block['is_error'] !== true;
        if (call) call.ok = ok;
        const body = contentText(block['content']);
        push(
          clipTool(
            {
              role: 'tool',
              ...(call?.tool ? { tool: call.tool } : {}),
              ok,
              content: body,
              ref: `${base}:${i}`,
              meta: { kind: 'tool_result', toolUseId: block['tool_use_id'] },
            },
            opts.maxToolChars,
          ),
        );
      } else skipped++; // thinking, redacted_thinking and blocks this parser does not know
    });
    flush();
  }
  return { turns, skipped, warnings };
}
