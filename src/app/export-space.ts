/** `export` and `restore`: a whole space as JSON lines, lossless and deterministic. */
import { TidepoolError } from '../core/errors.js';
import type { Layer } from '../core/types.js';
import type { Store } from '../store/port.js';
import type { AppContext } from './app-context.js';
import { episodeIndexText, knowledgeIndexText, narrativeIndexText } from './index-text.js';
import { planIdShift, remapRows, shiftsAny } from './restore-remap.js';

/** Format version written on the first line of every export. */
export const EXPORT_FORMAT = 'tidepool-export/1';

/**
 * Tables an export never carries and a restore never loads: credentials. Exports of earlier versions held the
 * space's API token hashes; a restore skips those rows (and says so), so a crafted file cannot plant a live token.
 */
export const NOT_RESTORED: readonly string[] = ['api_tokens'];

/** What a restore loaded, and what it left out on purpose. */
export interface RestoreResult {
  rows: number;
  tables: Record<string, number>;
  /** Rows of tables never restored (`api_tokens`), by table; absent when the file had none. */
  excluded?: Record<string, number>;
  /**
   * Tables whose rows got new ids because the database already used theirs (another space of it, or the space the
   * export came from), with every reference moved along; absent when every id was kept.
   */
  renumbered?: string[];
}

function encodeValue(v: unknown): unknown {
  if (v instanceof Uint8Array) return { $b64: Buffer.from(v).toString('base64') };
  if (typeof v === 'bigint') return Number(v);
  return v;
}

function decodeValue(v: unknown): unknown {
  if (v && typeof v === 'object' && '$b64' in v && typeof (v as { $b64: unknown }).$b64 === 'string') {
    return new Uint8Array(Buffer.from((v as { $b64: string }).$b64, 'base64'));
  }
  return v;
}

/** Yields the export of the context's space: a header line, then one line per row, table by table. */
export async function* exportSpace(ctx: AppContext): AsyncGenerator<string> {
  yield JSON.stringify({ format: EXPORT_FORMAT, space: ctx.space });
  for (const table of ctx.store.rows.tables()) {
    for await (const row of ctx.store.rows.dump(ctx.space, table)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row)) out[k] = encodeValue(v);
      yield JSON.stringify({ table, row: out });
    }
  }
}

/**
 * Restores export lines into the context's space, which must be empty; all or nothing. Rows keep their ids where the
 * database does not use them yet; otherwise a table's rows get new ids and every reference follows (restore-remap.ts).
 */
export async function restoreSpace(ctx: AppContext, lines: AsyncIterable<string> | Iterable<string>): Promise<RestoreResult> {
  const byTable = new Map<string, Array<Record<string, unknown>>>();
  const excluded: Record<string, number> = {};
  let n = 0;
  let lineNo = 0;
  let sawHeader = false;
  for await (const raw of lines) {
    lineNo++;
    const line = raw.trim();
    if (!line) continue;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      throw new TidepoolError('invalid_input', `line ${lineNo} is not JSON`, { field: 'file' });
    }
    if (!sawHeader && obj && typeof obj === 'object' && 'format' in obj) {
      if ((obj as { format: unknown }).format !== EXPORT_FORMAT) {
        throw new TidepoolError('invalid_input', `line ${lineNo}: unsupported export format ${String((obj as { format: unknown }).format)}`, { field: 'file' });
      }
      sawHeader = true;
      continue;
    }
    const rec = obj as { table?: unknown; row?: unknown };
    if (typeof rec?.table === 'string' && NOT_RESTORED.includes(rec.table)) {
      excluded[rec.table] = (excluded[rec.table] ?? 0) + 1;
      continue;
    }
    if (typeof rec?.table !== 'string' || !ctx.store.rows.tables().includes(rec.table) || !rec.row || typeof rec.row !== 'object') {
      throw new TidepoolError('invalid_input', `line ${lineNo}: expected {"table","row"} of a known table`, { field: 'file' });
    }
    const row: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rec.row as Record<string, unknown>)) row[k] = decodeValue(v);
    // Rows move into the target space, whatever space they were exported from.
    if (rec.table === 'spaces') row.id = ctx.space;
    else row.space = ctx.space;
    const list = byTable.get(rec.table) ?? [];
    list.push(row);
    byTable.set(rec.table, list);
    n++;
  }
  if (!sawHeader) throw new TidepoolError('invalid_input', 'not a Tidepool export (no header line)', { field: 'file' });
  let renumbered: string[] = [];
  await ctx.store.transaction(async (tx) => {
    if (!(await tx.rows.spaceIsEmpty(ctx.space))) {
      throw new TidepoolError('conflict', `space "${ctx.space}" is not empty; restore into an empty space or erase it first (forget --all --yes)`);
    }
    await tx.spaces.delete(ctx.space);
    // Ids are global: kept where free (a fresh database gets the export back byte for byte), else moved (restore-remap.ts).
    const shift = await planIdShift(tx, byTable);
    const load = shiftsAny(shift) ? remapRows(byTable, shift) : byTable;
    renumbered = [...shift].filter(([, d]) => d !== 0).map(([t]) => t);
    for (const table of tx.rows.tables()) {
      const rows = load.get(table);
      if (!rows) continue;
      try {
        await tx.rows.load(table, rows);
      } catch (e) {
        if (/UNIQUE|duplicate key/i.test((e as Error).message)) {
          // New ids start past the largest id this transaction saw; a writer in another process may take them first.
          throw new TidepoolError(
            'conflict',
            `restore failed in table ${table}: ${(e as Error).message}; nothing was restored (another writer may have taken the new ids: try again)`,
            { cause: e },
          );
        }
        throw new TidepoolError('conflict', `restore failed in table ${table}: ${(e as Error).message}`, { cause: e });
      }
    }
    await reindexSpace(tx, ctx.space, ctx.config.recall.contextTurns, ctx.config.index.episodeTrigram);
  });
  const skipped = Object.values(excluded).reduce((a, b) => a + b, 0);
  if (skipped > 0) ctx.warn(`restore: left out ${skipped} API token row(s): credentials are never restored; create tokens with \`tidepool token create\``);
  return {
    rows: n,
    tables: Object.fromEntries([...byTable].map(([t, r]) => [t, r.length])),
    ...(skipped > 0 ? { excluded } : {}),
    ...(renumbered.length > 0 ? { renumbered } : {}),
  };
}

