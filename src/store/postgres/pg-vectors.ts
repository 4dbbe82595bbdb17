/** Vectors on PostgreSQL: HNSW expression indexes over `embeddings.vector` when pgvector exists, the exact scan otherwise. */
import type { Layer } from '../../core/types.js';
import type { SqlDriver } from '../sql-driver.js';
import { num } from '../sql/sql-util.js';
import { nearestFirst, VectorSql } from '../sql/vector-sql.js';

// pgvector indexes `vector` columns of at most 2,000 dimensions (pgvector README, "Indexing"); wider
// embeddings keep the exact scan.
const HNSW_MAX_DIM = 2000;
// hnsw.ef_search bounds: pgvector's default is 40 and its maximum 1,000.
const EF_MIN = 40;
const EF_MAX = 1000;

/** State shared by the store and every transaction view of it: dimensions known to have an index. */
export interface PgVectorState {
  indexed: Set<number>;
  /** pgvector ≥ 0.8 scans on past filtered-out rows (`hnsw.iterative_scan`). */
  iterative: boolean;
}

/** The name of the partial HNSW index for one dimension. */
export function hnswIndexName(dim: number): string {
  return `ix_embeddings_hnsw_${dim}`;
}

/**
 * Nearest neighbours through pgvector. Embeddings stay the portable float32 BLOB; `tidepool_vector(vector)` decodes
 * it, and one partial index per dimension (`WHERE dim = n`) serves the cosine ORDER BY. Writes are the portable
 * ones; the index of a new dimension is built by the first search that needs it.
 */
export class PgVectors extends VectorSql {
  readonly #db: SqlDriver;
  readonly #state: PgVectorState;
  readonly #space: string;
  constructor(db: SqlDriver, space: string, state: PgVectorState) {
    super(db, space);
    this.#space = space;
    this.#db = db;
    this.#state = state;
  }

  override async nearest(layer: Layer, model: string, query: Float32Array, k: number): Promise<Array<{ id: number; score: number }>> {
    const dim = query.length;
    if (k <= 0 || dim < 1 || dim > HNSW_MAX_DIM) return super.nearest(layer, model, query, k);
    const lit = `[${Array.from(query, (x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;
    // `dim` is an integer we computed, so it can be written into the SQL (a partial index only matches a literal).
    const expr = `tidepool_vector(vector)::vector(${dim})`;
    const rows = await this.#db.transaction(async (tx) => {
      await this.#ensureIndex(tx, dim);
      const prev = await tx.get<{ sort: string; seq: string }>(
        "SELECT current_setting('enable_sort') AS sort, current_setting('enable_seqscan') AS seq",
      );
      // With stale statistics (a bulk load, PGlite without autovacuum) the planner may think the table tiny and
      // decode every row to sort it: seconds instead of milliseconds. Sorting off leaves the HNSW scan, the only
      // plan that yields rows in distance order; the settings are put back for the rest of any outer transaction.
      await tx.get(
        `SELECT set_config('enable_sort', 'off', true), set_config('enable_seqscan', 'off', true),
           set_config('hnsw.ef_search', ?, true)${this.#state.iterative ? ", set_config('hnsw.iterative_scan', 'strict_order', true)" : ''}`,
        [String(Math.min(EF_MAX, Math.max(EF_MIN, 2 * k)))],
      );
      const found = await tx.all<{ item_id: unknown; d: unknown }>(
        `SELECT item_id, ${expr} <=> ?::vector(${dim}) AS d FROM embeddings
         WHERE space = ? AND layer = ? AND model = ? AND dim = ${dim} ORDER BY ${expr} <=> ?::vector(${dim}) LIMIT ?`,
        [lit, this.#space, layer, model, lit, k],
      );
      await tx.get("SELECT set_config('enable_sort', ?, true), set_config('enable_seqscan', ?, true)", [prev!.sort, prev!.seq]);
      return found;
    });
    // HNSW filters after it searches: rows of other spaces or models can crowd ours out, so fewer than k hits
    // may be an artefact; then the exact scan answers (cheap when the space really holds fewer than k vectors).
    if (rows.length < k) return super.nearest(layer, model, query, k);
    // The graph hands over equal distances in its own order: ordered by id, as the exact scan orders them.
    return rows.map((r) => ({ id: num(r.item_id), score: 1 - num(r.d) })).sort(nearestFirst);
  }

  /** Builds the HNSW index of `dim` once; the advisory lock keeps two servers from building it together. */
  async #ensureIndex(tx: SqlDriver, dim: number): Promise<void> {
    if (this.#state.indexed.has(dim)) return;
    const name = hnswIndexName(dim);
    const exists = async () => (await tx.get('SELECT 1 AS x FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ?', [name])) !== undefined;
    if (!(await exists())) {
      await tx.get("SELECT pg_advisory_xact_lock(hashtext('tidepool.hnsw')) AS locked");
      if (!(await exists())) {
        await tx.run(
          `CREATE INDEX IF NOT EXISTS ${name} ON embeddings USING hnsw ((tidepool_vector(vector)::vector(${dim})) vector_cosine_ops)
           WHERE dim = ${dim}`,
        );
        // Not cached yet: if the surrounding transaction rolls back, so does the index.
        return;
      }
    }
    this.#state.indexed.add(dim);
  }
}
