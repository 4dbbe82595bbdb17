/**
 * SQLite full-text indexes: FTS5 BM25 (porter + unicode61 over jieba-segmented text) and a trigram index, one pair of
 * tables per space and layer, so BM25's statistics (rows, rows holding a term, mean row length) are the space's own.
 */
import type { Layer } from '../../core/types.js';
import type { IndexText, LexicalOptions, SearchIndex } from '../port.js';
import type { SqlDriver, SqlValue } from '../sql-driver.js';
import { LexicalPlanner, windowIdRuns, type IdRun, type PlanCounter } from '../sql/lexical-planner.js';
import { isHanPrefixTerm, marks, num } from '../sql/sql-util.js';

const T: Record<Layer, { table: string; time: string }> = {
  episode: { table: 'episodes', time: 'occurred_at' },
  narrative: { table: 'narratives', time: 'created_at' },
  knowledge: { table: 'knowledge', time: 'created_at' },
};

/**
 * The tables of the first layout (schema v1), shared by every space: their BM25 counted every space's rows. Emptied
 * once their rows were indexed again into each space's own tables (`termsOutdated`).
 */
export const SHARED_FTS_TABLES: Record<Layer, readonly [string, string]> = {
  episode: ['episodes_fts', 'episodes_tri'],
  narrative: ['narratives_fts', 'narratives_tri'],
  knowledge: ['knowledge_fts', 'knowledge_tri'],
};

/** The word and trigram tables of the space whose number in `search_tables` is `n`. */
export function spaceFtsTables(layer: Layer, n: number): { fts: string; tri: string } {
  return { fts: `${T[layer].table}_fts_${n}`, tri: `${T[layer].table}_tri_${n}` };
}

/** Every space's word and trigram tables of a layer, as `search_tables` lists them. */
export async function allSpaceFtsTables(db: SqlDriver, layer: Layer): Promise<string[]> {
  const rows = await db.all<{ n: unknown }>('SELECT n FROM search_tables WHERE layer = ? ORDER BY n', [layer]);
  return rows.flatMap((r) => Object.values(spaceFtsTables(layer, num(r.n))));
}

const TOKENIZE = "tokenize='porter unicode61 remove_diacritics 2'";
function createTables(layer: Layer, n: number): string[] {
  const { fts, tri } = spaceFtsTables(layer, n);
  const cols = layer === 'episode' ? 'body, speaker, ctx' : 'body, tags';
  return [
    `CREATE VIRTUAL TABLE ${fts} USING fts5(${cols}, content='', contentless_delete=1, ${TOKENIZE})`,
    `CREATE VIRTUAL TABLE ${tri} USING fts5(body, content='', contentless_delete=1, tokenize='trigram')`,
  ];
}

/**
 * The space's tables of a layer (`undefined`: it has none yet). Looked up on every call, never remembered: a
 * transaction that created them may roll back, and another connection may drop them (`dropSpace`).
 */
async function tablesOf(db: SqlDriver, space: string, layer: Layer): Promise<{ fts: string; tri: string } | undefined> {
  const r = await db.get<{ n: unknown }>('SELECT n FROM search_tables WHERE space = ? AND layer = ?', [space, layer]);
  return r === undefined ? undefined : spaceFtsTables(layer, num(r.n));
}

/**
 * Above this many rows the window is read by walking the newest matches down: FTS5 walks a rowid range from the
 * start of every posting list (50 ms for two common terms at 1M rows), but a descending walk stops early. Below it,
 * the range walk is the cheaper one (it scores only rows inside the window).
 */
const DESCENDING_WALK_ROWS = 250_000;

/**
 * bm25() order, best (lowest) first, equal scores the newer row (higher id) first: the order the statements give
 * (`ORDER BY s, id DESC`), the recall pipeline's, and PostgreSQL's (pg-search.ts), so both engines keep the same rows
 * at a limit that falls among equal scores.
 */
function byScore(a: { id: unknown; s: number }, b: { id: unknown; s: number }): number {
  return a.s - b.s || num(b.id) - num(a.id);
}

/** Quotes a term as an FTS5 string, so user text is never read as query syntax (DESIGN §3). */
export function ftsQuote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** A query term as FTS5 matches it: quoted, a single Chinese character as a prefix (`isHanPrefixTerm`). */
export function ftsTerm(term: string): string {
  return isHanPrefixTerm(term) ? `${ftsQuote(term)}*` : ftsQuote(term);
}