/**
 * Indexes every item of every space again when the store's index holds an older tokenizer's terms (PostgreSQL
 * memories written before issue 20.3): one transaction, so a failure leaves the old index and the next open retries.
 */
export async function retokenizeIfOutdated(store: Store, contextTurns: number, episodeTrigram: boolean): Promise<boolean> {
  if (!(await store.search.termsOutdated?.())) return false;
  await store.transaction(async (tx) => {
    // Another server may have finished while this one waited for the rows it locks.
    if (!(await tx.search.termsOutdated?.())) return;
    // Every space with items, registered or not: a space left out would keep no index entries at all.
    const spaces = new Set([...(await tx.spaces.list()), ...(await tx.spaces.holdingItems())]);
    for (const space of spaces) await reindexSpace(tx, space, contextTurns, episodeTrigram);
    await tx.search.markTermsCurrent?.();
  });
  return true;
}

/** Rebuilds the lexical index entries of every item of a space from its rows. */
export async function reindexSpace(tx: Store, space: string, contextTurns: number, episodeTrigram: boolean): Promise<void> {
  const tables: Array<[Layer, string]> = [['episode', 'episodes'], ['narrative', 'narratives'], ['knowledge', 'knowledge']];
  for (const [layer, table] of tables) {
    let batch: number[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await tx.search.unindex(layer, batch, space);
      if (layer === 'episode') {
        const rows = await tx.forSpace(space).episodes.getMany(batch);
        const docs = [];
        for (const e of rows) {
          // The same preceding-turn context record() indexed (recall.contextTurns, default 2).
          const around = e.session === null ? [] : await tx.forSpace(space).episodes.neighbours(e.id, contextTurns);
          const prev = around.slice(0, Math.max(0, around.findIndex((x) => x.id === e.id))).map((x) => x.content);
          docs.push({ id: e.id, ...episodeIndexText(e.content, e.speaker, prev, episodeTrigram) });
        }
        await tx.search.index(layer, docs, space);
      } else if (layer === 'narrative') {
        const rows = await tx.forSpace(space).narratives.getMany(batch);
        await tx.search.index(layer, rows.map((r) => ({ id: r.id, ...narrativeIndexText(r) })), space);
      } else {
        const rows = await tx.forSpace(space).knowledge.getMany(batch);
        await tx.search.index(layer, rows.map((r) => ({ id: r.id, ...knowledgeIndexText(r) })), space);
      }
      batch = [];
    };
    const ids: number[] = [];
    for await (const r of tx.rows.dump(space, table)) ids.push(Number(r.id));
    for (const id of ids) {
      batch.push(id);
      if (batch.length >= 500) await flush();
    }
    await flush();
  }
}
