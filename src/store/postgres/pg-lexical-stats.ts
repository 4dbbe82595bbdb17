/**
 * PostgreSQL's lexical statistics kept on write (issue 20): per space and layer, the rows in the word index, their
 * tokens, and the rows holding each lexeme. BM25 and the search plan read them instead of counting a word's rows in
 * the GIN index at query time, where every count visited each matching row (~0.35 µs a row: 11 ms for a word in a
 * third of 100k rows) and a fresh process (a hook, a new server) counted again. SQLite's FTS5 reads the same
 * figures from its doclists.
 *
 * A write appends one delta row (its batch's rows, tokens and rows per lexeme as one JSON object): no row is updated
 * on the write path, so concurrent writers never wait on a common word. Deltas are folded into the totals after the
 * commit (`compactLexicalStats`, a few batches at a time), and a reader adds the totals and the deltas in one
 * statement, so it always sees exact figures of what it can see. Forgetting subtracts the deleted rows' lexemes and
 * folds at once, so a forgotten word leaves no row behind (a lexeme whose count reaches 0 is deleted).
 */
import type { Layer } from '../../core/types.js';
import type { SqlDriver } from '../sql-driver.js';
import { marks, num } from '../sql/sql-util.js';

/** One write's contribution to a space's statistics, built from the tsvectors it indexes. */
export class LexicalDelta {
  rows = 0;
  tokens = 0;
  readonly terms = new Map<string, number>();

  /** Adds one indexed row: its positions and its distinct lexemes. */
  add(tokens: number, lexemes: Iterable<string>): void {
    this.rows++;
    this.tokens += tokens;
    for (const l of lexemes) this.terms.set(l, (this.terms.get(l) ?? 0) + 1);
  }

  /**
   * The lexemes and their rows as one JSON object (every key is a lexeme: FTS5 terms are never empty). Written key by
   * key: an object of ~1,700 keys built for JSON.stringify cost ~5 ms a batch.
   */
  json(): string {
    let out = '';
    for (const [term, rows] of this.terms) out += `${out === '' ? '{' : ','}${JSON.stringify(term)}:${rows}`;
    return out === '' ? '{}' : `${out}}`;
  }
}

/** Deltas of a layer folded at once after a commit; below this many, readers add them up themselves. */
export const COMPACT_AT = 8;
/** Deltas folded per statement. */
const COMPACT_BATCH = 64;

/** Appends a write's delta (nothing when it indexed no row). */
export async function addLexicalDelta(db: SqlDriver, layer: Layer, space: string, d: LexicalDelta): Promise<void> {
  if (d.rows === 0) return;
  await db.run('INSERT INTO lexical_deltas (layer, space, rows, tokens, terms) VALUES (?, ?, ?, ?, ?::jsonb)', [
    layer, space, d.rows, d.tokens, d.json(),
  ]);
}

/**
 * Deletes index rows and subtracts them from the space's statistics, in one statement: what the DELETE returns is
 * what is subtracted, so rows already gone subtract nothing. `rows` is the index table; a row's tokens are its stored
 * length, or its positions for rows written before the length column.
 */
export async function deleteIndexedRows(db: SqlDriver, fts: string, layer: Layer, space: string, ids: readonly number[]): Promise<void> {
  await db.run(
    `WITH gone AS (DELETE FROM ${fts} WHERE id IN (${marks(ids.length)}) RETURNING tsv, len),
       lex AS (SELECT u.lexeme AS k, -count(*) AS n FROM gone g, unnest(g.tsv) u GROUP BY u.lexeme)
     INSERT INTO lexical_deltas (layer, space, rows, tokens, terms)
     SELECT ?, ?, -count(*),
       -coalesce(sum(coalesce(g.len, (SELECT sum(greatest(1, cardinality(u.positions))) FROM unnest(g.tsv) u))), 0),
       coalesce((SELECT jsonb_object_agg(k, n) FROM lex), '{}'::jsonb)
     FROM gone g HAVING count(*) > 0`,
    [...ids, layer, space],
  );
}

/**
 * Folds the oldest deltas of `layer` (of `space` alone when given) into the totals, in one statement per
 * `COMPACT_BATCH`: the deltas are deleted and their sums added, and a total that reaches 0 is deleted rather than
 * kept. Rows another folder holds are skipped. Safe beside writers and other folders: a concurrent change to a total
 * is re-read by the statement before it decides to delete or add (READ COMMITTED re-checks a locked row).
 * `all`: until no delta is left (forgetting), else only while `COMPACT_AT` or more are waiting.
 */
