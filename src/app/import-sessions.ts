/**
 * `tidepool import`: session transcripts (Claude Code, Codex, Hermes, OpenAI JSONL, markdown chats, LoCoMo) and
 * Tideline databases into the episode layer, idempotently: every turn carries a stable ref, and a ref already
 * stored in the space is skipped (SEEDS T-16 duplicated everything on each run).
 */
import { basename } from 'node:path';
import { detectFormat } from '../script/import-formats/detect-format.js';
import type { ImportFormat } from '../script/import-formats/imported-turn.js';
import { parseTranscript } from '../script/import-formats/parse-transcript.js';
import type { AppContext } from './app-context.js';
import { importTideline, type TidelineCounts } from './import-tideline.js';
import { storeTurns, type ImportOptions } from './store-imported-turns.js';

export type { ImportOptions, ImportProgress } from './store-imported-turns.js';

/** A file to import; the caller does the reading, so that this use case does no file I/O of its own. */
export interface ImportFileInput {
  /** Where it lies; its base name identifies it in refs. A Tideline database is opened here, read-only. */
  path: string;
  /** Reads the first `n` bytes (format detection). */
  readHead(n: number): Promise<Uint8Array>;
  /** Reads the whole file (text formats only). */
  readAll(): Promise<Uint8Array>;
  /** `auto` (default) detects the format from the name and the first bytes. */
  format?: ImportFormat | 'auto';
}

/** What importing one file did. */
export type ImportFileResult =
  | {
      status: 'imported';
      file: string;
      format: ImportFormat;
      /** Turns the file held. */
      turns: number;
      /** Turns stored now. */
      imported: number;
      /** Turns already in the space from an earlier import. */
      skipped: number;
      /** Records the parser left out on purpose (system prompts, reasoning, bookkeeping) or empty turns. */
      ignored: number;
      /** Credentials replaced by placeholders. */
      redacted: number;
      warnings: string[];
      /** Tideline only: what besides the raw log was imported. */
      tideline?: TidelineCounts;
    }
  | { status: 'failed'; file: string; reason: string };

export { IMPORT_FORMAT_NAMES } from './import-format-names.js';

const HEAD_BYTES = 64 * 1024;

/** Imports one file; an unreadable or undetectable file is a `failed` result, not an exception. */
export async function importSessionFile(
  ctx: AppContext,
  input: ImportFileInput,
  opts: ImportOptions = {},
): Promise<ImportFileResult> {
  const file = basename(input.path);
  let format = input.format ?? 'auto';
  if (format === 'auto') {
    const detected = detectFormat(file, await input.readHead(HEAD_BYTES));
    if (!detected.format) return { status: 'failed', file, reason: detected.reason };
    format = detected.format;
  }
  if (format === 'tideline') return importTideline(ctx, { path: input.path, fileId: file }, opts);
  const text = new TextDecoder().decode(await input.readAll()).replace(/^\uFEFF/, '');
  const parsed = parseTranscript(format, text, { fileId: file });
  if (parsed.turns.length === 0 && parsed.warnings.length > 0) {
    return {
      status: 'failed',
      file,
      reason: `no turns read as ${format}: ${parsed.warnings.slice(0, 3).join('; ')}`,
    };
  }
  const stored = await storeTurns(ctx, file, format, parsed.turns, opts);
  return {
    status: 'imported',
    file,
    format,
    ...stored,
    ignored: stored.ignored + parsed.skipped,
    warnings: parsed.warnings,
  };
}