function filters(layer: Layer, o: LexicalOptions): { sql: string; params: SqlValue[] } {
  const t = T[layer];
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (o.since !== undefined) {
    where.push(`x.${t.time} >= ?`);
    params.push(o.since);
  }
  if (o.until !== undefined) {
    where.push(`x.${t.time} <= ?`);
    params.push(o.until);
  }
  if (layer === 'episode') {
    if (!o.includeArchived) where.push('x.archived_at IS NULL');
    if (o.session) {
      where.push('x.session = ?');
      params.push(o.session);
    }
  }
  if (layer === 'narrative' && o.minWeight !== undefined) {
    where.push('x.weight >= ?');
    params.push(o.minWeight);
  }
  if ((layer === 'narrative' || layer === 'knowledge') && o.kinds && o.kinds.length > 0) {
    where.push(`x.kind IN (${marks(o.kinds.length)})`);
    params.push(...o.kinds);
  }
  if (layer === 'knowledge') {
    const st = o.statuses ?? ['provisional', 'reliable'];
    where.push(`x.status IN (${marks(st.length)})`);
    params.push(...st);
    if (o.keyPrefix !== undefined) {
      // substr, not LIKE: SQLite's LIKE ignores ASCII case and treats % and _ in the prefix as wildcards.
      where.push('substr(x.key, 1, ?) = ?');
      params.push([...o.keyPrefix].length, o.keyPrefix);
    }
  }
  return { sql: where.map((w) => ` AND ${w}`).join(''), params };
}

/** Options of {@link SqliteSearch}. */
export interface SqliteSearchOptions {
  /** Rows above which the newest-rows window is read by a descending walk; default 250,000. */
  descendingWalkRows?: number;
  /** Share of rows above which a term counts as common (default 0.05). */
  commonShare?: number;
  /** Newest rows scored when every term is common (default 20,000). */
  commonWindow?: number;
}

/** FTS5-backed SearchIndex. */
export class SqliteSearch implements SearchIndex {
  readonly #db: SqlDriver;
  readonly #descendingWalkRows: number;
  readonly #commonWindow: number;
  /** Which words are common, per space, from that space's own counts (`sqlitePlanCounter`). */
  readonly #planner: LexicalPlanner;
  constructor(db: SqlDriver, opts: SqliteSearchOptions = {}) {
    this.#db = db;
    this.#descendingWalkRows = opts.descendingWalkRows ?? DESCENDING_WALK_ROWS;
    this.#planner = new LexicalPlanner(sqlitePlanCounter(db), opts);
    this.#commonWindow = this.#planner.commonWindow;
  }

