/** Guesses a transcript's format from its name and first bytes, for `tidepool import --format auto`. */
import type { ImportFormat } from './imported-turn.js';
import { isRecord } from './read-json-lines.js';

/** The detected format, or why none was found. */
export type DetectedFormat = { format: ImportFormat } | { format: undefined; reason: string };

const SQLITE_MAGIC = 'SQLite format 3\u0000';
const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const CLAUDE_TYPES = new Set(['user', 'assistant', 'summary', 'system', 'file-history-snapshot']);

/**
 * Detects the format from the file name and its beginning (`head`: the first ~64 KiB, or the whole file).
 * SQLite files are Tideline databases; JSON objects with `conversation` are LoCoMo; JSON sessions with
 * `messages` and Hermes fields (`session_start`, `platform`, …) are Hermes; JSON lines are told apart by their
 * keys (Claude Code: `type` + `sessionId`/`uuid`; Codex: `type` + `payload`; Hermes: a `session_meta` role;
 * OpenAI: `role` or `messages`); `.md`/`.markdown`/`.txt` files are markdown chats.
 */
export function detectFormat(name: string, head: Uint8Array | string): DetectedFormat {
  const text = typeof head === 'string' ? head : new TextDecoder().decode(head);
  if (text.startsWith(SQLITE_MAGIC)) return { format: 'tideline' };
  const t = text.trimStart();
  if (t.startsWith('[') || t.startsWith('{')) {
    const byJson = fromWholeJson(t);
    if (byJson) return { format: byJson };
    if (/"conversation"\s*:\s*\{/.test(t) && /"speaker_a"/.test(t)) return { format: 'locomo' };
    const byLines = fromJsonLines(t);
    if (byLines) return { format: byLines };
  }
  if (/\.(md|markdown|txt)$/i.test(name)) return { format: 'markdown' };
  return { format: undefined, reason: `cannot tell the format of ${name}: pass --format` };
}

function fromWholeJson(t: string): ImportFormat | undefined {
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return undefined;
  }
  const first = Array.isArray(v) ? v[0] : v;
  if (!isRecord(first)) return undefined;
  if (isRecord(first['conversation'])) return 'locomo';
  if (Array.isArray(first['messages'])) {
    return ['session_start', 'last_updated', 'platform', 'session_id'].some((k) => k in first)
      ? 'hermes'
      : 'openai-jsonl';
  }
  if (typeof first['role'] === 'string') return 'openai-jsonl';
  return lineFormat(first, true);
}

function fromJsonLines(t: string): ImportFormat | undefined {
  const lines = t
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .slice(0, 20);
  let index = 0;
  for (const raw of lines) {
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      continue; // the last line of a head may be cut
    }
    if (isRecord(v)) {
      const f = lineFormat(v, index === 0);
      if (f) return f;
    }
    index++;
  }
  return undefined;
}

function lineFormat(v: Record<string, unknown>, first: boolean): ImportFormat | undefined {
  const type = typeof v['type'] === 'string' ? v['type'] : undefined;
  if (type && CODEX_TYPES.has(type) && 'payload' in v) return 'codex';
  if (type && CLAUDE_TYPES.has(type) && ('sessionId' in v || 'uuid' in v || 'leafUuid' in v))
    return 'claude-code';
  if (v['role'] === 'session_meta') return 'hermes';
  // An old Codex rollout opens with a bare `{id, timestamp, instructions}` line.
  if (first && typeof v['id'] === 'string' && 'timestamp' in v && 'instructions' in v && !('role' in v))
    return 'codex';
  if (typeof v['role'] === 'string' || Array.isArray(v['messages'])) return 'openai-jsonl';
  return undefined;
}