export async function compactLexicalStats(db: SqlDriver, layer: Layer, o: { space?: string; all?: boolean } = {}): Promise<void> {
  // One folder of a layer at a time, across servers (an advisory lock held to the end of the transaction): two
  // folding the same totals in different orders could deadlock, and a forget must not fail for that. Work after a
  // commit gives way when another folder is at it (it folds until few deltas are left); a forget waits.
  await db.transaction(async (tx) => {
    const lock = `SELECT ${o.all ? 'pg_advisory_xact_lock' : 'pg_try_advisory_xact_lock'}(hashtext(?)) AS locked`;
    const held = await tx.get<{ locked: unknown }>(lock, [`tidepool.lexical-stats.${layer}`]);
    if (!o.all && held?.locked !== true) return;
    await fold(tx, layer, o);
  });
}

async function fold(db: SqlDriver, layer: Layer, o: { space?: string; all?: boolean }): Promise<void> {
  const scope = o.space === undefined ? '' : ' AND space = ?';
  const scopeParams = o.space === undefined ? [] : [o.space];
  for (;;) {
    if (!o.all) {
      const waiting = await db.get<{ n: unknown }>(
        `SELECT count(*) AS n FROM (SELECT 1 FROM lexical_deltas WHERE layer = ?${scope} LIMIT ?) s`,
        [layer, ...scopeParams, COMPACT_AT],
      );
      if (num(waiting?.n ?? 0) < COMPACT_AT) return;
    }
    const moved = await db.get<{ n: unknown }>(
      `WITH moved AS (
         DELETE FROM lexical_deltas WHERE id IN (
           SELECT id FROM lexical_deltas WHERE layer = ?${scope} ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)
         RETURNING space, rows, tokens, terms),
       r AS (SELECT space, sum(rows) AS rows, sum(tokens) AS tokens FROM moved GROUP BY space),
       rgone AS (DELETE FROM lexical_rows c USING r WHERE c.layer = ? AND c.space = r.space AND c.rows + r.rows = 0
         RETURNING c.space),
       rput AS (INSERT INTO lexical_rows (layer, space, rows, tokens)
         SELECT ?, r.space, r.rows, r.tokens FROM r WHERE (r.rows <> 0 OR r.tokens <> 0) AND r.space NOT IN (SELECT space FROM rgone)
         ORDER BY r.space
         ON CONFLICT (layer, space) DO UPDATE SET rows = lexical_rows.rows + excluded.rows, tokens = lexical_rows.tokens + excluded.tokens),
       t AS (SELECT m.space, e.key AS term, sum(e.value::bigint) AS rows FROM moved m, jsonb_each_text(m.terms) e
         GROUP BY m.space, e.key HAVING sum(e.value::bigint) <> 0),
       tgone AS (DELETE FROM lexical_terms c USING t WHERE c.layer = ? AND c.space = t.space AND c.term = t.term
         AND c.rows + t.rows = 0 RETURNING c.space, c.term),
       tput AS (INSERT INTO lexical_terms (layer, space, term, rows)
         SELECT ?, t.space, t.term, t.rows FROM t WHERE NOT EXISTS (SELECT 1 FROM tgone g WHERE g.space = t.space AND g.term = t.term)
         ORDER BY t.space, t.term
         ON CONFLICT (layer, space, term) DO UPDATE SET rows = lexical_terms.rows + excluded.rows)
     SELECT count(*) AS n FROM moved`,
      [layer, ...scopeParams, COMPACT_BATCH, layer, layer, layer, layer],
    );
    if (num(moved?.n ?? 0) === 0) return;
  }
}

/** A space's statistics in a layer's word index. */
export interface LexicalStats {
  rows: number;
  tokens: number;
  /** Another space has rows in the layer's index. */
  others: boolean;
  /** Rows holding each asked lexeme, in order. */
  hits: number[];
  /** The highest id in the index table, when asked (`o.topOf`). */
  top?: number;
}

/**
 * The space's rows, tokens and rows per lexeme: the totals plus the deltas not folded yet, in one statement (one
 * snapshot, so a fold in between is never seen twice or missed).
 */
