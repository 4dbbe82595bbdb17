/** PostgreSQL lexical indexes: a weighted tsvector per item (GIN, ranked by FTS5's BM25) and its raw text for ILIKE / pg_trgm. */
import type { Layer } from '../../core/types.js';
import type { IndexText, LexicalOptions, SearchIndex } from '../port.js';
import type { SqlDriver, SqlValue } from '../sql-driver.js';
import { chunks, isHanPrefixTerm, jsonRecords, marks, num } from '../sql/sql-util.js';

const T: Record<Layer, { table: string; fts: string; time: string }> = {
  episode: { table: 'episodes', fts: 'episodes_fts', time: 'occurred_at' },
  narrative: { table: 'narratives', fts: 'narratives_fts', time: 'created_at' },
  knowledge: { table: 'knowledge', fts: 'knowledge_fts', time: 'created_at' },
};

// Rows per indexing statement (one JSON parameter).
const BATCH = 2000;

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
  }
  return { sql: where.map((w) => ` AND ${w}`).join(''), params };
}

/** Below this many rows in a space every query term is used as given (as in SQLite). */
const PRUNE_MIN_DOCS = 5000;
/** A term in more than this share of a space's rows is common (SQLite's COMMON_SHARE). */
const COMMON_SHARE = 0.05;
/** …and in more rows than this on any size (SQLite's COMMON_ROWS). */
const COMMON_ROWS = 30_000;
/** When every term is common, only the space's newest this-many rows are scored (SQLite's COMMON_WINDOW). */
const COMMON_WINDOW = 20_000;
/** Newest matches read per term to tell which of several common terms is rarest lately. */
const RECENT_SAMPLE = 2000;
/** Terms whose commonness is remembered before starting over. */
const COMMON_MEMO = 10_000;
/** How long a space's row count, average length and window floor are reused (a count walks the space's rows). */
const STATS_TTL_MS = 10_000;

/** Per-space statistics of one layer, shared by every PgSearch of a store (transactions make their own). */
interface SpaceStats {
  rows: number;
  /** Every row of the table is this space's: the index alone counts for it (no join to the item table). */
  alone: boolean;
  /** Ids above this are the space's newest COMMON_WINDOW rows. */
  windowFloor: number;
  at: number;
}

/** What the planner remembers between queries: per space and layer, and per term. */
export class PgSearchMemo {
  readonly stats = new Map<string, SpaceStats>();
  readonly terms = new Map<string, { count: number; common: boolean; rows: number }>();
}

/** A lexical query's plan, as SQLite's `#plan` makes it. */
interface PgPlan {
  terms: readonly string[];
  dropped?: boolean;
  /** Only rows above this id are scored (every term common). */
  minId?: number;
  stats: SpaceStats;
  /** Rows of the space holding each asked term, capped: more than the cap means common. */
  counts: ReadonlyMap<string, number>;
}

/** One term as a tsquery expression (a parameter, never syntax) and its parameter. */
function tsq(w: string): { sql: string; param: string } {
  // phraseto_tsquery reads plain text: user words never become tsquery syntax (DESIGN §3), and a multi-word term is
  // a phrase, as a quoted FTS5 string is. A single Chinese character (never syntax) is a prefix, as in SQLite.
  return isHanPrefixTerm(w) ? { sql: "to_tsquery('tidepool', ?)", param: `${w}:*` } : { sql: "phraseto_tsquery('tidepool', ?)", param: w };
}

function tsqAll(terms: readonly string[], op: '||' | '&&'): { sql: string; params: string[] } {
  const parts = terms.map(tsq);
  return { sql: `(${parts.map((p) => p.sql).join(` ${op} `)})`, params: parts.map((p) => p.param) };
}

/**
 * tsvector-backed SearchIndex with SQLite's search plan (sqlite-search.ts): per-space term counts decide which terms
 * are common; common terms leave the OR query while the rows holding every term are fetched first; when all are
 * common the newest rows holding all of them win. Candidates are ranked as BM25 does: idf from the per-space counts
 * times each term's weighted frequency (ts_rank of the term alone; ts_rank over a whole query has no idf).
 */
export class PgSearch implements SearchIndex {
  readonly #db: SqlDriver;
  readonly #memo: PgSearchMemo;
  constructor(db: SqlDriver, memo: PgSearchMemo = new PgSearchMemo()) {
    this.#db = db;
    this.#memo = memo;
  }

