/** Small helpers shared by the portable SQL stores: placeholders, JSON columns, booleans. */
import { representableTime } from '../../core/clock.js';
import { PREPARED, storableParams, type SqlDriver, type SqlValue, type StatementOptions } from '../sql-driver.js';

/** `?, ?, ?` for an IN list of `n` values (n ≥ 1). */
export function marks(n: number): string {
  return new Array(n).fill('?').join(', ');
}

/**
 * `column` among `ids`, as the engine reads it best: PostgreSQL one array parameter (`= ANY`), so the statement's text
 * is the same for any number of ids and stays prepared (`o`, StatementOptions); SQLite an IN list.
 */
export function idsIn(
  dialect: 'sqlite' | 'postgres',
  column: string,
  ids: readonly number[],
): { sql: string; params: Array<string | number>; o: StatementOptions } {
  if (dialect === 'postgres') return { sql: `${column} = ANY(?::bigint[])`, params: [`{${ids.join(',')}}`], o: PREPARED };
  return { sql: `${column} IN (${marks(ids.length)})`, params: [...ids], o: {} };
}

/** Where a JSON column was read: its table and column, the row (its `id` and `space` are reported) and the space asked. */
export interface ColumnAt {
  table: string;
  column: string;
  row: Record<string, unknown>;
  /** The space of the query, when the row was selected without its `space` column. */
  space?: string;
}

/** A JSON column that did not parse. */
export interface CorruptColumn {
  table: string;
  column: string;
  id: number | null;
  space: string | null;
  /** What is wrong, without the text itself (memory content never reaches the log). */
  error: string;
}

const corruptListeners = new Set<(c: CorruptColumn) => void>();

/**
 * Calls `listener` for every JSON column that fails to parse where it is read (any store of this process: the
 * row mappers are plain functions); returns the function that stops it.
 */
export function onCorruptColumn(listener: (c: CorruptColumn) => void): () => void {
  corruptListeners.add(listener);
  return () => corruptListeners.delete(listener);
}

/** Parses a JSON column, falling back to `fallback` on NULL or bad JSON; bad JSON read `at` a known place is reported. */
export function json<T>(v: unknown, fallback: T, at?: ColumnAt): T {
  if (typeof v !== 'string' || v === '') return fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    // Trigger: a column edited by hand or a torn write. Why: one bad row must not break a space's reads (issue #19).
    // Outcome: the safe value, and the place reported so doctor can name it. The parser's message quotes the text,
    // which is memory content and must not reach the log: only its length is said.
    if (at) {
      const c: CorruptColumn = {
        table: at.table, column: at.column, id: at.row.id === undefined ? null : num(at.row.id),
        space: typeof at.row.space === 'string' ? at.row.space : (at.space ?? null), error: `not valid JSON (${v.length} characters)`,
      };
      for (const l of corruptListeners) l(c);
    }
    return fallback;
  }
}

/** Serialises a JSON column; UTF-8 as written (no \\u escapes, unlike Tideline's BUG T-3). */
export function toJson(v: unknown): string {
  return JSON.stringify(v);
}

/**
 * Rows as a JSON array of objects with the given field names, for PostgreSQL's `json_to_recordset` (one parameter
 * for a whole batch). Text is made storable first (`storableParams`): a NUL or lone surrogate would otherwise reach
 * the server as a `\u0000` or `\ud800` escape, which its JSON reader refuses.
 */
export function jsonRecords(fields: readonly string[], rows: ReadonlyArray<readonly SqlValue[]>): string {
  return JSON.stringify(
    rows.map((r) => {
      const v = storableParams(r);
      const o: Record<string, unknown> = {};
      // A null is left out: json_to_recordset reads a missing key as NULL.
      fields.forEach((f, i) => {
        const x = v[i];
        if (x !== null && x !== undefined) o[f] = typeof x === 'bigint' ? String(x) : x;
      });
      return o;
    }),
  );
}

