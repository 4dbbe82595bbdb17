/** Stored vectors over portable SQL, with an exact in-process cosine scan. */
import type { Layer } from '../../core/types.js';
import type { NearestOptions, VectorStore } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { chunks, marks, num } from './sql-util.js';

const TABLE: Record<Layer, string> = { episode: 'episodes', narrative: 'narratives', knowledge: 'knowledge' };

/** Float32 vector → bytes. */
export function vectorToBytes(v: Float32Array): Uint8Array {
  return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
}

/** Bytes → Float32 vector (copies, so the result is aligned). */
export function bytesToVector(b: Uint8Array): Float32Array {
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Float32Array(copy.buffer);
}

/** Nearest first, equal scores by id: the order of SQLite's scan and of every HNSW path. */
export function nearestFirst(a: { id: number; score: number }, b: { id: number; score: number }): number {
  return b.score - a.score || a.id - b.id;
}

/** Vector store written once for every engine; the exact scan is the baseline an ANN index must match. */
export class VectorSql implements VectorStore {
  readonly #db: SqlDriver;
  readonly #space: string;
  constructor(db: SqlDriver, space: string) {
    this.#space = space;
    this.#db = db;
  }

  async put(layer: Layer, itemId: number, model: string, vector: Float32Array, at: number): Promise<void> {
    await this.#db.run(
      `INSERT INTO embeddings (space, layer, item_id, model, dim, vector, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (layer, item_id, model) DO UPDATE SET vector = excluded.vector, dim = excluded.dim,
         created_at = excluded.created_at`,
      [this.#space, layer, itemId, model, vector.length, vectorToBytes(vector), at],
    );
  }

  async nearest(
    layer: Layer,
    model: string,
    query: Float32Array,
    k: number,
    _opts: NearestOptions = {},
  ): Promise<Array<{ id: number; score: number }>> {
    const rows = await this.#db.all<{ item_id: unknown; vector: Uint8Array }>(
      'SELECT item_id, vector FROM embeddings WHERE space = ? AND layer = ? AND model = ? AND dim = ?',
      [this.#space, layer, model, query.length],
    );
    let qn = 0;
    for (const x of query) qn += x * x;
    qn = Math.sqrt(qn) || 1;
    const scored: Array<{ id: number; score: number }> = [];
    for (const r of rows) {
      const v = bytesToVector(r.vector);
      let dot = 0;
      let vn = 0;
      for (let i = 0; i < v.length; i++) {
        dot += v[i]! * query[i]!;
        vn += v[i]! * v[i]!;
      }
      scored.push({ id: num(r.item_id), score: dot / (qn * (Math.sqrt(vn) || 1)) });
    }
    scored.sort(nearestFirst);
    return scored.slice(0, k);
  }

  async pending(layer: Layer, limit: number): Promise<Array<{ id: number; text: string }>> {
    const rows = await this.#db.all<{ id: unknown; content: string }>(
      `SELECT id, content FROM ${TABLE[layer]} WHERE space = ? AND embed_pending = 1 ORDER BY id LIMIT ?`,
      [this.#space, limit],
    );
    return rows.map((r) => ({ id: num(r.id), text: r.content }));
  }

  async clearPending(layer: Layer, ids: readonly number[]): Promise<void> {
    for (const part of chunks(ids)) {
      await this.#db.run(`UPDATE ${TABLE[layer]} SET embed_pending = 0 WHERE (space || '') = ? AND id IN (${marks(part.length)})`, [
        this.#space,
        ...part,
      ]);
    }
  }

  async count(model?: string): Promise<number> {
    const r = await this.#db.get<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM embeddings WHERE space = ?${model ? ' AND model = ?' : ''}`,
      model ? [this.#space, model] : [this.#space],
    );
    return num(r?.n ?? 0);
  }

  async narrativeModels(): Promise<Array<{ model: string; dim: number; count: number }>> {
    const rows = await this.#db.all<{ model: string; dim: unknown; n: unknown }>(
      `SELECT model, dim, COUNT(*) AS n FROM embeddings WHERE space = ? AND layer = 'narrative'
       GROUP BY model, dim ORDER BY n DESC, model ASC, dim ASC`,
      [this.#space],
    );
    return rows.map((r) => ({ model: String(r.model), dim: num(r.dim), count: num(r.n) }));
  }

  async narrativeVectors(
    model: string,
    dim: number,
  ): Promise<Array<{ id: number; vector: Float32Array }>> {
    // Only vectors of narratives that still exist: a deleted narrative's vector is no member of any cluster.
    const rows = await this.#db.all<{ item_id: unknown; vector: Uint8Array }>(
      `SELECT e.item_id, e.vector FROM embeddings e JOIN narratives n ON n.id = e.item_id AND n.space = e.space
       WHERE e.space = ? AND e.layer = 'narrative' AND e.model = ? AND e.dim = ? ORDER BY e.item_id`,
      [this.#space, model, dim],
    );
    return rows.map((r) => ({ id: num(r.item_id), vector: bytesToVector(r.vector) }));
  }

  async pendingEmbeddings(
    layer: Layer,
    limit: number,
  ): Promise<{ count: number; ids: number[] }> {
    const n = await this.#db.get<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM ${TABLE[layer]} WHERE space = ? AND embed_pending = 1`,
      [this.#space],
    );
    const rows = await this.#db.all<{ id: unknown }>(
      `SELECT id FROM ${TABLE[layer]} WHERE space = ? AND embed_pending = 1 ORDER BY id LIMIT ?`,
      [this.#space, limit],
    );
    return { count: num(n?.n ?? 0), ids: rows.map((r) => num(r.id)) };
  }
}
