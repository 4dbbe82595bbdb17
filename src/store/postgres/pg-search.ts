/** PostgreSQL lexical indexes: a weighted tsvector per item (GIN, ranked by FTS5's BM25) and its raw text for ILIKE / pg_trgm. */
import type { Layer } from '../../core/types.js';
import type { IndexBatch, IndexText, LexicalOptions, NewRows, SearchIndex } from '../port.js';
import { PREPARED, runsTogether, statementsTogether, takesAfterCommit, type SqlDriver, type SqlValue, type StatementOptions } from '../sql-driver.js';
import { COMMON_SHARE, fresh, LexicalPlanner, windowIdRuns, type PlanCounter } from '../sql/lexical-planner.js';
import { fts5Terms } from '../sql/fts5-tokens.js';
import { chunks, idsIn, isHanPrefixTerm, jsonRecords, marks, num } from '../sql/sql-util.js';
import {
  addLexicalDelta,
  COMPACT_AT,
  compactLexicalStats,
  deleteIndexedRows,
  dropLexicalStats,
  LexicalDelta,
  readLexicalStats,
  type LexicalStats,
} from './pg-lexical-stats.js';
import {
  HALF_MARK,
  halfOfNext,
  prefixKey,
  quoteLexeme,
  tsqueryLiteral,
  type Lexeme,
  tsvectorArray,
  tsvectorBinary,
  tsvectorLiteral,
  type TsvectorLength,
} from './pg-lexemes.js';

const T: Record<Layer, { table: string; fts: string; time: string }> = {
  episode: { table: 'episodes', fts: 'episodes_fts', time: 'occurred_at' },
  narrative: { table: 'narratives', fts: 'narratives_fts', time: 'created_at' },
  knowledge: { table: 'knowledge', fts: 'knowledge_fts', time: 'created_at' },
};

// Rows per indexing statement (one JSON parameter).
const BATCH = 2000;

/**
 * What the lexical tables hold, in the comment of `episodes_fts`: FTS5's terms (pg-lexemes.ts). Tables written by
 * the first versions (Snowball stems, no comment) are indexed again on open (`termsOutdated`); empty ones are marked
 * at migration.
 */
export const TERMS_FORMAT = 'tidepool terms: fts5 porter unicode61 remove_diacritics 2';
const TERMS_FORMAT_READ = "SELECT obj_description(to_regclass('episodes_fts'), 'pg_class') AS d";
export const TERMS_FORMAT_WRITE = `COMMENT ON TABLE episodes_fts IS '${TERMS_FORMAT}'`;

