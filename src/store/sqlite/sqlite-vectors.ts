/**
 * Vectors on SQLite with sqlite-vec: KNN runs inside SQLite (C, SIMD) instead of decoding every row in JS. The exact
 * cosine scan is the default; with `quantizeAbove` set, larger sets get a Hamming pre-selection over binary copies
 * whose candidates the exact cosine re-scores (docs/BENCHMARKS.md measures its recall against the exact scan).
 */
import type { Layer } from '../../core/types.js';
import type { NearestOptions } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { num } from '../sql/sql-util.js';
import { vectorToBytes, VectorSql } from '../sql/vector-sql.js';
import type { HnswIndexes } from './hnsw-index.js';

/** Candidates the binary pre-selection hands to the exact re-scoring: `max(MIN, FACTOR · k)`. */
const RESCORE_MIN = 400;
const RESCORE_FACTOR = 20;

/** State shared by the store and its transaction views: sets whose binary copies are known to be complete. */
export interface SqliteVectorState {
  complete: Set<string>;
}

/** A stored zero vector has no cosine (sqlite-vec answers NaN): score it 0, as the portable scan does. */
function scored(rows: ReadonlyArray<{ item_id: unknown; d: unknown }>): Array<{ id: number; score: number }> {
  return rows.map((r) => {
    const d = Number(r.d);
    return { id: num(r.item_id), score: Number.isFinite(d) ? 1 - d : 0 };
  });
}

/** The exact scan's order: nearest first, ties by id. */
const byDistance = (a: { item_id: number; d: number }, b: { item_id: number; d: number }): number => a.d - b.d || a.item_id - b.item_id;

/**
 * The accelerators a store loads when a vector operation first asks (open-sqlite.ts): whether sqlite-vec is loaded
 * into the connection, and the file's HNSW indexes where this view may use them (the store's own connection only: a
 * transaction's view sees uncommitted rows).
 */
export interface SqliteVectorAccelerators {
  vec(): boolean;
  ann(): HnswIndexes | undefined;
}

export class SqliteVectors extends VectorSql {
  readonly #db: SqlDriver;
  readonly #state: SqliteVectorState;
  readonly #accel: SqliteVectorAccelerators;
  readonly #space: string;
  constructor(db: SqlDriver, space: string, state: SqliteVectorState, accel: SqliteVectorAccelerators) {
    super(db, space);
    this.#space = space;
    this.#db = db;
    this.#state = state;
    this.#accel = accel;
  }

  override async put(layer: Layer, itemId: number, model: string, vector: Float32Array, at: number): Promise<void> {
    await super.put(layer, itemId, model, vector, at);
    // sqlite-vec packs 8 dimensions per byte; other widths (rare: test vectors) always take the exact scan. Without
    // sqlite-vec no binary copy is written: a later pre-selection writes the set's missing copies first.
    if (vector.length % 8 !== 0 || !this.#accel.vec()) return;
    await this.#db.run(
      `INSERT INTO embedding_bits (space, layer, item_id, model, dim, bits) VALUES (?, ?, ?, ?, ?, vec_quantize_binary(?))
       ON CONFLICT (layer, item_id, model) DO UPDATE SET space = excluded.space, dim = excluded.dim, bits = excluded.bits`,
      [this.#space, layer, itemId, model, vector.length, vectorToBytes(vector)],
    );
  }

  override async nearest(
    layer: Layer,
    model: string,
    query: Float32Array,
    k: number,
    opts: NearestOptions = {},
  ): Promise<Array<{ id: number; score: number }>> {
    if (k <= 0 || query.length === 0) return [];
    // A zero query has no direction: sqlite-vec answers NaN for it, the portable scan a score of 0 everywhere. Without
    // sqlite-vec the portable scan answers every query.
    if (!query.some((x) => x !== 0) || !this.#accel.vec()) return super.nearest(layer, model, query, k);
    const q = vectorToBytes(query);
    const key = [this.#space, layer, model, query.length];
    const ann = opts.indexAbove !== undefined ? this.#accel.ann() : undefined;
    if (ann && opts.indexAbove !== undefined) {
      const [space_, layer_, model_, dim] = key as [string, Layer, string, number];
      const near = await ann.candidates(this.#db, { space: space_, layer: layer_, model: model_, dim }, query, k, opts.indexAbove);
      // The graph's distances are the exact cosine of its whole vectors: the nearest k are kept as the table's scan
      // orders them (distance, then id), without reading each candidate's vector back from the table.
      if (near) return scored(near.map((h) => ({ item_id: h.id, d: h.distance })).sort(byDistance).slice(0, k));
    }
    // Opt-in only (config recall.vectorQuantizeAbove): its recall against the exact scan is measured, not assumed.
    const above = opts.quantizeAbove;
    const binary = above !== undefined && query.length % 8 === 0 && (await this.#setSize(key)) > above;
    const rows = binary
      ? await this.#binaryThenExact(key, q, k)
      : await this.#db.all<{ item_id: unknown; d: unknown }>(
          `SELECT item_id, vec_distance_cosine(vector, ?) AS d FROM embeddings
           WHERE space = ? AND layer = ? AND model = ? AND dim = ? ORDER BY d, item_id LIMIT ?`,
          [q, ...key, k],
        );
    return scored(rows);
  }

  async #setSize(key: readonly (string | number)[]): Promise<number> {
    const r = await this.#db.get<{ n: unknown }>(
      'SELECT COUNT(*) AS n FROM embeddings WHERE space = ? AND layer = ? AND model = ? AND dim = ?',
      key as (string | number)[],
    );
    return num(r?.n ?? 0);
  }

  async #binaryThenExact(key: readonly (string | number)[], q: Uint8Array, k: number): Promise<Array<{ item_id: unknown; d: unknown }>> {
    const id = key.join('\u0000');
    if (!this.#state.complete.has(id)) {
      // Vectors written without sqlite-vec (or before schema v2) get their binary copy now, once per set and process.
      await this.#db.run(
        `INSERT INTO embedding_bits (space, layer, item_id, model, dim, bits)
         SELECT e.space, e.layer, e.item_id, e.model, e.dim, vec_quantize_binary(e.vector) FROM embeddings e
         WHERE e.space = ? AND e.layer = ? AND e.model = ? AND e.dim = ?
           AND NOT EXISTS (SELECT 1 FROM embedding_bits b WHERE b.layer = e.layer AND b.item_id = e.item_id AND b.model = e.model)`,
        key as (string | number)[],
      );
      this.#state.complete.add(id);
    }
    return this.#db.all<{ item_id: unknown; d: unknown }>(
      `WITH c AS (
         SELECT item_id FROM embedding_bits WHERE space = ? AND layer = ? AND model = ? AND dim = ?
         ORDER BY vec_distance_hamming(vec_bit(bits), vec_quantize_binary(?)) LIMIT ?
       )
       SELECT e.item_id AS item_id, vec_distance_cosine(e.vector, ?) AS d FROM c
       JOIN embeddings e ON e.layer = ? AND e.item_id = c.item_id AND e.model = ?
       ORDER BY d, e.item_id LIMIT ?`,
      [...(key as (string | number)[]), q, Math.max(RESCORE_MIN, RESCORE_FACTOR * k), q, key[1]!, key[2]!, k],
    );
  }
}