  async index(layer: Layer, docs: ReadonlyArray<{ id: number } & IndexText>): Promise<void> {
    const t = T[layer];
    for (const part of chunks(docs, BATCH)) {
      // One JSON parameter per batch (json_to_recordset): one statement where multi-row VALUES needed ten.
      // Weights as in the SQLite index: body A, speaker/tags B, the preceding turns of an episode (ctx) C.
      await this.#db.run(
        `INSERT INTO ${t.fts} (id, tsv, raw)
         SELECT u.id, setweight(to_tsvector('tidepool', u.body), 'A') || setweight(to_tsvector('tidepool', u.extra), 'B')
           || setweight(to_tsvector('tidepool', u.ctx), 'C'), u.raw
         FROM json_to_recordset(?::json) AS u(id bigint, body text, extra text, ctx text, raw text)
         ON CONFLICT (id) DO UPDATE SET tsv = excluded.tsv, raw = excluded.raw`,
        [jsonRecords(['id', 'body', 'extra', 'ctx', 'raw'], part.map((d) => [d.id, d.body, d.extra, d.ctx ?? '', d.raw]))],
      );
    }
  }

  async unindex(layer: Layer, ids: readonly number[]): Promise<void> {
    for (const part of chunks(ids)) await this.#db.run(`DELETE FROM ${T[layer].fts} WHERE id IN (${marks(part.length)})`, part);
  }

  async lexical(space: string, layer: Layer, terms: readonly string[], o: LexicalOptions): Promise<Array<{ id: number; score: number }>> {
    if (terms.length === 0) return [];
    const t = T[layer];
    const plan = await this.#plan(space, layer, terms);
    const span = await this.#timeSpan(space, layer, o);
    if (span === null) return [];
    const lo = Math.max(plan.minId ?? 0, span ? span.lo - 1 : 0);
    const floor = `${lo > 0 ? ' AND f.id > ?' : ''}${span ? ' AND f.id <= ?' : ''}`;
    const floorParams = [...(lo > 0 ? [lo] : []), ...(span ? [span.hi] : [])];
    // Score in the index alone, then keep this space's rows that pass the filters; over-fetch, and fall back to the
    // join when the filters drop too many (as SQLite does).
    const fetch = o.limit * 3;
    const scored = () => this.#bm25(layer, plan, plan.terms, tsqAll(plan.terms, '||'), floor, floorParams, fetch);
    let raw: Array<{ id: number; s: number }>;
    if (plan.minId !== undefined && !span) {
      // Every word is common: the newest rows holding all of them rank first.
      const all = tsqAll(terms, '&&');
      const newest = await this.#db.all<{ id: unknown }>(
        `SELECT f.id AS id FROM ${t.fts} f WHERE f.tsv @@ ${all.sql} ORDER BY f.id DESC LIMIT ?`,
        [...all.params, fetch],
      );
      raw = newest.length === fetch ? newest.map((r, i) => ({ id: num(r.id), s: 1 - i / (2 * fetch) })) : await scored();
    } else if (plan.dropped) {
      // Rows holding every asked term first, scored by all of them; then the OR of the rare ones.
      const spanFloor = span ? ' AND f.id > ? AND f.id <= ?' : '';
      const all = await this.#bm25(layer, plan, terms, tsqAll(terms, '&&'), spanFloor, span ? [span.lo - 1, span.hi] : [], fetch);
      const best = new Map<number, number>();
      for (const r of [...all, ...(await scored())]) best.set(r.id, Math.max(best.get(r.id) ?? -Infinity, r.s));
      raw = [...best].map(([id, sc]) => ({ id, s: sc })).sort((a, b) => b.s - a.s || b.id - a.id).slice(0, fetch);
    } else {
      raw = await scored();
    }
    if (raw.length === 0) return [];
    const f = filters(layer, o);
    const kept = new Set(
      (
        await this.#db.all<{ id: unknown }>(
          `SELECT x.id AS id FROM ${t.table} x WHERE x.id IN (${marks(raw.length)}) AND x.space = ?${f.sql}`,
          [...raw.map((r) => r.id), space, ...f.params],
        )
      ).map((r) => num(r.id)),
    );
    const out = raw.filter((r) => kept.has(r.id)).map((r) => ({ id: r.id, score: r.s }));
    if (out.length >= o.limit || raw.length < fetch) return out.slice(0, o.limit);
    // Too few of the best rows are this space's (or pass the filters): rank the space's matching rows directly.
    const direct = await this.#bm25(layer, plan, plan.terms, tsqAll(plan.terms, '||'), floor, floorParams, o.limit, { space, f });
    return direct.map((r) => ({ id: r.id, score: r.s }));
  }

  /**
   * The `limit` best rows matching `match`, scored as BM25 sums its terms: per term, idf (from the space's counts, as
   * FTS5 computes it) times ts_rank of that term alone (its weighted, saturating frequency over the columns, divided
   * by 1 + log(length)). ts_rank runs in C per candidate row; the candidates are only the rows holding a rare term
   * (or all terms, or the newest window), never every row of a common word. With `within`, only the rows of that
   * space passing the filters.
   */
  async #bm25(
    layer: Layer,
    plan: PgPlan,
    terms: readonly string[],
    match: { sql: string; params: string[] },
    floor: string,
    floorParams: readonly number[],
    limit: number,
    within?: { space: string; f: { sql: string; params: SqlValue[] } },
  ): Promise<Array<{ id: number; s: number }>> {
    const t = T[layer];
    const n = plan.stats.rows;
    // ts_rank weights {D, C, B, A}: body (A) 1.0; an episode's speaker (B) and preceding turns (C) 0.3, other
    // layers' tags (B) 0.5 — the SQLite bm25 column weights.
    const weights = layer === 'episode' ? '{0.1, 0.3, 0.3, 1.0}' : '{0.1, 0.3, 0.5, 1.0}';
    const parts = terms.map((w) => {
      const hits = plan.counts.get(w) ?? 0;
      // FTS5: idf = log((N - n + 0.5) / (n + 0.5)), at least 1e-6.
      const idf = Math.log((n - hits + 0.5) / (hits + 0.5));
      return { q: tsq(w), idf: idf > 0 ? idf : 1e-6 };
    });
    const score = parts.map((p) => `${p.idf.toFixed(6)} * ts_rank('${weights}', f.tsv, ${p.q.sql}, 1)`).join(' + ');
    const join = within ? ` JOIN ${t.table} x ON x.id = f.id AND x.space = ?${within.f.sql}` : '';
    const rows = await this.#db.all<{ id: unknown; s: number }>(
      `SELECT f.id AS id, ${score} AS s FROM ${t.fts} f${join} WHERE f.tsv @@ ${match.sql}${floor}
       ORDER BY s DESC, f.id DESC LIMIT ?`,
      [
        ...parts.map((p) => p.q.param),
        ...(within ? [within.space, ...within.f.params] : []),
        ...match.params,
        ...floorParams,
        limit,
      ],
    );
    return rows.map((r) => ({ id: num(r.id), s: num(r.s) }));
  }

  /** The id range of the space's rows in a time window (`undefined`: no window; `null`: an empty one). */
  async #timeSpan(space: string, layer: Layer, o: LexicalOptions): Promise<{ lo: number; hi: number } | null | undefined> {
    if (o.since === undefined && o.until === undefined) return undefined;
    const t = T[layer];
    const b = await this.#db.get<{ lo: unknown; hi: unknown }>(
      `SELECT MIN(id) AS lo, MAX(id) AS hi FROM ${t.table} WHERE space = ? AND ${t.time} >= ? AND ${t.time} <= ?`,
      [space, o.since ?? Number.MIN_SAFE_INTEGER, o.until ?? Number.MAX_SAFE_INTEGER],
    );
    if (b?.lo === null || b?.lo === undefined) return null;
    return { lo: num(b.lo), hi: num(b.hi) };
  }

  /** The space's row count, whether it is alone in the table, and its newest-window floor, counted at most every STATS_TTL_MS. */
  async #stats(space: string, layer: Layer): Promise<SpaceStats> {
    const key = `${layer}\u001f${space}`;
    const now = Date.now();
    const known = this.#memo.stats.get(key);
    if (known && now - known.at < STATS_TTL_MS) return known;
    const t = T[layer];
    const c = await this.#db.get<{ n: unknown; other: unknown }>(
      `SELECT count(*) AS n, (SELECT 1 FROM ${t.table} WHERE space <> ? LIMIT 1) AS other FROM ${t.table} WHERE space = ?`,
      [space, space],
    );
    const rows = num(c?.n ?? 0);
    const floor = await this.#db.get<{ id: unknown }>(
      `SELECT id FROM ${t.table} WHERE space = ? ORDER BY id DESC OFFSET ? LIMIT 1`,
      [space, COMMON_WINDOW],
    );
    const stats = { rows, alone: c?.other === null, windowFloor: num(floor?.id ?? 0), at: now };
    if (this.#memo.stats.size >= COMMON_MEMO) this.#memo.stats.clear();
    this.#memo.stats.set(key, stats);
    return stats;
  }

  /** Which terms to score (SQLite's plan, over the space's own counts). */
  async #plan(space: string, layer: Layer, terms: readonly string[]): Promise<PgPlan> {
    const stats = await this.#stats(space, layer);
    const n = stats.rows;
    const cap = Math.floor(Math.min(n * COMMON_SHARE, COMMON_ROWS));
    const counts = new Map<string, number>();
    for (const w of terms) counts.set(w, await this.#count(space, layer, w, stats, n < PRUNE_MIN_DOCS ? n : cap));
    if (n < PRUNE_MIN_DOCS) return { terms, stats, counts };
    const rare = terms.filter((w) => counts.get(w)! <= cap);
    if (rare.length > 0) return { terms: rare, stats, counts, dropped: rare.length < terms.length };
    return {
      terms: terms.length <= 2 ? terms : await this.#rarestOfLate(space, layer, terms, stats.alone),
      stats,
      counts,
      minId: stats.windowFloor,
    };
  }

  /**
   * Rows of the space holding the term, counted up to `cap + 1` (more means common). Kept while the space grows by
   * less than 1 %.
   */
  async #count(space: string, layer: Layer, w: string, stats: SpaceStats, cap: number): Promise<number> {
    const n = stats.rows;
    const key = `${layer}\u001f${space}\u001f${w}`;
    const known = this.#memo.terms.get(key);
    if (known && n >= known.rows && n - known.rows <= known.rows / 100) return known.count;
    const t = T[layer];
    const q = tsq(w);
    const r = await this.#db.get<{ c: unknown }>(
      stats.alone
        ? `SELECT count(*) AS c FROM (SELECT 1 FROM ${t.fts} f WHERE f.tsv @@ ${q.sql} LIMIT ?) s`
        : `SELECT count(*) AS c FROM (SELECT 1 FROM ${t.fts} f JOIN ${t.table} x ON x.id = f.id
           WHERE f.tsv @@ ${q.sql} AND x.space = ? LIMIT ?) s`,
      stats.alone ? [q.param, cap + 1] : [q.param, space, cap + 1],
    );
    const count = num(r?.c ?? 0);
    if (this.#memo.terms.size >= COMMON_MEMO) this.#memo.terms.clear();
    this.#memo.terms.set(key, { count, common: count > cap, rows: n });
    return count;
  }

  /** The two terms with the fewest matches among the space's newest rows, judged by each one's newest matches. */
  async #rarestOfLate(space: string, layer: Layer, terms: readonly string[], alone: boolean): Promise<string[]> {
    const t = T[layer];
    const top = await this.#db.get<{ m: unknown }>(`SELECT max(id) AS m FROM ${t.table} WHERE space = ?`, [space]);
    const hi = num(top?.m ?? 0);
    const density: Array<{ w: string; d: number }> = [];
    for (const w of terms) {
      const q = tsq(w);
      const r = await this.#db.get<{ c: unknown; low: unknown }>(
        alone
          ? `SELECT count(*) AS c, min(id) AS low FROM (SELECT f.id FROM ${t.fts} f WHERE f.tsv @@ ${q.sql}
             ORDER BY f.id DESC LIMIT ?) s`
          : `SELECT count(*) AS c, min(id) AS low FROM (SELECT f.id FROM ${t.fts} f JOIN ${t.table} x ON x.id = f.id
             WHERE f.tsv @@ ${q.sql} AND x.space = ? ORDER BY f.id DESC LIMIT ?) s`,
        alone ? [q.param, RECENT_SAMPLE] : [q.param, space, RECENT_SAMPLE],
      );
      density.push({ w, d: num(r?.c ?? 0) / (hi - num(r?.low ?? 0) + 1) });
    }
    return density.sort((a, b) => a.d - b.d).slice(0, 2).map((x) => x.w);
  }

  async substring(space: string, layer: Layer, needle: string, o: LexicalOptions): Promise<Array<{ id: number; score: number }>> {
    const n = needle.trim();
    if (n.length === 0) return [];
    const t = T[layer];
    const f = filters(layer, o);
    const pattern = `%${likeLiteral(n)}%`;
    // Three or more characters: the raw text, through pg_trgm's GIN index when the server has it (a scan
    // otherwise). Shorter needles (a 2-character CJK word) scan the space's own content, as SQLite does.
    const rows =
      [...n].length >= 3
        ? await this.#db.all<{ id: unknown }>(
            `SELECT f.id AS id FROM ${t.fts} f JOIN ${t.table} x ON x.id = f.id
             WHERE f.raw ILIKE ? ESCAPE '\\' AND x.space = ?${f.sql} ORDER BY x.${t.time} DESC, x.id DESC LIMIT ?`,
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
