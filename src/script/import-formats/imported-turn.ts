/** The shape every session-import parser returns: plain turns with a stable idempotency key each. */

/** Transcript formats `tidepool import --format` reads. */
export const IMPORT_FORMATS = [
  'claude-code',
  'codex',
  'hermes',
  'openai-jsonl',
  'markdown',
  'locomo',
  'tideline',
] as const;
/** One import format. */
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** One turn of an imported transcript, ready to become an episode. */
export interface ImportedTurn {
  role: 'user' | 'assistant' | 'system' | 'tool';
  /** The speaker's name when the transcript gives one (LoCoMo, markdown chats, OpenAI `name`). */
  speaker?: string;
  content: string;
  session?: string;
  /** When it was said, epoch ms UTC. */
  at?: number;
  /** Tool name, for tool calls and tool results. */
  tool?: string;
  /** Whether the tool call succeeded, when the transcript says so. */
  ok?: boolean;
  /** Stable idempotency key: format, file or session id, line or turn id. Importing again yields the same refs. */
  ref: string;
  meta?: Record<string, unknown>;
}

/** A parsed transcript: its turns, how many records were skipped on purpose, and what could not be read. */
export interface ParsedTranscript {
  turns: ImportedTurn[];
  /** Records left out on purpose: system prompts, reasoning, bookkeeping lines. */
  skipped: number;
  /** Lines that could not be read, e.g. `line 7: not JSON`. */
  warnings: string[];
}

/** Options every text parser takes. */
export interface ParseOptions {
  /** A stable id of the file (its base name), used in refs when the transcript carries no id of its own. */
  fileId: string;
  /** Tool calls and results longer than this are cut, with `meta.truncatedFrom` (default 20,000 characters). */
  maxToolChars?: number;
}

/** Default cap of tool-call and tool-result text: conversation text is kept verbatim, tool output can be megabytes. */
export const MAX_TOOL_CHARS = 20_000;
