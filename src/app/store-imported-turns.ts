/** Imported turns into the episode layer through `record`: batched, redacted, idempotent by ref. */
import { MAX_TEXT_BYTES, type RecordTurn } from '../core/schemas.js';
import type { ImportedTurn, ImportFormat } from '../script/import-formats/imported-turn.js';
import type { AppContext } from './app-context.js';
import { record } from './record.js';

/** Progress of one file: `done` of `total` turns stored so far. */
export interface ImportProgress {
  file: string;
  done: number;
  total: number;
}

/** Options of an import. */
export interface ImportOptions {
  onProgress?: (p: ImportProgress) => void;
  /** Turns per transaction (default 5,000). */
  batchSize?: number;
}

const DEFAULT_BATCH = 5000;
// record() refuses labels over 200 characters (core/schemas `label`) and refs over 500.
const LABEL_CHARS = 200;
const REF_CHARS = 500;
const TURN_KINDS = new Set(['tool_call', 'tool_result', 'note']);

/** Stores imported turns in batches (one transaction each); refs already present are skipped by the store. */
export async function storeTurns(
  ctx: AppContext,
  file: string,
  format: ImportFormat,
  turns: readonly ImportedTurn[],
  opts: ImportOptions = {},
): Promise<{ turns: number; imported: number; skipped: number; ignored: number; redacted: number }> {
  const batch = opts.batchSize ?? DEFAULT_BATCH;
  const records = turns.map((t) => toRecordTurn(t, format)).filter((t): t is RecordTurn => t !== undefined);
  let imported = 0;
  let skipped = 0;
  let redacted = 0;
  opts.onProgress?.({ file, done: 0, total: records.length });
  for (let i = 0; i < records.length; i += batch) {
    const batchTurns = records.slice(i, i + batch);
    // Refs already stored are dropped before record(): a re-import then costs a lookup, not a redaction and
    // segmentation of every turn (the store would skip them anyway).
    const known = await ctx.scope.episodes.idsByRef(
      batchTurns.map((t) => t.ref!),
    );
    const part = batchTurns.filter((t) => !known.has(t.ref!));
    skipped += batchTurns.length - part.length;
    if (part.length > 0) {
      // Import stores durable episodes (DESIGN §6: what import stores never expires by age).
      const r = await record(ctx, { turns: part }, { source: 'import', durable: true });
      imported += r.ids.length;
      skipped += r.skipped;
      redacted += r.redacted;
    }
    opts.onProgress?.({ file, done: Math.min(records.length, i + batch), total: records.length });
  }
  return { turns: turns.length, imported, skipped, ignored: turns.length - records.length, redacted };
}

/** An imported turn as `record` takes it; undefined for a turn without text. */
export function toRecordTurn(t: ImportedTurn, format: ImportFormat): RecordTurn | undefined {
  const content = clipBytes(t.content, MAX_TEXT_BYTES);
  if (!content.trim()) return undefined;
  const metaKind = typeof t.meta?.['kind'] === 'string' ? t.meta['kind'] : undefined;
  const kind =
    metaKind && TURN_KINDS.has(metaKind)
      ? (metaKind as RecordTurn['kind'])
      : t.role === 'tool'
        ? 'tool_result'
        : 'turn';
  const meta: Record<string, unknown> = { ...t.meta, format };
  if (content.length < t.content.length) meta['truncatedFrom'] = t.content.length;
  return {
    role: t.role,
    content,
    kind,
    ...(label(t.speaker) ? { speaker: label(t.speaker) } : {}),
    ...(label(t.session) ? { session: label(t.session) } : {}),
    ...(label(t.tool) ? { tool: label(t.tool) } : {}),
    ...(t.ok !== undefined ? { ok: t.ok } : {}),
    ...(t.at !== undefined && Number.isFinite(t.at) && t.at >= 0 ? { at: Math.round(t.at) } : {}),
    ref: t.ref.slice(0, REF_CHARS),
    meta,
  };
}

function label(v: string | undefined): string | undefined {
  const s = v?.trim();
  return s ? [...s].slice(0, LABEL_CHARS).join('') : undefined;
}

/** Cuts text to at most `max` UTF-8 bytes on a character boundary. */
function clipBytes(text: string, max: number): string {
  if (text.length * 3 <= max || Buffer.byteLength(text, 'utf8') <= max) return text;
  let out = text.slice(0, max);
  while (Buffer.byteLength(out, 'utf8') > max) out = out.slice(0, Math.floor(out.length * 0.9));
  return out;
}