/** Escapes LIKE wildcards so a needle matches literally (used with ESCAPE '\'). */
export function likeLiteral(needle: string): string {
  return needle.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The same filters as the SQLite index (port `LexicalOptions`), over the item table aliased `x`. */
function filters(layer: Layer, o: LexicalOptions): { sql: string; params: SqlValue[] } {
  const t = T[layer];
  const where: string[] = [];
  const params: SqlValue[] = [];
  const add = (sql: string, ...values: SqlValue[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (o.since !== undefined) add(`x.${t.time} >= ?`, o.since);
  if (o.until !== undefined) add(`x.${t.time} <= ?`, o.until);
  if (layer === 'episode') {
    if (!o.includeArchived) add('x.archived_at IS NULL');
    if (o.session) add('x.session = ?', o.session);
  }
  if (layer === 'narrative' && o.minWeight !== undefined) add('x.weight >= ?', o.minWeight);
  if ((layer === 'narrative' || layer === 'knowledge') && o.kinds && o.kinds.length > 0) {
    add(`x.kind IN (${marks(o.kinds.length)})`, ...o.kinds);
  }
  if (layer === 'knowledge') {
    const st = o.statuses ?? ['provisional', 'reliable'];
    add(`x.status IN (${marks(st.length)})`, ...st);
    // Characters, as SQLite's substr counts them (code points).
    if (o.keyPrefix !== undefined) add('substr(x.key, 1, ?) = ?', [...o.keyPrefix].length, o.keyPrefix);
  }
  return { sql: where.map((w) => ` AND ${w}`).join(''), params };
}

/** A row's tsvector as sent (binary through node-postgres, text through PGlite) and its length in positions. */
interface Tsv {
  tsv: string | Buffer;
  len: number;
  /** Its distinct lexemes (the space's lexical statistics count them). */
  lexemes: readonly Lexeme[];
}

/**
 * What a row read through the GIN index costs against a row of a newest-first walk: its posting decoded, its heap
 * row visited out of order and sorted by id (1.5 against 0.3 µs a row at 100k, `recentMatches`).
 */
const GIN_MATCH_COST = 5;

/** One-lexeme terms whose ranks may give a row written without its length (schema < 3) its D (`#bm25Parts`). */
const LENGTH_BRANCHES = 4;

/** FTS5's BM25 constants (fts5_aux.c). */
const K1 = 1.2;
const B = 0.75;
/** Terms whose per-space row counts are remembered before starting over. */
const TERM_MEMO = 10_000;

/** A term's rows in the space (each space's idf is its own, as in SQLite's per-space tables) and its lexemes. */
interface TermStats {
  hits: number;
  lexemes: readonly string[];
  /** A single Chinese character: every lexeme it starts (as its `:*` query matches). */
  prefix: boolean;
  at: number;
}

/**
 * The rows of phrases (which the lexical statistics do not count), remembered per space, layer and term; recounted
 * once the index grew by more than 1 % of the space's rows.
 */
export class PgSearchMemo {
  readonly terms = new Map<string, TermStats>();
  /** Rows this store indexed, by layer, since it last asked for their GIN pending list to be merged. */
  readonly unmerged = new Map<Layer, number>();
  /** Deltas this store wrote, by layer, since it last asked whether enough are waiting to be folded. */
  readonly unfolded = new Map<Layer, number>();
}

/** Adds `n` to the layer's count; true (and the count back to 0) once it reaches `at`. */
function reached(counts: Map<Layer, number>, layer: Layer, n: number, at: number): boolean {
  const count = (counts.get(layer) ?? 0) + n;
  counts.set(layer, count >= at ? 0 : count);
  return count >= at;
}

/**
 * Rows indexed before the pending list is merged right after the commit; fewer wait for the store's close (or for a
 * later write that reaches this). A merge costs a fixed ~0.6 ms of server time, however few its rows (a one-turn
 * `record` spent as much on it as on its own statements). Rows left pending are read by every search of the layer
 * (its bitmap scan reads the list): at 100k, 250 rows added ~0.05 ms to a search, 1,000 ~0.4 ms, 4,000 ~1.6 ms; and
 * with 1,000 a burst of one-turn writes left a merge of that size for the searches after it.
 */
export const MERGE_AT = 100;
/** Writes of a layer between two asks whether its deltas are to be folded (`compactLexicalStats`). */
const CHECK_FOLD_EVERY = COMPACT_AT / 4;

/** A row and its BM25 score. */
interface Ranked {
  id: number;
  s: number;
}

/**
 * The `limit` best of rankings of parts of the candidates, best first (ties: the higher id, as the statements order
 * them). A row in several (the rows holding every term are also among the rare terms') counts with its best score.
 */
function bestOf(parts: ReadonlyArray<readonly Ranked[]>, limit: number): Ranked[] {
  const best = new Map<number, number>();
  for (const r of parts.flat()) best.set(r.id, Math.max(best.get(r.id) ?? -Infinity, r.s));
  return [...best].map(([id, s]) => ({ id, s })).sort((a, b) => b.s - a.s || b.id - a.id).slice(0, limit);
}

/**
 * A ranking sent back as one text, `id score id score …` best first (`string_agg` over the ranked rows), read into
 * rows. One value instead of a protocol row per hit: node-postgres spent ~1.2 µs of JavaScript on each row it parsed
 * (300 rows of an id and a score: ~500 µs of the client's CPU against ~180 µs as one text, issue 20). The score's
 * text is PostgreSQL's shortest exact form of the float8 (the same text a row would carry), so the numbers are equal.
 */
export function packedRanking(text: string | null): Ranked[] {
  if (text === null || text === '') return [];
  const p = text.split(' ');
  const out: Ranked[] = new Array(p.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = { id: Number(p[2 * i]), s: Number(p[2 * i + 1]) };
  return out;
}

/** Ids sent back as one text, `id id …` (`string_agg`), in its order: see `packedRanking`. */
export function packedIds(text: string | null): number[] {
  return text === null || text === '' ? [] : text.split(' ').map(Number);
}

/** The ids of a statement's rows (its `id` column), highest first, sent back as one text (`packedIds`). */
async function idsOf(db: SqlDriver, sql: string, params: readonly SqlValue[], o?: StatementOptions): Promise<number[]> {
  const r = await db.get<{ r: string | null }>(`SELECT string_agg(p.id::text, ' ' ORDER BY p.id DESC) AS r FROM (${sql}) p`, params, o);
  return packedIds(r?.r ?? null);
}

/** A ranking statement's rows (`id`, `s`), best first and equal scores the higher id first, sent back as one text (`packedRanking`). */
async function rankingOf(db: SqlDriver, sql: string, params: readonly SqlValue[]): Promise<Ranked[]> {
  const r = await db.get<{ r: string | null }>(`SELECT string_agg(p.id || ' ' || p.s, ' ' ORDER BY p.s DESC, p.id DESC) AS r FROM (${sql}) p`, params);
  return packedRanking(r?.r ?? null);
}

/** The ids a ranking takes: above `after` (0: all) and, when set, at most `upTo`. */
interface IdRange {
  after: number;
  upTo?: number;
}

/**
 * Candidates from which a ranking is split over two connections (`#bm25Parts`). Each half is a statement of its own
 * (~0.2 ms of round trip and planning), looks the words up in the GIN index again and, over the whole index, reads
 * every candidate's heap row (its half is a filter; a bounded range is halved by its bounds); it ranks only its half
 * (~1 µs a candidate). At 100k, 5,000 candidates took 9.4-12.3 ms whole and 7.2-9.6 ms as two halves at once
 * (2026-12-02, two cores). Halved by the half marker (`markHalves`) or by its words (`wordHalves`) instead, each
 * half reads only its own rows.
 */
const SPLIT_CANDIDATES = 2000;

/**
 * What a candidate costs a half, in µs: reading its heap row (the GIN bitmap's page visit, the tuple) and ranking it
 * (its words' `ts_rank_cd`). Measured at 100k for an OR of two rare words over 7,263 candidates (2026-12-05): the whole
 * ranking 11.3-11.5 ms, an id half 8.3-8.6 ms, less ~2 ms of index scan and planning each.
 */
const READ_US = 0.5;
const RANK_US = 0.8;

/**
 * An OR ranking's words parted in two by their rows, the larger part first (greedily, by each word's rows): the first
 * half ranks the rows holding a word of `first`, the second those holding a word of `second` and none of `first`, so
 * every candidate is ranked once, and each half reads only its own words' rows. Undefined when one word holds too
 * many of the rows for that to beat halving the ids, where each half reads every candidate and ranks half of them.
 */
export function wordHalves(parts: ReadonlyArray<{ query: string; rows: number }>): { first: string; second: string } | undefined {
  const byRows = new Map<string, number>();
  for (const p of parts) byRows.set(p.query, Math.max(byRows.get(p.query) ?? 0, p.rows));
  if (byRows.size < 2) return undefined;
  const sides: [string[], string[]] = [[], []];
  const rows: [number, number] = [0, 0];
  for (const [query, n] of [...byRows].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    const side = rows[0] <= rows[1] ? 0 : 1;
    sides[side].push(query);
    rows[side] += n;
  }
  if (!evenEnough(rows[0], rows[1])) return undefined;
  const text = (qs: readonly string[]) => qs.map((q) => `(${q})`).join(' | ');
  return { first: text(sides[0]), second: text(sides[1]) };
}

/**
 * Whether two disjoint halves of the candidates, of `a` and `b` rows, beat halving the ids. The slower half of each
 * plan, per candidate: parted, the larger side reads and ranks its rows; by ids, each half reads all of them and
 * ranks half.
 */
function evenEnough(a: number, b: number): boolean {
  const all = a + b;
  return all > 0 && (Math.max(a, b) / all) * (READ_US + RANK_US) < READ_US + RANK_US / 2;
}

/**
 * A match parted in two by the half marker (`HALF_MARK`, pg-lexemes.ts): the rows holding it, and the others (rows
 * written before the marker existed among them). Each half reads only its own rows, which lie mostly in pages of
 * their own; undefined when the space's marked rows (`marked` of `rows`) are too few or too many for that to beat
 * halving the ids.
 */
export function markHalves(match: string, rows: number, marked: number): { first: string; second: string } | undefined {
  if (!evenEnough(rows - marked, marked)) return undefined;
  return { first: `(${match}) & !${quoteLexeme(HALF_MARK)}`, second: `(${match}) & ${quoteLexeme(HALF_MARK)}` };
}

/** A BM25 ranking asked of `PgSearch`: the `limit` best rows of the layer matching `match` among `ids`. */
interface Bm25Ask {
  scope: Scope;
  layer: Layer;
  /** The index's top id (memos, and the id range a split halves). */
  top: number;
  terms: readonly string[];
  match: TsqAll;
  ids: IdRange;
  limit: number;
  /** Only the space's rows passing these filters (joined to the item table). */
  within?: { sql: string; params: SqlValue[] };
  /** May run as two halves on two connections (`#bm25Parts`). */
  split?: boolean;
  /**
   * The asked terms, of which `terms` are the rare ones (a common word left the OR query): a candidate holding every
   * one of them is also scored by all of them, and keeps the larger score (`#bm25Parts`).
   */
  every?: { terms: readonly string[]; match: TsqAll };
}

/** The space BM25 counts over, and whether it holds every row of the layer (its counts need no join then). */
interface Scope {
  space: string;
  alone: boolean;
  /** The query's statistics, read at its start. */
  read?: QueryStats;
}

const termKey = (space: string, layer: Layer, w: string) => `${layer}\u001f${space}\u001f${w}`;


/** One term as a tsquery expression and its parameter: FTS5's terms, never user syntax (DESIGN §3). */
function tsq(w: string): { sql: string; param: string } {
  // A multi-word term is a phrase, as a quoted FTS5 string is; a single Chinese character is a prefix, as in SQLite.
  // A term without tokens never reaches here (`lexical` drops it), but would match nothing.
  return { sql: '?::tsquery', param: tsqueryLiteral(w, isHanPrefixTerm(w)) ?? '' };
}

/** A one-word term's lexeme, whose rows the lexical statistics count; undefined for a phrase or a Chinese prefix. */
function lexemeOf(w: string): string | undefined {
  if (isHanPrefixTerm(w)) return undefined;
  const terms = fts5Terms(w);
  return terms.length === 1 ? terms[0] : undefined;
}

/** A Chinese prefix's key in the lexical statistics (`prefixKey`): its rows are counted there; undefined for any other term. */
function prefixOf(w: string): string | undefined {
  const first = isHanPrefixTerm(w) ? fts5Terms(w)[0] : undefined;
  return first === undefined ? undefined : prefixKey(first);
}

/** What the lexical statistics count of a term: a one-word term's lexeme or a Chinese prefix's key; not a phrase. */
function statOf(w: string): string | undefined {
  return lexemeOf(w) ?? prefixOf(w);
}

/** The statistics' keys of the terms that have one (`statOf`), each once. */
function statKeys(terms: readonly string[]): string[] {
  return [...new Set(terms.map(statOf).filter((l): l is string => l !== undefined))];
}

/**
 * The lexical statistics of `lexemes` in a space and layer: the query's own (`read`, taken at its start) when they
 * answer, else read now.
 */
async function statsOf(db: SqlDriver, space: string, layer: Layer, lexemes: readonly string[], read?: QueryStats): Promise<QueryStats> {
  if (read?.answers(space, layer) && lexemes.every((l) => read.hits.has(l))) return read;
  return new QueryStats(space, layer, lexemes, await readLexicalStats(db, layer, space, lexemes));
}

/**
 * Terms joined by OR or AND, as tsquery expressions with their parameters and as one tsquery text. A term asked twice
 * is matched once (the GIN index scanned each copy of it); BM25 still scores it as often as it was asked, as FTS5
 * does.
 */
function tsqAll(terms: readonly string[], op: '||' | '&&'): TsqAll {
  const params = [...new Set(terms.map((w) => tsq(w).param))];
  return {
    sql: `(${params.map(() => '?::tsquery').join(` ${op} `)})`,
    params,
    text: params.map((p) => `(${p})`).join(op === '||' ? ' | ' : ' & '),
    op,
  };
}

/** Terms joined by OR or AND (`tsqAll`). */
interface TsqAll {
  sql: string;
  params: string[];
  text: string;
  op: '||' | '&&';
}

/**
 * tsvector-backed SearchIndex with SQLite's search plan: the shared `LexicalPlanner` (per-space counts through
 * `pgPlanCounter`, the same constants) decides which terms are scored; common terms leave the OR query while the
 * rows holding every term are fetched first; when all are common the newest rows holding all of them win.
 * Candidates are ranked by FTS5's BM25 (see `#bm25`), so both engines order the same rows alike.
 */
export class PgSearch implements SearchIndex {
  readonly #db: SqlDriver;
  readonly #memo: PgSearchMemo;
  readonly #planner: LexicalPlanner;
  readonly #binary: boolean;
  /**
   * `planner` and `memo` are shared by a store and its transactions (their counts come from committed rows);
   * without them this index plans over `db` alone. `binaryTsvector`: the driver binds a Buffer as a binary
   * parameter (node-postgres does; PGlite does not), so tsvectors are sent in PostgreSQL's binary format.
   */
  constructor(
    db: SqlDriver,
    memo: PgSearchMemo = new PgSearchMemo(),
    planner: LexicalPlanner = new LexicalPlanner(pgPlanCounter(db)),
    o: { binaryTsvector?: boolean } = {},
  ) {
    this.#db = db;
    this.#memo = memo;
    this.#planner = planner;
    this.#binary = o.binaryTsvector ?? false;
  }

  #tsvector(d: IndexText): Tsv {
    // Weights as in the SQLite index: body A, speaker/tags B, the preceding turns of an episode (ctx) C.
    const fields = [[d.body, 'A'], [d.extra, 'B'], [d.ctx ?? '', 'C']] as const;
    const len: TsvectorLength = { length: 0, lexemes: [] };
    // Rows written one after another share a half of the index (`halfOfNext`): a long ranking reads each half on a
    // connection of its own (`markHalves`).
    const half = { half: halfOfNext() };
    const tsv = this.#binary ? tsvectorBinary(fields, len, half) : tsvectorLiteral(fields, len, half);
    return { tsv, len: len.length, lexemes: len.lexemes! };
  }

  async index(layer: Layer, docs: ReadonlyArray<{ id: number } & IndexText>, space: string): Promise<void> {
    const batch = this.indexing(layer, space);
    await batch.add(docs);
    await batch.finish();
  }

  indexing(layer: Layer, space: string): IndexBatch {
    const t = T[layer];
    const delta = new LexicalDelta();
    // One JSON parameter per part (json_to_recordset): one statement where multi-row VALUES needed ten. The
    // tsvectors arrive finished, built from FTS5's terms (pg-lexemes.ts): the same terms as SQLite, and PostgreSQL's
    // parser and stemmer (most of the statement's time) no longer run on ingest. In binary form they are a second
    // parameter, zipped with the records by ROWS FROM (row i with element i). Each row's length (its positions) is
    // stored beside it: BM25 reads it instead of ranking the row once more. Returns the ids it indexed.
    const insert = async (docs: ReadonlyArray<{ id: number } & IndexText>, tsvs: readonly Tsv[]): Promise<number[]> => {
      const rows = await this.#db.all<{ id: unknown }>(
        this.#binary
          ? `INSERT INTO ${t.fts} (id, tsv, raw, len)
             SELECT u.id, u.tsv, u.raw, u.len
             FROM ROWS FROM (json_to_recordset(?::json) AS (id bigint, raw text, len integer), unnest(?::tsvector[])) AS u(id, raw, len, tsv)
             ON CONFLICT (id) DO NOTHING RETURNING id`
          : `INSERT INTO ${t.fts} (id, tsv, raw, len)
             SELECT u.id, u.tsv::tsvector, u.raw, u.len FROM json_to_recordset(?::json) AS u(id bigint, tsv text, raw text, len integer)
             ON CONFLICT (id) DO NOTHING RETURNING id`,
        this.#binary
          ? [jsonRecords(['id', 'raw', 'len'], docs.map((d, i) => [d.id, d.raw, tsvs[i]!.len])), tsvectorArray(tsvs.map((x) => x.tsv as Buffer))]
          : [jsonRecords(['id', 'tsv', 'raw', 'len'], docs.map((d, i) => [d.id, tsvs[i]!.tsv as string, d.raw, tsvs[i]!.len]))],
        // A fixed text run for every batch: planned once per connection.
        PREPARED,
      );
      return rows.map((r) => num(r.id));
    };
    // Ids indexed already (callers unindex first; this keeps the statistics exact if one did not): their old entries
    // leave the index and the statistics, and the new ones go in. Only those: a row this write inserted was never
    // counted in the statistics, and deleting it would subtract it.
    const replace = async (docs: ReadonlyArray<{ id: number } & IndexText>, tsvs: readonly Tsv[]): Promise<void> => {
      if (docs.length === 0) return;
      await deleteIndexedRows(this.#db, t.fts, layer, space, docs.map((d) => d.id));
      await insert(docs, tsvs);
    };
    const add = async (docs: ReadonlyArray<{ id: number } & IndexText>): Promise<void> => {
      for (const part of chunks(docs, BATCH)) {
        const tsvs = part.map((d) => this.#tsvector(d));
        for (const x of tsvs) delta.add(x.len, x.lexemes);
        const inserted = await insert(part, tsvs);
        if (inserted.length === part.length) continue;
        const done = new Set(inserted);
        const again = part.flatMap((d, i) => (done.has(d.id) ? [] : [i]));
        await replace(again.map((i) => part[i]!), again.map((i) => tsvs[i]!));
      }
    };
    // One statement a part: the rows inserted (ids from the table's identity, drawn in input order), then the entries
    // of those it kept, each found by place: a row with a conflict value by the first place holding that value (a
    // later repeat is the one skipped), the others by their order among such rows, which their ids follow. The app's
    // work (records, tsvectors) is done before the function is returned; the server's, when it is called (issue 20:
    // the writer waited for a part's ids before it could send its entries, and the server for the entries). Ids are
    // not drawn by nextval(), which asks a right on the sequence that an insert through the identity does not.
    const rowsWith = (rows: NewRows, docs: readonly IndexText[]): (() => Promise<Array<{ id: number; at: number }>>) => {
      const k = rows.conflict.key;
      if (!rows.columns.some((c) => c.key === k)) throw new Error(`rowsWith: no column read from record key ${k}`);
      const taken = rows.columns.find((c) => ['raw', 'len', 'tsv', 'at'].includes(c.key));
      if (taken) throw new Error(`rowsWith: record key ${taken.key} is taken by the index entries`);
      const tsvs = docs.map((d) => this.#tsvector(d));
      const index = this.#binary
        ? jsonRecords(['raw', 'len'], docs.map((d, i) => [d.raw, tsvs[i]!.len]))
        : jsonRecords(['raw', 'len', 'tsv'], docs.map((d, i) => [d.raw, tsvs[i]!.len, tsvs[i]!.tsv as string]));
      const keys = rows.columns.map((c) => `${c.key} ${c.type}`).join(', ');
      const names = rows.columns.map((c) => c.key).join(', ');
      const keyColumn = rows.columns.find((c) => c.key === k)!.column;
      const sql = `WITH u AS MATERIALIZED (
          SELECT * FROM ROWS FROM (json_to_recordset(?::json) AS (${keys}), json_to_recordset(?::json) AS (raw text, len integer${
            this.#binary ? '), unnest(?::tsvector[])' : ', tsv text)'
          }) WITH ORDINALITY AS r(${names}, raw, len, tsv, at)
        ), kept AS (
          INSERT INTO ${t.table} (space, ${rows.columns.map((c) => c.column).join(', ')})
          SELECT ?, ${rows.columns.map((c) => `u.${c.key}`).join(', ')} FROM u ORDER BY u.at
          ${rows.conflict.sql} RETURNING id, ${keyColumn} AS k
        ), placed AS (
          SELECT kept.id, f.at FROM kept JOIN (SELECT ${k} AS k, min(at) AS at FROM u WHERE ${k} IS NOT NULL GROUP BY ${k}) f USING (k)
          UNION ALL
          SELECT n.id, m.at FROM (SELECT id, row_number() OVER (ORDER BY id) AS o FROM kept WHERE k IS NULL) n
            JOIN (SELECT at, row_number() OVER (ORDER BY at) AS o FROM u WHERE ${k} IS NULL) m USING (o)
        ), indexed AS (
          INSERT INTO ${t.fts} (id, tsv, raw, len)
          SELECT p.id, u.tsv${this.#binary ? '' : '::tsvector'}, u.raw, u.len FROM placed p JOIN u USING (at)
        )
        SELECT id, at FROM placed`;
      const params: SqlValue[] = this.#binary
        ? [rows.records, index, tsvectorArray(tsvs.map((x) => x.tsv as Buffer)), rows.space]
        : [rows.records, index, rows.space];
      return async () => {
        // The same text for every part of a layer: planned once per connection.
        const got = await this.#db.all<{ id: unknown; at: unknown }>(sql, params, PREPARED);
        return got.map((g) => {
          const at = num(g.at) - 1;
          delta.add(tsvs[at]!.len, tsvs[at]!.lexemes);
          return { id: num(g.id), at };
        });
      };
    };
    const finish = async (): Promise<void> => {
      if (delta.rows === 0) return;
      await addLexicalDelta(this.#db, layer, space, delta);
      // After the commit where the driver can (node-postgres: on another connection, while the writer goes on), else
      // before it: the merge was 14 of the 134 ms a 1,000-turn batch waited for the server at 100k. The deltas are
      // folded there too, a few writes at a time.
      const merge = (db: SqlDriver) => PgSearch.#mergePending(db, layer);
      const compact = (db: SqlDriver) => compactLexicalStats(db, layer);
      if (takesAfterCommit(this.#db)) {
        // A batch merges at once; a trickle of small writes (a server recording each turn) once per MERGE_AT rows,
        // and what is left when the store closes.
        this.#db.afterCommit(`gin-merge:${layer}`, merge, { atClose: !reached(this.#memo.unmerged, layer, delta.rows, MERGE_AT) });
        // Whether COMPACT_AT deltas wait is asked every CHECK_FOLD_EVERY writes of this store (a statement each time,
        // most finding too few): with several writers, each asks at least that often, so the deltas readers add up
        // stay few.
        this.#db.afterCommit(`lexical-compact:${layer}`, compact, { atClose: !reached(this.#memo.unfolded, layer, 1, CHECK_FOLD_EVERY) });
      } else {
        await merge(this.#db);
        await compact(this.#db);
      }
    };
    return { add, rowsWith, finish };
  }

  /**
   * Merges the pending lists of the layer's GIN indexes (fastupdate, migrate-postgres.ts) right after each write:
   * one sorted merge per batch costs a fraction of updating every posting in place, and searches never scan a long
   * list. Only a role owning the index may merge (as for VACUUM); for another the list is merged when it is full.
   */
  static async #mergePending(db: SqlDriver, layer: Layer): Promise<void> {
    const fts = T[layer].fts;
    await db.get(
      `SELECT count(gin_clean_pending_list(c.oid::regclass)) AS n FROM pg_class c
       WHERE c.oid IN (to_regclass(?), to_regclass(?)) AND pg_has_role(c.relowner, 'USAGE')`,
      [`ix_${fts}`, `ix_${fts}_trgm`],
    );
  }

  async termsOutdated(): Promise<boolean> {
    return (await this.#db.get<{ d: string | null }>(TERMS_FORMAT_READ))?.d !== TERMS_FORMAT;
  }

  async markTermsCurrent(): Promise<void> {
    await this.#db.run(TERMS_FORMAT_WRITE);
  }

  async unindex(layer: Layer, ids: readonly number[], space: string): Promise<void> {
    if (ids.length === 0) return;
    for (const part of chunks(ids)) await deleteIndexedRows(this.#db, T[layer].fts, layer, space, part);
    // Folded now, in the same transaction: a word only the forgotten rows held leaves the statistics with them.
    await compactLexicalStats(this.#db, layer, { space, all: true });
  }

  async dropSpace(space: string): Promise<void> {
    await dropLexicalStats(this.#db, space);
  }

  async lexical(space: string, layer: Layer, asked: readonly string[], o: LexicalOptions): Promise<Array<{ id: number; score: number }>> {
    // Terms without a token (punctuation alone) match nothing on either engine.
    const terms = asked.filter((w) => fts5Terms(w).length > 0);
    if (terms.length === 0) return [];
    const t = T[layer];
    // The statistics of every one-word term, the space's rows and tokens and the index's top id: one statement that
    // answers the plan and BM25 both.
    // The half marker's rows too: how evenly it parts the space's rows (`markHalves`).
    const lexemes = [...statKeys(terms), HALF_MARK];
    const read = new QueryStats(space, layer, lexemes, await readLexicalStats(this.#db, layer, space, lexemes, { topOf: t.fts }));
    // Nothing can match when the space has no row in this layer's index, or when no row of it holds any of the words
    // (the figures are exact): no search statement. A recall asks every layer, and a space's knowledge or narratives
    // are often empty or lack the words (two round trips each, 3-8 ms at 100k).
    const holdsNone = (w: string) => {
      const k = statOf(w);
      return k !== undefined && read.hits.get(k) === 0;
    };
    if (read.stats.rows === 0 || terms.every(holdsNone)) return [];
    const counter = pgPlanCounter(this.#db, read);
    const plan = await this.#planner.plan(space, layer, terms, counter);
    // The planner counted the space's rare terms: BM25's counts, already taken.
    const scope: Scope = { space, alone: plan.alone, read };
    if (plan.counts) this.#rememberCounts(scope, layer, plan.top, plan.counts);
    // A time window's rows lie in one short run of ids, or in a few when history was imported between them
    // (`windowIdRuns`): each run is then ranked on its own.
    const runs = await windowIdRuns(this.#db, T[layer], space, o);
    if (runs === null) return [];
    const span = runs && { lo: runs[0]!.lo, hi: runs[runs.length - 1]!.hi };
    const lo = Math.max(plan.minRowid ?? 0, span ? span.lo - 1 : 0);
    const ids: IdRange = { after: lo, upTo: span ? span.hi : undefined };
    // The id ranges ranked: the window's runs above the plan's floor (one run: `ids`), or `ids` without a window.
    const ranges = runs ? runs.map((r) => ({ after: Math.max(plan.minRowid ?? 0, r.lo - 1), upTo: r.hi })) : [ids];
    // Score in the index alone, then keep this space's rows that pass the filters; over-fetch, and fall back to the
    // join when the filters drop too many (as SQLite does).
    const fetch = o.limit * 3;
    // The OR ranking of the terms scored. When every term is common, the two rarest of late are counted only if a
    // ranking needs them: the newest rows holding every term usually answer (`LexicalPlan.rarestOfLate`; the planner
    // remembers them, so asking again costs nothing).
    const rare = async (): Promise<Omit<Bm25Ask, 'limit'>> => {
      const ts = await this.#planner.scoredTerms(plan, space, layer, counter);
      return { scope, layer, top: plan.top, terms: ts, match: tsqAll(ts, '||'), ids };
    };
    const scored = async () => bestOf(await statementsTogether(this.#db, await this.#bm25In({ ...(await rare()), limit: fetch, split: true }, ranges)), fetch);
    const f = filters(layer, o);
    const direct = async () =>
      (await this.#bm25({ ...(await rare()), limit: o.limit, within: f })).map((r) => ({
        id: r.id,
        score: r.s,
      }));
    // A space holding a small share of the index (ids run across spaces, so `top` bounds the index's rows) would
    // find about share × fetch of its rows among the index's best: fewer than `limit` sends it to the join below
    // anyway, after scoring other spaces' rows for nothing. Rank the space's rows directly.
    if (!plan.alone && !plan.dropped && plan.minRowid === undefined && plan.rows * fetch < plan.top * o.limit) return direct();
    let raw: Ranked[];
    if (plan.minRowid !== undefined && !span) {
      // Every word is common: the newest rows holding all of them rank first.
      const all = tsqAll(terms, '&&');
      // When the space holds the whole index and its statistics say that rows holding every word are frequent
      // (taking the words as independent), a walk over the newest rows finds them sooner than intersecting each
      // word's rows from the GIN index ("the" and "time" at 100k: 60 % of rows hold both, against 160k postings).
      // The walk reads at most twice the rows expected; short of `fetch` matches there, the GIN index answers.
      const shares = terms.map((w) => {
        const l = lexemeOf(w);
        return l === undefined || plan.rows === 0 ? undefined : (read.hits.get(l) ?? 0) / plan.rows;
      });
      const expected = shares.every((x) => x !== undefined && x > 0) ? fetch / shares.reduce((a, b) => a! * b!, 1)! : Infinity;
      const postings = terms.reduce((n, w) => n + (read.hits.get(lexemeOf(w) ?? '') ?? 0), 0);
      let newest: number[] = [];
      if (plan.alone && 2 * expected < postings) newest = (await newestMatches(this.#db, t.fts, all, fetch, Math.ceil(2 * expected))).ids;
      if (newest.length < fetch) {
        newest = await idsOf(this.#db, `SELECT f.id AS id FROM ${t.fts} f WHERE f.tsv @@ ${all.sql} ORDER BY f.id DESC LIMIT ?`, [
          ...all.params,
          fetch,
        ]);
      }
      raw = newest.length === fetch ? newest.map((id, i) => ({ id, s: 1 - i / (2 * fetch) })) : await scored();
    } else if (plan.dropped) {
      // Rows holding every asked term first, scored by all of them; then the OR of the rare ones. Every term's figures
      // are taken first (phrases counted once, and remembered): counted inside both rankings, they were counted twice,
      // and on two more connections at once.
      await this.#stats(scope, layer, plan.top, terms);
      const ask = await rare();
      const every = { terms, match: tsqAll(terms, '&&') };
      if (!runs) {
        // Over the whole index the rows holding every term are among the rare terms' rows: one ranking (or its two
        // halves) scores them by both and keeps the larger (`Bm25Ask.every`). Ranked apart, they waited for both
        // halves of the rare terms' ranking to end, each half on one of the recall's two connections.
        raw = bestOf(await statementsTogether(this.#db, await this.#bm25Parts({ ...ask, limit: fetch, split: true, every })), fetch);
      } else {
        // A time window's runs: each ranked apart, on the pool's connections outside a transaction
        // (`statementsTogether`, two at a time). The rare terms' halves go first, so both connections start on the
        // long rankings and the first to finish ranks the rows holding every term.
        const [rareParts, allParts] = await Promise.all([
          this.#bm25In({ ...ask, limit: fetch, split: true }, ranges),
          this.#bm25In({ ...ask, ...every, limit: fetch }, runs.map((r) => ({ after: r.lo - 1, upTo: r.hi }))),
        ]);
        raw = bestOf(await statementsTogether(this.#db, [...rareParts, ...allParts]), fetch);
      }
    } else {
      raw = await scored();
    }
    if (raw.length === 0) return [];
    const out = await this.#keepInOrder(t.table, raw, space, f, o.limit);
    if (out.length >= o.limit || raw.length < fetch) return out.slice(0, o.limit);
    // Too few of the best rows are this space's (or pass the filters): rank the space's matching rows directly.
    return direct();
  }

  /**
   * The first `limit` of `raw` (best first) that are the space's rows and pass the filters: the best `limit` ids are
   * checked first, the rest only when some of those were dropped. The same rows as checking all of `raw` at once, with
   * a third of the primary-key reads when none is dropped (`raw` is over-fetched three times; each read is a random
   * page: 1-3 ms for 300 ids at 100k).
   */
  async #keepInOrder(
    table: string,
    raw: readonly Ranked[],
    space: string,
    f: { sql: string; params: SqlValue[] },
    limit: number,
  ): Promise<Array<{ id: number; score: number }>> {
    const out: Array<{ id: number; score: number }> = [];
    for (const part of [raw.slice(0, limit), raw.slice(limit)]) {
      if (part.length === 0 || out.length >= limit) break;
      const within = idsIn('postgres', 'x.id', part.map((r) => r.id));
      const kept = new Set(
        await idsOf(
          this.#db,
          // `space || ''` keeps the planner on the primary key: without statistics (autovacuum off or behind) it took
          // the space's index and read every row of the space (98 ms of 119 at 100k).
          `SELECT x.id AS id FROM ${table} x WHERE ${within.sql} AND (x.space || '') = ?${f.sql}`,
          [...within.params, space, ...f.params],
          within.o,
        ),
      );
      for (const r of part) if (kept.has(r.id)) out.push({ id: r.id, score: r.s });
    }
    return out;
  }

  /**
   * The statements that rank the rows matching `match` (one, or two halves of the ids when `split` allows and the
   * candidates are many), each giving its part's `limit` best; `#bm25` runs them and keeps the `limit` best. Scored by FTS5's BM25 (fts5_aux.c): per term, idf = log((N - n + 0.5) /
   * (n + 0.5)) (at least 1e-6) over the space's rows (N, n and avgdl are the space's: `#stats`), times f·(k1 + 1) / (f + k1·(1 - b + b·D / avgdl)), where f is
   * the term's occurrences weighted by column (the A/B/C weights of the lexeme's positions in the tsvector), D the
   * row's tokens and avgdl the layer's mean. Every candidate is scored exactly, in C: `ts_rank_cd` without
   * normalisation of a one-lexeme (or prefix) query is the sum of its positions' weights, which is f; with
   * normalisation 2 it is divided by the row's positions, which gives D. (Unnesting each candidate's tsvector in SQL
   * cost ~0.1 ms a row, so only a ts_rank pre-selection was scored exactly before.) Candidates are the rows holding a
   * rare term (or all terms, or the newest window), never every row of a common word. With `within`, only the
   * space's rows passing those filters.
   */
  async #bm25Parts({ scope, layer, top, terms, match, ids, limit, within, split = false, every }: Bm25Ask): Promise<Array<() => Promise<Ranked[]>>> {
    const t = T[layer];
    const { rows: n, avgdl, terms: counted } = await this.#stats(scope, layer, top, every ? [...terms, ...every.terms] : terms);
    // The OR query's terms; `every`'s follow them.
    const stats = counted.slice(0, terms.length);
    // Column weights as SQLite's bm25(): body (A) 1.0; an episode's speaker (B) and preceding turns (C) 0.3, other
    // layers' tags (B) 0.5. In ts_rank_cd's order {D, C, B, A}; no position is weighted D.
    const weights = `'{0.1, 0.3, ${layer === 'episode' ? 0.3 : 0.5}, 1.0}'`;
    // Parameters by the part of the statement they appear in (the length's part is written before the f's).
    const fParams: SqlValue[] = [];
    const lenParams: SqlValue[] = [];
    const rank = (into: SqlValue[], tsv: string, query: string, norm: 0 | 2) => {
      into.push(query);
      return `ts_rank_cd(${weights}, ${tsv}, ?::tsquery, ${norm})::float8`;
    };
    // One f per distinct term; a repeated term is scored once for each time it was asked, as FTS5 does.
    const column = new Map<string, number>();
    const freqs: string[] = [];
    // D from a single-lexeme f: for a row where it is positive, f / (its rank normalised by length) is D.
    const lengthBy: string[] = [];
    // A term is one lexeme (or a prefix), or a phrase of several.
    const single = (st: TermStats) => st.prefix || st.lexemes.length === 1;
    const partsOf = (st: TermStats, w: string) => (single(st) ? [tsq(w).param] : [...new Set(st.lexemes)].map((l) => quoteLexeme(l)));
    // Rows matching any of several lexemes mostly hold one of them: a lexeme's rank is taken only where the row holds
    // it (`@@`, a binary search in the tsvector, against ~0.4 µs for ts_rank_cd, which gives 0 there anyway). Rows
    // matching all of them hold each: no check.
    const guarded = match.op === '||' && new Set(stats.flatMap((st, i) => partsOf(st, terms[i]!))).size > 1;
    const count = (q: string) => {
      if (!guarded) return rank(fParams, 'f.tsv', q, 0);
      fParams.push(q);
      return `CASE WHEN f.tsv @@ ?::tsquery THEN ${rank(fParams, 'f.tsv', q, 0)} ELSE 0 END`;
    };
    const col = stats.map((st, i) => {
      const w = terms[i]!;
      const seen = column.get(w);
      if (seen !== undefined) return seen;
      // A phrase's lexemes share its occurrences: their mean stands for the phrase's count.
      const one = single(st);
      const parts = partsOf(st, w);
      const k = freqs.length;
      freqs.push(`(${parts.map(count).join(' + ')}) / ${one ? 1 : st.lexemes.length} AS f${k}`);
      if (one && lengthBy.length < LENGTH_BRANCHES) lengthBy.push(`WHEN e.f${k} > 0 THEN e.f${k} / nullif(${rank(lenParams, 'e.tsv', parts[0]!, 2)}, 0)`);
      column.set(w, k);
      return k;
    });
    // The terms only `every` asks (the common words left out): their f is taken in the middle level, and only where
    // the row holds every asked term (`e.every`, one `@@` a candidate); elsewhere it counts for nothing. A row
    // holding every term holds each, so its f is the unguarded rank, as a ranking of those rows alone takes it.
    const everyParams: SqlValue[] = [];
    const later: string[] = [];
    const everyCol = (every?.terms ?? []).map((w, j) => {
      const seen = column.get(w);
      if (seen !== undefined) return seen;
      const st = counted[terms.length + j]!;
      const k = freqs.length + later.length;
      const parts = partsOf(st, w).map((q) => rank(everyParams, 'e.tsv', q, 0));
      later.push(`CASE WHEN e.every THEN (${parts.join(' + ')}) / ${single(st) ? 1 : st.lexemes.length} ELSE 0 END AS f${k}`);
      column.set(w, k);
      return k;
    });
    // D (the row's tokens): ts_rank_cd normalised by length (2) divides by it. Taken from a one-lexeme query whose f
    // is positive (each such call costs ~0.4 µs a row), else from the whole match (~2 µs a row: most of a common
    // query's time when every row paid it, 56 against 19 ms for 8,251 candidates).
    const whole = `${rank(lenParams, 'e.tsv', match.text, 0)} / nullif(${rank(lenParams, 'e.tsv', match.text, 2)}, 0)`;
    // Rows written since the length column exists carry D (`len`); older rows take it from their ranks, by the first
    // few one-lexeme terms (a branch each: a long prompt's 200 of them cost more to plan, on every query, than they
    // save on the old rows they serve), else by the whole match.
    const length = `coalesce(e.stored_len, round(${lengthBy.length > 0 ? `CASE ${lengthBy.join(' ')} ELSE ${whole} END` : whole}))`;
    // BM25's length normalisation, once a row: every term's part divides by it (it was computed again for each).
    const norm = `${K1} * (${1 - B} + ${B} * coalesce(${length}, ${avgdl}) / ${avgdl > 0 ? avgdl : 1}) AS norm`;
    const sum = (of: readonly TermStats[], cols: readonly number[]) =>
      of
        .map((st, i) => {
          const idf = Math.log((n - st.hits + 0.5) / (st.hits + 0.5));
          return `${(idf > 0 ? idf : 1e-6).toFixed(6)} * d.f${cols[i]} * ${K1 + 1} / (d.f${cols[i]} + d.norm)`;
        })
        .join(' + ');
    // With `every`, a row holding every asked term keeps the larger of its two scores: the same rows, in the same
    // order, as the best of this ranking and of one of those rows alone (each row's scores are computed alike).
    const rareScore = sum(stats, col);
    const score = every
      ? `CASE WHEN d.every THEN greatest(${rareScore}, ${sum(counted.slice(terms.length), everyCol)}) ELSE ${rareScore} END`
      : rareScore;
    const join = within ? ` JOIN ${t.table} x ON x.id = f.id AND x.space = ?${within.sql}` : '';
    const fs = freqs.map((_, k) => `e.f${k}`).join(', ');
    // OFFSET 0 keeps each subquery whole: flattened, each f and D was computed again wherever the score names it.
    type Half = { after: number } | { upTo: number } | { words: string; without?: string };
    // The rows a ranking takes: the match (or a word half's words, less the other half's: `wordHalves`; or a marker
    // half's match, `markHalves`) in an id range.
    const rowsOf = (whole: IdRange, half?: Half): { sql: string; params: SqlValue[] } => {
      if (half !== undefined && 'words' in half) {
        return half.without === undefined
          ? { sql: 'f.tsv @@ ?::tsquery', params: [half.words] }
          : { sql: 'f.tsv @@ ?::tsquery AND NOT f.tsv @@ ?::tsquery', params: [half.words, half.without] };
      }
      // Without bounds of its own, a half's bound is a filter on the rows the GIN index gives (`+ 0`): as an index
      // condition, the planner ANDed the primary key's bitmap of half the index (1.5 of a half's 6 ms at 100k) with
      // the word's. A range that has a bound (the newest rows, a time window) may be read through the primary key:
      // there the half narrows the range itself, or each half read the whole range (`id > floor`) and dropped the
      // other's rows (20,000 rows read for 1,425 kept: 15.9 against 9.9 ms).
      const bounded = whole.after > 0 || whole.upTo !== undefined;
      const filter = bounded ? undefined : half;
      // A bounded range's half: the range and the half together.
      const r: IdRange = !bounded || half === undefined ? whole
        : 'after' in half ? { after: Math.max(whole.after, half.after), upTo: whole.upTo }
        : { after: whole.after, upTo: Math.min(whole.upTo ?? half.upTo, half.upTo) };
      const floor = `${r.after > 0 ? ' AND f.id > ?' : ''}${r.upTo !== undefined ? ' AND f.id <= ?' : ''}${
        filter === undefined ? '' : 'after' in filter ? ' AND f.id + 0 > ?' : ' AND f.id + 0 <= ?'
      }`;
      // The match as one tsquery text: an operand and an operator per term cost a long prompt's statement more to
      // parse and plan than they did to run.
      return {
        sql: `f.tsv @@ ?::tsquery${floor}`,
        params: [
          match.text,
          ...(r.after > 0 ? [r.after] : []),
          ...(r.upTo !== undefined ? [r.upTo] : []),
          ...(filter === undefined ? [] : ['after' in filter ? filter.after : filter.upTo]),
        ],
      };
    };
    const ranked = async (whole: IdRange, half?: Half) => {
      const rows = rowsOf(whole, half);
      return rankingOf(
        this.#db,
        `SELECT d.id AS id, ${score} AS s FROM (
           SELECT e.id AS id, ${fs}${every ? `, ${[...later, 'e.every AS every'].join(', ')}` : ''}, ${norm} FROM (
             SELECT f.id AS id, f.tsv AS tsv, f.len AS stored_len, ${freqs.join(', ')}${every ? ', f.tsv @@ ?::tsquery AS every' : ''}
             FROM ${t.fts} f${join}
             WHERE ${rows.sql} OFFSET 0) e OFFSET 0) d
         ORDER BY s DESC, d.id DESC LIMIT ?`,
        [
          ...everyParams,
          ...lenParams,
          ...fParams,
          ...(every ? [every.match.text] : []),
          ...(within ? [scope.space, ...within.params] : []),
          ...rows.params,
          limit,
        ],
      );
    };
    // Ranking is ~1.4-1.9 µs a candidate, all of it on one backend: a common word's 5,200 rows took 9.7 of a query's
    // ~13 ms at 100k. With a pool, the candidates are ranked in two halves of the id range, one per connection, each
    // keeping its best `limit`; the best `limit` of both are the same rows in the same order (each row's score is
    // computed alike, ties go to the higher id). The candidates are at most the terms' rows put together, taken as
    // spread evenly over the ids (a time window's range holds its share of them).
    const hi = ids.upTo ?? top;
    const share = top > 0 ? Math.min(1, (hi - ids.after) / top) : 1;
    const candidates = match.op === '||' ? share * stats.reduce((a, st) => a + st.hits, 0) : 0;
    const mid = Math.floor((ids.after + hi) / 2);
    if (!split || candidates < SPLIT_CANDIDATES || !runsTogether(this.#db) || mid <= ids.after || mid >= hi) return [() => ranked(ids)];
    // Over the whole index, by the half marker when the space's rows carry it evenly enough (`markHalves`), else by
    // words when they part the rows evenly enough (`wordHalves`); a bounded range (the newest rows, a time window) by
    // its ids, which its halves read through the primary key.
    const unbounded = ids.after === 0 && ids.upTo === undefined && match.op === '||';
    const read = scope.read?.answers(scope.space, layer) ? scope.read : undefined;
    const marked = read?.hits.get(HALF_MARK);
    const marks = unbounded && read && marked !== undefined ? markHalves(match.text, read.stats.rows, marked) : undefined;
    if (marks) return [() => ranked(ids, { words: marks.first }), () => ranked(ids, { words: marks.second })];
    const words = unbounded ? wordHalves(stats.map((st, i) => ({ query: tsq(terms[i]!).param, rows: st.hits }))) : undefined;
    if (words) return [() => ranked(ids, { words: words.first }), () => ranked(ids, { words: words.second, without: words.first })];
    return [() => ranked(ids, { after: mid }), () => ranked(ids, { upTo: mid })];
  }

  /** The `limit` best of `#bm25Parts`' rows, its parts run together. */
  async #bm25(ask: Bm25Ask): Promise<Ranked[]> {
    return bestOf(await statementsTogether(this.#db, await this.#bm25Parts(ask)), ask.limit);
  }

  /** `#bm25Parts` of each id range (the runs of a time window), an empty range skipped: to run together. */
  async #bm25In(ask: Bm25Ask, ranges: readonly IdRange[]): Promise<Array<() => Promise<Ranked[]>>> {
    const parts: Array<() => Promise<Ranked[]>> = [];
    for (const ids of ranges) if (ids.upTo === undefined || ids.after < ids.upTo) parts.push(...(await this.#bm25Parts({ ...ask, ids })));
    return parts;
  }

  #rememberCounts(scope: Scope, layer: Layer, top: number, counts: ReadonlyMap<string, number>): void {
    const counted = [...counts].filter(([w]) => statOf(w) === undefined);
    if (this.#memo.terms.size + counted.length > TERM_MEMO) this.#memo.terms.clear();
    for (const [w, hits] of counted) this.#memo.terms.set(termKey(scope.space, layer, w), { hits, ...PgSearch.#lexemesOf(w), at: top });
  }

  static #lexemesOf(w: string): { lexemes: readonly string[]; prefix: boolean } {
    const prefix = isHanPrefixTerm(w);
    return { lexemes: prefix ? fts5Terms(w).slice(0, 1) : fts5Terms(w), prefix };
  }

  /**
   * What BM25 needs of the space's rows in the layer's index: their number and mean length (FTS5's avgdl, over all
   * of them), and each term's rows with its lexemes. A one-word term's rows and a Chinese prefix's come from the
   * lexical statistics, read with the totals in one statement (pg-lexical-stats.ts); a phrase is counted in the index
   * (a bitmap scan per phrase, the phrases at once on connections of their own), remembered as of `top`.
   */
  async #stats(scope: Scope, layer: Layer, top: number, terms: readonly string[]): Promise<{ rows: number; avgdl: number; terms: TermStats[] }> {
    const t = T[layer];
    const { stats: s, hits: byLexeme } = await statsOf(this.#db, scope.space, layer, statKeys(terms), scope.read);
    const keyOf = (w: string) => termKey(scope.space, layer, w);
    const unknown = [...new Set(terms)].filter((w) => {
      if (statOf(w) !== undefined) return false;
      const known = this.#memo.terms.get(keyOf(w));
      return !(known && fresh(known.at, s.rows, top));
    });
    if (unknown.length > 0) {
      const inSpace = scope.alone ? '' : ` AND EXISTS (SELECT 1 FROM ${t.table} x WHERE x.id = f.id AND x.space = ?)`;
      const counted = await statementsTogether(
        this.#db,
        unknown.map((w) => async () => {
          const r = await this.#db.get<{ c: unknown }>(
            `SELECT count(*) AS c FROM ${t.fts} f WHERE f.tsv @@ ?::tsquery${inSpace}`,
            [tsq(w).param, ...(scope.alone ? [] : [scope.space])],
          );
          return num(r?.c ?? 0);
        }),
      );
      if (this.#memo.terms.size + unknown.length > TERM_MEMO) this.#memo.terms.clear();
      unknown.forEach((w, i) => this.#memo.terms.set(keyOf(w), { hits: counted[i]!, ...PgSearch.#lexemesOf(w), at: top }));
    }
    return {
      rows: s.rows,
      avgdl: s.rows > 0 && s.tokens > 0 ? s.tokens / s.rows : 1,
      terms: terms.map((w) => {
        const l = lexemeOf(w);
        if (l !== undefined) return { hits: byLexeme.get(l)!, lexemes: [l], prefix: false, at: top };
        const p = prefixOf(w);
        return p === undefined ? this.#memo.terms.get(keyOf(w))! : { hits: byLexeme.get(p)!, ...PgSearch.#lexemesOf(w), at: top };
      }),
    };
  }

  async substring(space: string, layer: Layer, needle: string, o: LexicalOptions): Promise<Array<{ id: number; score: number }>> {
    const n = needle.trim();
    if (n.length === 0) return [];
    const t = T[layer];
    const f = filters(layer, o);
    const pattern = `%${likeLiteral(n)}%`;
    // Three or more characters: the raw text, through pg_trgm's GIN index when the server has it (a scan
    // otherwise). The index holds only rows with raw text; the query repeats its condition, so that the planner may
    // use it. Shorter needles (a 2-character CJK word) scan the space's own content, as SQLite does.
    const rows =
      [...n].length >= 3
        ? await this.#db.all<{ id: unknown }>(
            `SELECT f.id AS id FROM ${t.fts} f JOIN ${t.table} x ON x.id = f.id
             WHERE f.raw ILIKE ? ESCAPE '\\' AND f.raw <> '' AND x.space = ?${f.sql} ORDER BY x.${t.time} DESC, x.id DESC LIMIT ?`,
            [pattern, space, ...f.params, o.limit],
          )
        : await this.#db.all<{ id: unknown }>(
            `SELECT x.id AS id FROM ${t.table} x WHERE x.space = ? AND x.content ILIKE ? ESCAPE '\\'${f.sql}
             ORDER BY x.${t.time} DESC, x.id DESC LIMIT ?`,
            [space, pattern, ...f.params, o.limit],
          );
    return rows.map((r) => ({ id: num(r.id), score: 1 }));
  }
}

/**
 * The newest rows of a layer's index matching `match` (at most `want`, newest first), found by walking the index
 * from its newest row. The walk reads the newest `bound` rows only: bounded, the planner reads the primary key
 * backwards with or without statistics (unbounded, a vacuumed table without column statistics was sorted whole,
 * 5.7 s for 44 walks at 100k). Given the index's `top` id, a walk that ends short of `want` goes on over 8 times as
 * many rows, until the whole index was read; without, it returns what it found.
 */
async function newestMatches(
  db: SqlDriver,
  fts: string,
  match: { sql: string; params: readonly string[] },
  want: number,
  bound: number,
  o: { top?: number; summary?: boolean } = {},
): Promise<{ ids: number[]; count: number; low: number }> {
  for (let rows = Math.max(bound, want); ; rows *= 8) {
    const walk = `SELECT w.id FROM (SELECT id, tsv FROM ${fts} ORDER BY id DESC LIMIT ?) w WHERE w.tsv @@ ${match.sql} ORDER BY w.id DESC LIMIT ?`;
    const params = [rows, ...match.params, want];
    // `summary`: only their number and lowest id come back (a term's newest 2,000 matches).
    const found =
      o.summary
        ? await db.get<{ c: unknown; low: unknown }>(`SELECT count(*) AS c, min(id) AS low FROM (${walk}) s`, params).then((r) => ({
            ids: [],
            count: num(r?.c ?? 0),
            low: num(r?.low ?? 0),
          }))
        : await idsOf(db, walk, params).then((ids) => ({ ids, count: ids.length, low: ids.length > 0 ? ids[ids.length - 1]! : 0 }));
    // Ids start at 1: a walk over `top` rows or more read the whole index.
    if (o.top === undefined || found.count >= want || rows >= o.top) return found;
  }
}

/** The lexical statistics one query read at its start, for one space and layer (`PgSearch.lexical`). */
export class QueryStats {
  readonly hits: ReadonlyMap<string, number>;
  constructor(
    readonly space: string,
    readonly layer: Layer,
    readonly lexemes: readonly string[],
    readonly stats: LexicalStats,
  ) {
    this.hits = new Map(lexemes.map((l, i) => [l, stats.hits[i]!]));
  }

  answers(space: string, layer: Layer): boolean {
    return space === this.space && layer === this.layer;
  }
}

/**
 * The shared planner's counts over the tsvector index: a term's rows are counted as the GIN index matches it
 * (stemming included), stopping once it is common. When the space holds every row the index alone answers;
 * otherwise each match's space is looked up.
 */
export function pgPlanCounter(db: SqlDriver, read?: QueryStats): PlanCounter {
  const matchesIn = (layer: Layer, alone: boolean, q: string) => {
    const t = T[layer];
    return alone
      ? `SELECT f.id AS id FROM ${t.fts} f WHERE f.tsv @@ ${q}`
      : `SELECT f.id AS id FROM ${t.fts} f JOIN ${t.table} x ON x.id = f.id WHERE f.tsv @@ ${q} AND x.space = ?`;
  };
  return {
    async top(space, layer) {
      if (read?.answers(space, layer)) return read.stats.top!;
      return num((await db.get<{ n: unknown }>(`SELECT max(id) AS n FROM ${T[layer].fts}`))?.n ?? 0);
    },
    async spaceRows(space, layer) {
      // From the lexical statistics: the space's rows in the layer's index, and whether another space has any.
      const { stats: s } = await statsOf(db, space, layer, [], read);
      return { rows: s.rows, alone: !s.others };
    },
    async termRows(space, layer, term, cap, alone) {
      return (await this.termsRows!(space, layer, [term], cap, alone))[0]!;
    },
    async termsRows(space, layer, terms, cap, alone) {
      // One-word terms and Chinese prefixes from the lexical statistics (exact, one statement); a phrase by a capped
      // count per phrase, those at once (each on a connection of its own outside a transaction).
      const single = statKeys(terms);
      const byLexeme = single.length > 0 ? (await statsOf(db, space, layer, single, read)).hits : new Map<string, number>();
      const count = async (w: string) => {
        const l = statOf(w);
        if (l !== undefined) return byLexeme.get(l)!;
        const r = await db.get<{ c: unknown }>(`SELECT count(*) AS c FROM (${matchesIn(layer, alone, '?::tsquery')} LIMIT ?) s`, [
          tsq(w).param, ...(alone ? [] : [space]), cap + 1,
        ]);
        return num(r?.c ?? 0);
      };
      return statementsTogether(db, terms.map((w) => () => count(w)));
    },
    async windowFloor(space, layer, window, alone) {
      const t = T[layer];
      const r = alone
        ? await db.get<{ low: unknown }>(`SELECT min(id) AS low FROM (SELECT id FROM ${t.table} ORDER BY id DESC LIMIT ?) s`, [window])
        : await db.get<{ low: unknown }>(
            `SELECT min(id) AS low FROM (SELECT id FROM ${t.table} WHERE space = ? ORDER BY id DESC LIMIT ?) s`,
            [space, window],
          );
      // Rows above the floor: the lowest of the newest `window` is kept (the floor is exclusive).
      return Math.max(0, num(r?.low ?? 1) - 1);
    },
    async recentMatches(space, layer, term, sample, alone) {
      const q = tsq(term);
      // Asked only of terms already found common (at least 5 % of the space's rows, or 30,000). A space holding
      // the whole index walks it newest first and stops at the `sample`th match, after about sample / share rows,
      // where the GIN index would hand over every row holding the term to be sorted (79k rows and 66-78 ms for
      // "the" at 100k, against 3 ms): `newestMatches`, first over the rows the term's share says it needs. A space
      // sharing the index keeps the GIN plan: its rows may be too thin among the others' for a walk to stop early.
      const l = statOf(term);
      const known = l !== undefined && read?.answers(space, layer) ? read.hits.get(l) : undefined;
      const share = known !== undefined && read!.stats.rows > 0 ? known / read!.stats.rows : undefined;
      // A walk reads about sample / share rows; the GIN index hands over the term's rows (share × rows), each dearer
      // (`GIN_MATCH_COST`). The cheaper one asks, for the same answer: at 100k a word in 5 % of rows took 12.6 ms by
      // walking 40,000 rows and 7.5 ms through the index.
      const byIndex = share !== undefined && known! * GIN_MATCH_COST * share < sample;
      if (alone && !byIndex) {
        const top = read?.answers(space, layer) ? read.stats.top! : await this.top(space, layer);
        const bound = Math.ceil((2 * sample) / Math.max(share ?? COMMON_SHARE, 0.001));
        const { count, low } = await newestMatches(db, T[layer].fts, { sql: q.sql, params: [q.param] }, sample, bound, { top, summary: true });
        return { count, low };
      }
      const r = await db.get<{ c: unknown; low: unknown }>(
        `SELECT count(*) AS c, min(id) AS low FROM (${matchesIn(layer, alone, q.sql)} ORDER BY f.id DESC LIMIT ?) s`,
        [q.param, ...(alone ? [] : [space]), sample],
      );
      return { count: num(r?.c ?? 0), low: num(r?.low ?? 0) };
    },
  };
}