  async index(layer: Layer, docs: ReadonlyArray<{ id: number } & IndexText>, space: string): Promise<void> {
    if (docs.length === 0) return;
    const t = (await tablesOf(this.#db, space, layer)) ?? (await this.#create(space, layer));
    for (const d of docs) {
      if (layer === 'episode') {
        // An empty raw text means the caller keeps this row out of the substring index (index.episodeTrigram).
        if (d.raw) await this.#db.run(`INSERT INTO ${t.tri} (rowid, body) VALUES (?, ?)`, [d.id, d.raw]);
        await this.#db.run(`INSERT INTO ${t.fts} (rowid, body, speaker, ctx) VALUES (?, ?, ?, ?)`, [d.id, d.body, d.extra, d.ctx ?? '']);
      } else {
        await this.#db.run(`INSERT INTO ${t.fts} (rowid, body, tags) VALUES (?, ?, ?)`, [d.id, d.body, d.extra]);
        await this.#db.run(`INSERT INTO ${t.tri} (rowid, body) VALUES (?, ?)`, [d.id, d.raw]);
      }
    }
  }

  /** Creates the space's tables of a layer on its first write: a row in `search_tables` and both tables, at once. */
  async #create(space: string, layer: Layer): Promise<{ fts: string; tri: string }> {
    return this.#db.transaction(async (tx) => {
      const known = await tablesOf(tx, space, layer);
      if (known) return known;
      const r = await tx.get<{ n: unknown }>('INSERT INTO search_tables (space, layer) VALUES (?, ?) RETURNING n', [space, layer]);
      const n = num(r?.n);
      for (const sql of createTables(layer, n)) await tx.run(sql);
      return spaceFtsTables(layer, n);
    });
  }

  async unindex(layer: Layer, ids: readonly number[], space: string): Promise<void> {
    if (ids.length === 0) return;
    const t = await tablesOf(this.#db, space, layer);
    if (t === undefined) return;
    await this.#db.run(`DELETE FROM ${t.fts} WHERE rowid IN (${marks(ids.length)})`, ids);
    await this.#db.run(`DELETE FROM ${t.tri} WHERE rowid IN (${marks(ids.length)})`, ids);
  }

  /** Drops the space's tables of every layer (its erasure: no tombstone of its rows stays behind). */
  async dropSpace(space: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      for (const layer of Object.keys(T) as Layer[]) {
        const t = await tablesOf(tx, space, layer);
        if (t === undefined) continue;
        await tx.run(`DROP TABLE ${t.fts}`);
        await tx.run(`DROP TABLE ${t.tri}`);
        await tx.run('DELETE FROM search_tables WHERE space = ? AND layer = ?', [space, layer]);
      }
    });
  }

  /**
   * Whether the shared tables of the first layout still hold rows: the app then indexes every item again (into each
   * space's own tables) and calls `markTermsCurrent`, in one transaction.
   */
  async termsOutdated(): Promise<boolean> {
    for (const tables of Object.values(SHARED_FTS_TABLES)) {
      for (const t of tables) if (await this.#db.get(`SELECT rowid FROM ${t} LIMIT 1`)) return true;
    }
    return false;
  }

  /** Empties the shared tables once every item is in its space's tables. */
  async markTermsCurrent(): Promise<void> {
    for (const tables of Object.values(SHARED_FTS_TABLES)) {
      for (const t of tables) await this.#db.run(`INSERT INTO ${t}(${t}) VALUES('delete-all')`);
    }
  }

  async lexical(
    space: string,
    layer: Layer,
    terms: readonly string[],
    o: LexicalOptions,
  ): Promise<Array<{ id: number; score: number }>> {
    if (terms.length === 0) return [];
    // The space's own tables: bm25() counts its rows alone, and every match is one of its rows.
    const own = await tablesOf(this.#db, space, layer);
    if (own === undefined) return [];
    const t = { ...T[layer], ...own };
    const plan = await this.#planner.plan(space, layer, terms);
    // bm25() is lower-is-better. The body weighs most; speaker/tags and the preceding turns (ctx) weigh 0.3,
    // the weight that gave the best LoCoMo dev recall (docs/BENCHMARKS.md).
    const weights = layer === 'episode' ? '1.0, 0.3, 0.3' : '1.0, 0.5';
    // The OR query of the terms scored; when every term is common, the two rarest of late are counted only if a
    // ranking needs them (the newest rows holding every term usually answer; the planner remembers them).
    const match = async () => (await this.#planner.scoredTerms(plan, space, layer)).map(ftsTerm).join(' OR ');
    // A time window's rows were written together: their ids span a short range the FTS scan can stay inside (or a
    // few such runs, when history was imported between them: each run is scanned on its own).
    const runs = await windowIdRuns(this.#db, T[layer], space, o);
    if (runs === null) return [];
    const span = runs && { lo: runs[0]!.lo, hi: runs[runs.length - 1]!.hi };
    const lo = Math.max(plan.minRowid ?? 0, span ? span.lo - 1 : 0);
    const floor = `${lo > 0 ? ' AND rowid > ?' : ''}${span ? ' AND rowid <= ?' : ''}`;
    const floorParams = [...(lo > 0 ? [lo] : []), ...(span ? [span.hi] : [])];
    // Score in the space's FTS index alone, then keep the rows that pass the filters (the space is checked again,
    // cheaply): a join per matching row costs four times as much. Over-fetch, and fall back to the join when the
    // filters drop too many.
    const fetch = o.limit * 3;
    // Inside a window: the best `fetch` of the ranking asked of each of its runs (the same BM25 over the same index:
    // the scores compare), each run taken above `after` of it.
    const inRuns = async (m: string, after: (r: IdRun) => number): Promise<Array<{ id: unknown; s: number }>> => {
      const lists: Array<Array<{ id: unknown; s: number }>> = [];
      for (const r of runs ?? []) {
        if (after(r) >= r.hi) continue;
        lists.push(
          await this.#db.all(
            `SELECT rowid AS id, bm25(${t.fts}, ${weights}) AS s FROM ${t.fts} WHERE ${t.fts} MATCH ? AND rowid > ? AND rowid <= ?
             ORDER BY s, id DESC LIMIT ?`,
            [m, after(r), r.hi, fetch],
          ),
        );
      }
      return lists.flat().sort(byScore).slice(0, fetch);
    };
    const descending = !span && plan.minRowid !== undefined && plan.top > this.#descendingWalkRows;
    const scored = async () => {
      if (runs) return inRuns(await match(), (r) => Math.max(plan.minRowid ?? 0, r.lo - 1));
      return this.#db.all<{ id: unknown; s: number }>(
        descending
          ? // The window holds at most commonWindow rowids, so its matches are all among the newest that many.
            `SELECT id, s FROM (SELECT rowid AS id, bm25(${t.fts}, ${weights}) AS s FROM ${t.fts} WHERE ${t.fts} MATCH ?
             ORDER BY rowid DESC LIMIT ${this.#commonWindow}) WHERE id > ? ORDER BY s, id DESC LIMIT ?`
          : `SELECT rowid AS id, bm25(${t.fts}, ${weights}) AS s FROM ${t.fts} WHERE ${t.fts} MATCH ?${floor} ORDER BY s, id DESC LIMIT ?`,
        [await match(), ...floorParams, fetch],
      );
    };
    let raw: Array<{ id: unknown; s: number }> = [];
    if (plan.minRowid !== undefined && !span) {
      // Every word is common, so BM25 over them says little: the newest rows holding all of them rank first (an
      // intersection walked newest-first stops after `fetch` rows and skips bm25's pass over whole posting lists).
      const newest = await this.#db.all<{ id: unknown }>(
        `SELECT rowid AS id FROM ${t.fts} WHERE ${t.fts} MATCH ? ORDER BY rowid DESC LIMIT ?`,
        [terms.map(ftsTerm).join(' AND '), fetch],
      );
      raw = newest.length === fetch ? newest.map((r, i) => ({ id: r.id, s: -1 + i / (2 * fetch) })) : await scored();
    } else if (plan.dropped) {
      // Rows holding every asked term come first, scored by all of them: the common words left out of the OR
      // query still tell those rows apart (the row a query was taken from holds them all). Intersecting posting
      // lists is cheap where scoring every row of a common word is not.
      const every = terms.map(ftsTerm).join(' AND ');
      const all = runs
        ? await inRuns(every, (r) => r.lo - 1)
        : await this.#db.all<{ id: unknown; s: number }>(
            `SELECT rowid AS id, bm25(${t.fts}, ${weights}) AS s FROM ${t.fts} WHERE ${t.fts} MATCH ? ORDER BY s, id DESC LIMIT ?`,
            [every, fetch],
          );
      const best = new Map<number, number>();
      for (const r of [...all, ...(await scored())]) {
        const id = num(r.id);
        best.set(id, Math.min(best.get(id) ?? Infinity, r.s));
      }
      raw = [...best].map(([id, sc]) => ({ id, s: sc })).sort(byScore).slice(0, fetch);
    } else {
      raw = await scored();
    }
    const f = filters(layer, o);
    if (raw.length === 0) return [];
    const ids = raw.map((r) => num(r.id));
    const kept = new Set(
      (
        await this.#db.all<{ id: unknown }>(
          `SELECT x.id AS id FROM ${t.table} x WHERE x.id IN (${marks(ids.length)}) AND (x.space || '') = ?${f.sql}`,
          [...ids, space, ...f.params],
        )
      ).map((r) => num(r.id)),
    );
    const out = raw.filter((r) => kept.has(num(r.id))).map((r) => ({ id: num(r.id), score: -r.s }));
    if (out.length >= o.limit || raw.length < fetch) return out.slice(0, o.limit);
    const rows = await this.#db.all<{ id: unknown; s: number }>(
      `SELECT f.rowid AS id, bm25(${t.fts}, ${weights}) AS s FROM ${t.fts} f JOIN ${t.table} x ON x.id = f.rowid
       WHERE ${t.fts} MATCH ?${floor.replace(/rowid/g, 'f.rowid')} AND x.space = ?${f.sql} ORDER BY s, id DESC LIMIT ?`,
      [await match(), ...floorParams, space, ...f.params, o.limit],
    );
    return rows.map((r) => ({ id: num(r.id), score: -r.s }));
  }


  async substring(
    space: string,
    layer: Layer,
    needle: string,
    o: LexicalOptions,
  ): Promise<Array<{ id: number; score: number }>> {
    const t = T[layer];
    const f = filters(layer, o);
    const n = needle.trim();
    if (n.length === 0) return [];
    if ([...n].length >= 3) {
      const own = await tablesOf(this.#db, space, layer);
      if (own === undefined) return [];
      const rows = await this.#db.all<{ id: unknown }>(
        `SELECT f.rowid AS id FROM ${own.tri} f JOIN ${t.table} x ON x.id = f.rowid
         WHERE ${own.tri} MATCH ? AND x.space = ?${f.sql} ORDER BY x.${t.time} DESC LIMIT ?`,
        [ftsQuote(n), space, ...f.params, o.limit],
      );
      return rows.map((r) => ({ id: num(r.id), score: 1 }));
    }
    // Trigrams need three characters; shorter needles (e.g. a 2-character CJK word) scan, newest first, bounded.
    const rows = await this.#db.all<{ id: unknown }>(
      `SELECT x.id AS id FROM ${t.table} x WHERE x.space = ? AND instr(lower(x.content), lower(?)) > 0${f.sql}
       ORDER BY x.${t.time} DESC LIMIT ?`,
      [space, n, ...f.params, o.limit],
    );
    return rows.map((r) => ({ id: num(r.id), score: 1 }));
  }
}