/** 0/1 integer from a boolean, null kept. */
export function bit(v: boolean | null | undefined): number | null {
  return v === null || v === undefined ? null : v ? 1 : 0;
}

/** Boolean from a 0/1 column, null kept. */
export function bool(v: unknown): boolean | null {
  return v === null || v === undefined ? null : Number(v) !== 0;
}

/** Number from an integer column that a driver may hand back as string or bigint. */
export function num(v: unknown): number {
  return typeof v === 'number' ? v : Number(v);
}

/** A stored time, made representable: see `representableTime` (a poisoned row must not break a space's reads). */
export function timeOf(v: unknown): number {
  return representableTime(num(v));
}

/** Nullable stored time. */
export function timeOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : timeOf(v);
}

/** Nullable number. */
export function numOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : num(v);
}

/** Splits `ids` into chunks small enough for one statement's parameter list. */
export function chunks<T>(ids: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

/**
 * The rows of `table` among `ids` that belong to `space` (`cols` selected, in no set order), read in chunks: the
 * layers' reads by id and their deletes' ownership check ask it, so an id of another space is never seen (knowledge's
 * reinforcement, ordered and locked, and the updates by id keep their own statements). `(space || '')` keeps
 * SQLite's planner on the primary key instead of the space index (harmless on PostgreSQL); PostgreSQL takes the ids
 * as one array parameter (`idsIn`).
 */
export async function rowsInSpace<T = Record<string, unknown>>(
  db: SqlDriver,
  table: string,
  cols: string,
  space: string,
  ids: readonly number[],
): Promise<T[]> {
  const out: T[] = [];
  for (const part of chunks(ids)) {
    const within = idsIn(db.dialect, 'id', part);
    out.push(
      ...(await db.all<T>(
        `SELECT ${cols} FROM ${table} WHERE (space || '') = ? AND ${within.sql}`,
        [space, ...within.params],
        within.o,
      )),
    );
  }
  return out;
}

/**
 * Whether a query term is one Chinese character, which lexical search matches as a prefix, the way stemming joins
 * English word forms: 搬 finds 搬家 and 搬进, 帮 finds 帮忙 (jieba indexes compounds as whole words).
 */
export function isHanPrefixTerm(term: string): boolean {
  return SINGLE_HAN.test(term);
}

const SINGLE_HAN = /^\p{Script=Han}$/u;

// Parameters per multi-row INSERT: far below SQLite's 32,766 and PostgreSQL's 65,535, large enough that a
// 300,000-row membership table goes in a few hundred statements.
const PARAMS_PER_STATEMENT = 4000;

/** Inserts `rows` into `table` with multi-row VALUES lists (one statement per batch). */
export async function insertRows(
  db: SqlDriver,
  table: string,
  cols: readonly string[],
  rows: readonly SqlValue[][],
): Promise<void> {
  const per = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / cols.length));
  const tuple = `(${marks(cols.length)})`;
  for (const part of chunks(rows, per)) {
    await db.run(
      `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${new Array(part.length).fill(tuple).join(', ')}`,
      part.flat(),
    );
  }
}

/**
 * Ids of `table`'s rows of a space whose `cols` contain `needle` as written, ascending. LIKE is portable; SQLite
 * matches ASCII letters of either case, PostgreSQL only the case given, so callers confirm each row with an exact
 * match of their own.
 */
export async function idsLike(
  db: SqlDriver,
  table: string,
  cols: readonly string[],
  space: string,
  needle: string,
  limit: number,
): Promise<number[]> {
  const like = `%${needle.replace(/[!%_]/g, (c) => `!${c}`)}%`;
  const where = cols.map((c) => `${c} LIKE ? ESCAPE '!'`).join(' OR ');
  const rows = await db.all<{ id: unknown }>(
    `SELECT id FROM ${table} WHERE space = ? AND (${where}) ORDER BY id LIMIT ?`,
    [space, ...cols.map(() => like), limit],
  );
  return rows.map((r) => num(r.id));
}
