/** Vectors on SQLite with sqlite-vec: the exact cosine KNN runs inside SQLite (C, SIMD) instead of decoding every row in JS. */
import type { Layer } from '../../core/types.js';
import type { SqlDriver } from '../sql-driver.js';
import { num } from '../sql/sql-util.js';
import { vectorToBytes, VectorSql } from '../sql/vector-sql.js';

/**
 * Exact nearest neighbours through `vec_distance_cosine` over the portable float32 BLOBs: the same rows and the same
 * order as the in-process scan (the contract suite checks both), several times faster because no row leaves SQLite.
 */
export class SqliteVectors extends VectorSql {
  readonly #db: SqlDriver;
  constructor(db: SqlDriver) {
    super(db);
    this.#db = db;
  }

  override async nearest(space: string, layer: Layer, model: string, query: Float32Array, k: number): Promise<Array<{ id: number; score: number }>> {
    if (k <= 0 || query.length === 0) return [];
    // A zero query has no direction: sqlite-vec answers NaN for it, the portable scan a score of 0 everywhere.
    if (!query.some((x) => x !== 0)) return super.nearest(space, layer, model, query, k);
    const rows = await this.#db.all<{ item_id: unknown; d: unknown }>(
      `SELECT item_id, vec_distance_cosine(vector, ?) AS d FROM embeddings
       WHERE space = ? AND layer = ? AND model = ? AND dim = ? ORDER BY d, item_id LIMIT ?`,
      [vectorToBytes(query), space, layer, model, query.length, k],
    );
    // A stored zero vector has no cosine either (NaN): score it 0, as the portable scan does.
    return rows.map((r) => {
      const d = Number(r.d);
      return { id: num(r.item_id), score: Number.isFinite(d) ? 1 - d : 0 };
    });
  }
}