export async function readLexicalStats(
  db: SqlDriver,
  layer: Layer,
  space: string,
  lexemes: readonly string[],
  o: { topOf?: string } = {},
): Promise<LexicalStats> {
  const hits = lexemes.map(
    (_, i) => `coalesce((SELECT rows FROM lexical_terms WHERE layer = ? AND space = ? AND term = ?), 0)
      + coalesce((SELECT sum((d.terms ->> ?)::bigint) FROM lexical_deltas d WHERE d.layer = ? AND d.space = ?), 0) AS h${i}`,
  );
  const r = await db.get<Record<string, unknown>>(
    `SELECT coalesce((SELECT rows FROM lexical_rows WHERE layer = ? AND space = ?), 0)
         + coalesce((SELECT sum(rows) FROM lexical_deltas WHERE layer = ? AND space = ?), 0) AS rows,
       coalesce((SELECT tokens FROM lexical_rows WHERE layer = ? AND space = ?), 0)
         + coalesce((SELECT sum(tokens) FROM lexical_deltas WHERE layer = ? AND space = ?), 0) AS tokens,
       EXISTS (SELECT 1 FROM lexical_rows WHERE layer = ? AND space <> ?)
         OR EXISTS (SELECT 1 FROM lexical_deltas WHERE layer = ? AND space <> ? AND rows > 0) AS others
       ${o.topOf ? `, (SELECT max(id) FROM ${o.topOf}) AS top` : ''}${hits.map((h) => `, ${h}`).join('')}`,
    [
      layer, space, layer, space, layer, space, layer, space, layer, space, layer, space,
      ...lexemes.flatMap((l) => [layer, space, l, l, layer, space]),
    ],
  );
  return {
    rows: num(r?.rows ?? 0),
    tokens: num(r?.tokens ?? 0),
    others: r?.others === true,
    hits: lexemes.map((_, i) => num(r?.[`h${i}`] ?? 0)),
    ...(o.topOf ? { top: num(r?.top ?? 0) } : {}),
  };
}

/** Drops a space's statistics (the space is being erased, its rows already unindexed). */
export async function dropLexicalStats(db: SqlDriver, space: string): Promise<void> {
  for (const t of ['lexical_deltas', 'lexical_rows', 'lexical_terms']) await db.run(`DELETE FROM ${t} WHERE space = ?`, [space]);
}

/**
 * Statistics of every row already indexed, their space taken from the item tables: the migration's backfill (and a
 * rebuild after the tables were emptied).
 */
export function lexicalStatsBackfill(): string {
  const layers: Array<[Layer, string]> = [['episode', 'episodes'], ['narrative', 'narratives'], ['knowledge', 'knowledge']];
  return layers
    .map(
      ([layer, table]) => `
INSERT INTO lexical_rows (layer, space, rows, tokens)
SELECT '${layer}', x.space, count(*),
  sum(coalesce(f.len, (SELECT sum(greatest(1, cardinality(u.positions))) FROM unnest(f.tsv) u)))
FROM ${table}_fts f JOIN ${table} x ON x.id = f.id GROUP BY x.space;
INSERT INTO lexical_terms (layer, space, term, rows)
SELECT '${layer}', x.space, u.lexeme, count(*) FROM ${table}_fts f JOIN ${table} x ON x.id = f.id, unnest(f.tsv) u
GROUP BY x.space, u.lexeme;`,
    )
    .join('\n');
}

/** The v4 schema, then its backfill. */
export function lexicalStatsMigration(): string {
  return `
CREATE TABLE lexical_rows (layer TEXT NOT NULL, space TEXT NOT NULL, rows BIGINT NOT NULL, tokens BIGINT NOT NULL,
  PRIMARY KEY (layer, space));
CREATE TABLE lexical_terms (layer TEXT NOT NULL, space TEXT NOT NULL, term TEXT NOT NULL, rows BIGINT NOT NULL,
  PRIMARY KEY (layer, space, term));
CREATE TABLE lexical_deltas (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, layer TEXT NOT NULL, space TEXT NOT NULL,
  rows BIGINT NOT NULL, tokens BIGINT NOT NULL, terms JSONB NOT NULL);
CREATE INDEX ix_lexical_deltas ON lexical_deltas (layer, space);
-- Read whole by every search until folded: stored apart and uncompressed, so reading one costs a copy, not a pglz pass.
ALTER TABLE lexical_deltas ALTER COLUMN terms SET STORAGE EXTERNAL;
${lexicalStatsBackfill()}
`;
}
