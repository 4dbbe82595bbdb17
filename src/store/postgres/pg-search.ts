/** PostgreSQL lexical indexes: a weighted tsvector per item (ts_rank) and its raw text for ILIKE / pg_trgm. */
import type { Layer } from '../../core/types.js';
import type { IndexText, LexicalOptions, SearchIndex } from '../port.js';
import type { SqlDriver, SqlValue } from '../sql-driver.js';
import { chunks, isHanPrefixTerm, marks, num } from '../sql/sql-util.js';

const T: Record<Layer, { table: string; fts: string; time: string }> = {
  episode: { table: 'episodes', fts: 'episodes_fts', time: 'occurred_at' },
  narrative: { table: 'narratives', fts: 'narratives_fts', time: 'created_at' },
  knowledge: { table: 'knowledge', fts: 'knowledge_fts', time: 'created_at' },
};

// Rows per multi-row INSERT: 4 parameters each, far below the 65,535-parameter limit.
const BATCH = 200;

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

/** tsvector-backed SearchIndex; the `tidepool` text search config is created by the migrations. */
export class PgSearch implements SearchIndex {
  readonly #db: SqlDriver;
  constructor(db: SqlDriver) {
    this.#db = db;
  }

  async index(layer: Layer, docs: ReadonlyArray<{ id: number } & IndexText>): Promise<void> {
    const t = T[layer];
    for (let i = 0; i < docs.length; i += BATCH) {
      const part = docs.slice(i, i + BATCH);
      // Weights as in the SQLite index: body A, speaker/tags B, the preceding turns of an episode (ctx) C.
      const rows = part.map(
        () =>
          "(?, setweight(to_tsvector('tidepool', ?), 'A') || setweight(to_tsvector('tidepool', ?), 'B') || setweight(to_tsvector('tidepool', ?), 'C'), ?)",
      );
      await this.#db.run(
        `INSERT INTO ${t.fts} (id, tsv, raw) VALUES ${rows.join(', ')}
         ON CONFLICT (id) DO UPDATE SET tsv = excluded.tsv, raw = excluded.raw`,
        part.flatMap((d) => [d.id, d.body, d.extra, d.ctx ?? '', d.raw]),
      );
    }
  }

  async unindex(layer: Layer, ids: readonly number[]): Promise<void> {
    for (const part of chunks(ids)) await this.#db.run(`DELETE FROM ${T[layer].fts} WHERE id IN (${marks(part.length)})`, part);
  }

  async lexical(space: string, layer: Layer, terms: readonly string[], o: LexicalOptions): Promise<Array<{ id: number; score: number }>> {
    if (terms.length === 0) return [];
    const t = T[layer];
    const f = filters(layer, o);
    // Each term is a parameter of phraseto_tsquery, which reads plain text: user words never become tsquery
    // syntax (DESIGN §3), and a multi-word term is a phrase, as a quoted FTS5 string is. A single Chinese
    // character (never syntax) is a prefix, as in SQLite.
    const query = terms.map((w) => (isHanPrefixTerm(w) ? "to_tsquery('tidepool', ?)" : "phraseto_tsquery('tidepool', ?)")).join(' || ');
    const params = terms.map((w) => (isHanPrefixTerm(w) ? `${w}:*` : w));
    // ts_rank (term frequency, like BM25) rather than ts_rank_cd (cover density): it ranks alike on OR queries
    // and costs about a third less per matching row, which is what a common word's query pays for.
    // Weights {D, C, B, A} follow the SQLite bm25 call: body (A) 1.0; an episode's speaker (B) and preceding turns
    // (C) 0.3, other layers' tags (B) 0.5. Normalisation 1 divides by 1 + log(length), standing in for BM25's.
    const weights = layer === 'episode' ? '{0.1, 0.3, 0.3, 1.0}' : '{0.1, 0.3, 0.5, 1.0}';
    const rows = await this.#db.all<{ id: unknown; s: number }>(
      `SELECT f.id AS id, ts_rank('${weights}', f.tsv, q.q, 1) AS s
       FROM (SELECT ${query} AS q) q, ${t.fts} f JOIN ${t.table} x ON x.id = f.id
       WHERE f.tsv @@ q.q AND x.space = ?${f.sql} ORDER BY s DESC, f.id DESC LIMIT ?`,
      [...params, space, ...f.params, o.limit],
    );
    return rows.map((r) => ({ id: num(r.id), score: num(r.s) }));
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
