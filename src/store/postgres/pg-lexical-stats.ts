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
import { PREPARED, sendsAhead, type SqlDriver } from '../sql-driver.js';
import { chunks, marks, num } from '../sql/sql-util.js';
import { internEpoch, PREFIX_MARK, type Lexeme, type StatKey } from './pg-lexemes.js';

/** One write's contribution to a space's statistics, built from the tsvectors it indexes. */
export class LexicalDelta {
  rows = 0;
  tokens = 0;
  /**
   * Rows per key, counted on the interned keys themselves (`StatKey.delta` and `slot`: this delta's id and the key's
   * place in `#counts`), so that counting a row's ~35 keys looks nothing up (two map operations a key were ~1 of a
   * batch's ~40 ms in Node, issue 20). A key another open delta counted since (two writes in flight in one process)
   * is counted again under a new place: `#shared` then sums by text.
   */
  readonly #id = ++deltas;
  readonly #keys: StatKey[] = [];
  readonly #counts: number[] = [];
  #shared = false;
  /**
   * The interning epoch when the delta began (every key it counts is of it or a later one): when it moved on, one key
   * may be counted under two objects. Taken at the first row, it missed a start-over between the build of a part's
   * tsvectors and their count (the next part's build may start the interned keys over before the last is counted).
   */
  readonly #epoch = internEpoch();

  /** Adds one indexed row: its positions and its distinct lexemes (and, once each, their first characters). */
  add(tokens: number, lexemes: readonly Lexeme[]): void {
    const row = ++rowsCounted;
    this.rows++;
    this.tokens += tokens;
    for (const lx of lexemes) {
      this.#count(lx);
      const p = lx.prefix();
      if (p.row !== row) {
        p.row = row;
        this.#count(p);
      }
    }
  }