/**
 * The planner's counts over FTS5, in the space's own word table: a term's rows are counted as FTS5 matches it
 * (stemming included), stopping once it is common (a count walks ~35 ns a row; the fts5vocab table walks the whole
 * posting list). A space without tables yet has no rows.
 */
export function sqlitePlanCounter(db: SqlDriver): PlanCounter {
  const ftsOf = async (space: string, layer: Layer) => (await tablesOf(db, space, layer))?.fts;
  return {
    async top(space, layer) {
      const fts = await ftsOf(space, layer);
      return fts === undefined ? 0 : num((await db.get<{ n: unknown }>(`SELECT MAX(rowid) AS n FROM ${fts}`))?.n ?? 0);
    },
    async spaceRows(space, layer) {
      const t = T[layer];
      const r = await db.get<{ n: unknown }>(`SELECT count(*) AS n FROM ${t.table} WHERE space = ?`, [space]);
      // Two seeks on the space index tell whether any other space has rows.
      const other =
        (await db.get(`SELECT 1 AS o FROM ${t.table} WHERE space < ? LIMIT 1`, [space])) ??
        (await db.get(`SELECT 1 AS o FROM ${t.table} WHERE space > ? LIMIT 1`, [space]));
      return { rows: num(r?.n ?? 0), alone: other === undefined };
    },
    async termRows(space, layer, term, cap) {
      const fts = await ftsOf(space, layer);
      if (fts === undefined) return 0;
      const r = await db.get<{ c: unknown }>(
        `SELECT count(*) AS c FROM (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? LIMIT ?)`,
        [ftsTerm(term), cap + 1],
      );
      return num(r?.c ?? 0);
    },
    async windowFloor(space, layer, window, alone) {
      const t = T[layer];
      const r = alone
        ? await db.get<{ low: unknown }>(`SELECT min(id) AS low FROM (SELECT id FROM ${t.table} ORDER BY id DESC LIMIT ?)`, [window])
        : await db.get<{ low: unknown }>(
            `SELECT min(id) AS low FROM (SELECT id FROM ${t.table} WHERE space = ? ORDER BY id DESC LIMIT ?)`,
            [space, window],
          );
      // Rows above the floor: the lowest of the newest `window` is kept (the floor is exclusive).
      return Math.max(0, num(r?.low ?? 1) - 1);
    },
    async recentMatches(space, layer, term, sample) {
      const fts = await ftsOf(space, layer);
      if (fts === undefined) return { count: 0, low: 0 };
      const r = await db.get<{ c: unknown; low: unknown }>(
        `SELECT count(*) AS c, min(id) AS low FROM (SELECT rowid AS id FROM ${fts} WHERE ${fts} MATCH ? ORDER BY id DESC LIMIT ?)`,
        [ftsTerm(term), sample],
      );
      return { count: num(r?.c ?? 0), low: num(r?.low ?? 0) };
    },
  };
}