  #count(k: StatKey): void {
    if (k.delta === this.#id) {
      this.#counts[k.slot]!++;
      return;
    }
    // Counted by another delta still open (one that was read let its keys go): this one may hold k twice.
    if (k.delta !== 0) this.#shared = true;
    k.delta = this.#id;
    k.slot = this.#keys.length;
    this.#keys.push(k);
    this.#counts.push(1);
  }

  /**
   * Rows per key (lexeme or prefix key). Summed by text when one key may have two places: counted beside another
   * delta, or under two objects when the interned keys were started over during the batch (both rare).
   */
  *#entries(): Generator<[string, number]> {
    const keys = this.#keys;
    const counts = this.#counts;
    if (!this.#shared && this.#epoch === internEpoch()) {
      for (let i = 0; i < keys.length; i++) yield [keys[i]!.key, counts[i]!];
      return;
    }
    const summed = new Map<string, number>();
    for (let i = 0; i < keys.length; i++) summed.set(keys[i]!.key, (summed.get(keys[i]!.key) ?? 0) + counts[i]!);
    yield* summed;
  }

  /**
   * The lexemes and their rows as one JSON object (every key is a lexeme: FTS5 terms are never empty). Written key by
   * key: an object of ~1,700 keys built for JSON.stringify cost ~5 ms a batch. Reading it lets the keys go (a later
   * delta counting them then knows no other holds them).
   */
  json(): string {
    let out = '';
    for (const [k, rows] of this.#entries()) out += `${out === '' ? '{' : ','}${JSON.stringify(k)}:${rows}`;
    for (const k of this.#keys) if (k.delta === this.#id) k.delta = 0;
    return out === '' ? '{}' : `${out}}`;
  }
}

/** Deltas made so far (`LexicalDelta`'s ids; 0 is none). */
let deltas = 0;

/** Rows counted by any delta so far (`StatKey.row`: a prefix counts once a row). */
let rowsCounted = 0;

/** The prefix keys of one index row's tsvector `tsv`, each once, in SQL (`prefixKey` of each lexeme's first character). */
const ROW_PREFIXES = (tsv: string) => `(SELECT DISTINCT left(u.lexeme, 1) || '${PREFIX_MARK}' AS k FROM unnest(${tsv}) u)`;

/** Deltas of a layer folded at once after a commit; below this many, readers add them up themselves. */
export const COMPACT_AT = 16;
/** Deltas folded per statement. */
const COMPACT_BATCH = 64;

/** Appends a write's delta (nothing when it indexed no row). */
export async function addLexicalDelta(db: SqlDriver, layer: Layer, space: string, d: LexicalDelta): Promise<void> {
  if (d.rows === 0) return;
  const sql = 'INSERT INTO lexical_deltas (layer, space, rows, tokens, terms) VALUES (?, ?, ?, ?, ?::jsonb)';
  const params = [layer, space, d.rows, d.tokens, d.json()];
  // The write's last statement: on a pipelined connection the COMMIT follows it without waiting for its answer.
  if (sendsAhead(db)) db.sendAhead(sql, params, PREPARED);
  else await db.run(sql, params, PREPARED);
}

/**
 * Deletes index rows and subtracts them from the space's statistics, in one statement: what the DELETE returns is
 * what is subtracted, so rows already gone subtract nothing. `rows` is the index table; a row's tokens are its stored
 * length, or its positions for rows written before the length column.
 */
export async function deleteIndexedRows(db: SqlDriver, fts: string, layer: Layer, space: string, ids: readonly number[]): Promise<void> {
  await db.run(
    `WITH gone AS (DELETE FROM ${fts} WHERE id IN (${marks(ids.length)}) RETURNING tsv, len),
       lex AS (SELECT u.lexeme AS k, -count(*) AS n FROM gone g, unnest(g.tsv) u GROUP BY u.lexeme
         UNION ALL SELECT p.k, -count(*) FROM gone g, LATERAL ${ROW_PREFIXES('g.tsv')} p GROUP BY p.k)
     INSERT INTO lexical_deltas (layer, space, rows, tokens, terms)
     SELECT ?, ?, -count(*),
       -coalesce(sum(coalesce(g.len, (SELECT sum(greatest(1, cardinality(u.positions))) FROM unnest(g.tsv) u))), 0),
       coalesce((SELECT jsonb_object_agg(k, n) FROM lex), '{}'::jsonb)
     FROM gone g HAVING count(*) > 0`,
    [...ids, layer, space],
  );
}

/**
 * Folds the oldest deltas of `layer` (of `space` alone when given) into the totals, `COMPACT_BATCH` at a time: the
 * deltas are deleted and their sums added in one statement, and the totals that reached 0 are then deleted rather
 * than kept (a forgotten word leaves no row). One folder of a layer at a time, across servers: an advisory lock held
 * to the end of the transaction, so that two folders never update the same totals in different orders (a deadlock a
 * forget must not fail on) and no total is deleted at 0 while another folder adds to it. `all`: until no delta is
 * left, waiting for the lock (forgetting); else only while `COMPACT_AT` or more are waiting, giving way when another
 * folder holds the lock (it folds until fewer are left).
 */
export async function compactLexicalStats(db: SqlDriver, layer: Layer, o: { space?: string; all?: boolean } = {}): Promise<void> {
  const scope = o.space === undefined ? '' : ' AND space = ?';
  const scopeParams = o.space === undefined ? [] : [o.space];
  const waiting = async (d: SqlDriver) =>
    num(
      (
        await d.get<{ n: unknown }>(`SELECT count(*) AS n FROM (SELECT 1 FROM lexical_deltas WHERE layer = ?${scope} LIMIT ?) s`, [
          layer, ...scopeParams, COMPACT_AT,
        ])
      )?.n ?? 0,
    );
  // Asked after every write: most find too few waiting, and leave without a transaction.
  if (!o.all && (await waiting(db)) < COMPACT_AT) return;
  await db.transaction(async (tx) => {
    const lock = `SELECT ${o.all ? 'pg_advisory_xact_lock' : 'pg_try_advisory_xact_lock'}(hashtext(?)) AS locked`;
    const held = await tx.get<{ locked: unknown }>(lock, [`tidepool.lexical-stats.${layer}`]);
    if (!o.all && held?.locked !== true) return;
    for (;;) {
      if (!o.all && (await waiting(tx)) < COMPACT_AT) return;
      if ((await foldOnce(tx, layer, scope, scopeParams)) === 0) return;
    }
  });
}

/** One fold of the oldest deltas; how many it folded. */
async function foldOnce(db: SqlDriver, layer: Layer, scope: string, scopeParams: readonly string[]): Promise<number> {
  // The totals that reach 0 come back from the upserts and are deleted by key after: found inside the statement, by
  // joining the folded terms to the totals, every fold read all of the layer's totals (25 ms of 76 at 17k terms).
  const zero = await db.all<{ kind: string; space: string; term: string | null; n: unknown }>(
    `WITH moved AS (
       DELETE FROM lexical_deltas WHERE id IN (
         SELECT id FROM lexical_deltas WHERE layer = ?${scope} ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)
       RETURNING space, rows, tokens, terms),
     r AS (SELECT space, sum(rows) AS rows, sum(tokens) AS tokens FROM moved GROUP BY space),
     rput AS (INSERT INTO lexical_rows (layer, space, rows, tokens)
       SELECT ?, r.space, r.rows, r.tokens FROM r WHERE r.rows <> 0 OR r.tokens <> 0 ORDER BY r.space
       ON CONFLICT (layer, space) DO UPDATE SET rows = lexical_rows.rows + excluded.rows, tokens = lexical_rows.tokens + excluded.tokens
       RETURNING space, rows),
     t AS (SELECT m.space, e.key AS term, sum(e.value::bigint) AS rows FROM moved m, jsonb_each_text(m.terms) e
       GROUP BY m.space, e.key HAVING sum(e.value::bigint) <> 0),
     tput AS (INSERT INTO lexical_terms (layer, space, term, rows)
       SELECT ?, t.space, t.term, t.rows FROM t ORDER BY t.space, t.term
       ON CONFLICT (layer, space, term) DO UPDATE SET rows = lexical_terms.rows + excluded.rows
       RETURNING space, term, rows)
     SELECT 'moved' AS kind, '' AS space, NULL AS term, count(*) AS n FROM moved
     UNION ALL SELECT 'rows', space, NULL, 0 FROM rput WHERE rows = 0
     UNION ALL SELECT 'term', space, term, 0 FROM tput WHERE rows = 0`,
    [layer, ...scopeParams, COMPACT_BATCH, layer, layer],
  );
  const gone = (kind: string) => zero.filter((z) => z.kind === kind);
  for (const part of chunks(gone('rows'), 500)) {
    await db.run(`DELETE FROM lexical_rows WHERE layer = ? AND rows = 0 AND space IN (${marks(part.length)})`, [layer, ...part.map((z) => z.space)]);
  }
  for (const part of chunks(gone('term'), 250)) {
    await db.run(
      `DELETE FROM lexical_terms WHERE layer = ? AND rows = 0 AND (space, term) IN (${part.map(() => '(?, ?)').join(', ')})`,
      [layer, ...part.flatMap((z) => [z.space, z.term!])],
    );
  }
  return num(zero.find((z) => z.kind === 'moved')?.n ?? 0);
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
  // The lexemes as one JSON parameter, their counts back as one text in their order: the statement's text is the same
  // for any number of words, so each connection plans it once. With a subquery per word (a text per number of words),
  // each execution was planned again with its values: 6-13 ms for the ~200 words of a long Chinese prompt. Each word's
  // total is a subquery of its own, so it is always one primary-key lookup: as a join, a table without statistics was
  // read whole for a hash (17,278 terms for two words at 100k, 8 ms).
  const r = await db.get<Record<string, unknown>>(
    `SELECT coalesce((SELECT rows FROM lexical_rows WHERE layer = ? AND space = ?), 0)
         + coalesce((SELECT sum(rows) FROM lexical_deltas WHERE layer = ? AND space = ?), 0) AS rows,
       coalesce((SELECT tokens FROM lexical_rows WHERE layer = ? AND space = ?), 0)
         + coalesce((SELECT sum(tokens) FROM lexical_deltas WHERE layer = ? AND space = ?), 0) AS tokens,
       EXISTS (SELECT 1 FROM lexical_rows WHERE layer = ? AND space <> ?)
         OR EXISTS (SELECT 1 FROM lexical_deltas WHERE layer = ? AND space <> ? AND rows > 0) AS others,
       (SELECT string_agg((coalesce((SELECT t.rows FROM lexical_terms t WHERE t.layer = ? AND t.space = ? AND t.term = k.term), 0)
           + coalesce((SELECT sum((d.terms ->> k.term)::bigint) FROM lexical_deltas d WHERE d.layer = ? AND d.space = ?), 0))::text,
           ' ' ORDER BY k.i)
         FROM json_array_elements_text(?::json) WITH ORDINALITY AS k(term, i)) AS hits
       ${o.topOf ? `, (SELECT max(id) FROM ${o.topOf}) AS top` : ''}`,
    [
      layer, space, layer, space, layer, space, layer, space, layer, space, layer, space,
      layer, space, layer, space, JSON.stringify(lexemes),
    ],
    PREPARED,
  );
  const hits = typeof r?.hits === 'string' && r.hits !== '' ? r.hits.split(' ').map(Number) : [];
  if (hits.length !== lexemes.length) throw new Error(`readLexicalStats: ${hits.length} counts for ${lexemes.length} lexemes`);
  return {
    rows: num(r?.rows ?? 0),
    tokens: num(r?.tokens ?? 0),
    others: r?.others === true,
    hits,
    ...(o.topOf ? { top: num(r?.top ?? 0) } : {}),
  };
}

/** Drops a space's statistics (the space is being erased, its rows already unindexed). */
export async function dropLexicalStats(db: SqlDriver, space: string): Promise<void> {
  for (const t of ['lexical_deltas', 'lexical_rows', 'lexical_terms']) await db.run(`DELETE FROM ${t} WHERE space = ?`, [space]);
}

const LAYERS: ReadonlyArray<[Layer, string]> = [['episode', 'episodes'], ['narrative', 'narratives'], ['knowledge', 'knowledge']];

/**
 * Statistics of every row already indexed, their space taken from the item tables: the migration's backfill (and a
 * rebuild after the tables were emptied).
 */
export function lexicalStatsBackfill(): string {
  return lexemeCountsBackfill() + prefixCountsBackfill();
}

/** Rows, tokens and rows per lexeme of every row already indexed (the v4 migration: never changed). */
function lexemeCountsBackfill(): string {
  return LAYERS
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

/** The prefix counts (`prefixKey`) of every row already indexed: part of the backfill, and the v5 migration. */
export function prefixCountsBackfill(): string {
  return LAYERS.map(
    ([layer, table]) => `
INSERT INTO lexical_terms (layer, space, term, rows)
SELECT '${layer}', x.space, p.k, count(*) FROM ${table}_fts f JOIN ${table} x ON x.id = f.id, LATERAL ${ROW_PREFIXES('f.tsv')} p
GROUP BY x.space, p.k;`,
  ).join('\n');
}

/** The v4 schema, then its backfill of the lexemes (the prefix counts came with v5). */
export function lexicalStatsMigration(): string {
  return `
-- Totals are updated in place by every fold: room left in each page keeps those updates HOT (no new index entries).
CREATE TABLE lexical_rows (layer TEXT NOT NULL, space TEXT NOT NULL, rows BIGINT NOT NULL, tokens BIGINT NOT NULL,
  PRIMARY KEY (layer, space)) WITH (fillfactor = 70);
CREATE TABLE lexical_terms (layer TEXT NOT NULL, space TEXT NOT NULL, term TEXT NOT NULL, rows BIGINT NOT NULL,
  PRIMARY KEY (layer, space, term)) WITH (fillfactor = 70);
CREATE TABLE lexical_deltas (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, layer TEXT NOT NULL, space TEXT NOT NULL,
  rows BIGINT NOT NULL, tokens BIGINT NOT NULL, terms JSONB NOT NULL);
CREATE INDEX ix_lexical_deltas ON lexical_deltas (layer, space);
-- Read whole by every search until folded: stored apart and uncompressed, so reading one costs a copy, not a pglz pass.
ALTER TABLE lexical_deltas ALTER COLUMN terms SET STORAGE EXTERNAL;
${lexemeCountsBackfill()}
`;
}
