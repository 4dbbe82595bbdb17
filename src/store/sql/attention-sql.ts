/** The attention log and per-cluster stats over portable SQL. */
import type { AttentionSource, Layer } from '../../core/types.js';
import type { AttentionEntry, AttentionStore } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { chunks, marks, num } from './sql-util.js';

/** Sources of hits that reached the agent or its user (the night's own dream reads are not "seen"). */
const SEEN_SOURCES: readonly AttentionSource[] = ['t0_inject', 't1_prefetch', 'search', 'recall'];

/** Attention store written once for every engine. */
export class AttentionSql implements AttentionStore {
  readonly #db: SqlDriver;
  readonly #space: string;
  constructor(db: SqlDriver, space: string) {
    this.#space = space;
    this.#db = db;
  }

  async log(entries: readonly AttentionEntry[]): Promise<void> {
    // One statement per 100 entries: a recall logs each hit, and a statement each was most of its write (10-15 ms a
    // recall on PostgreSQL).
    for (const part of chunks(entries, 100)) {
      await this.#db.run(
        `INSERT INTO attention_log (space, layer, item_id, sim, cluster, source, session, created_at)
         VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        part.flatMap((e) => [this.#space, e.layer, e.itemId, e.sim, e.cluster, e.source, e.session, e.at]),
      );
    }
    // One upsert of every cluster, in cluster order: writers that touch the same clusters lock their rows in the same
    // order, so two servers on one PostgreSQL database cannot deadlock on them.
    const stats = new Map<string, { hits: number; at: number; itemId: number }>();
    for (const e of entries) {
      const cluster = e.cluster ?? '_unclassified';
      const s = stats.get(cluster);
      if (!s) stats.set(cluster, { hits: 1, at: e.at, itemId: e.itemId });
      else {
        s.hits++;
        if (e.at >= s.at) Object.assign(s, { at: e.at, itemId: e.itemId });
      }
    }
    for (const part of chunks([...stats.keys()].sort(), 100)) {
      await this.#db.run(
        `INSERT INTO attention_stats (space, cluster, hit_count, last_hit, last_item_id) VALUES ${part.map(() => '(?, ?, ?, ?, ?)').join(', ')}
         ON CONFLICT (space, cluster) DO UPDATE SET hit_count = attention_stats.hit_count + excluded.hit_count,
           last_hit = excluded.last_hit, last_item_id = excluded.last_item_id`,
        part.flatMap((cluster) => {
          const s = stats.get(cluster)!;
          return [this.#space, cluster, s.hits, s.at, s.itemId];
        }),
      );
    }
  }

  async since(from: number): Promise<AttentionEntry[]> {
    const rows = await this.#db.all<Record<string, unknown>>(
      'SELECT layer, item_id, sim, cluster, source, session, created_at FROM attention_log WHERE space = ? AND created_at >= ? ORDER BY id',
      [this.#space, from],
    );
    return rows.map((r) => ({
      layer: r.layer as Layer,
      itemId: num(r.item_id),
      sim: num(r.sim),
      cluster: (r.cluster as string | null) ?? null,
      source: String(r.source),
      session: (r.session as string | null) ?? null,
      at: num(r.created_at),
    }));
  }

  async seenCounts(layer: Layer, ids: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const part of chunks(ids)) {
      const rows = await this.#db.all<{ item_id: unknown; n: unknown }>(
        `SELECT item_id, COUNT(*) AS n FROM attention_log WHERE space = ? AND layer = ? AND item_id IN (${marks(part.length)})
         AND source IN (${marks(SEEN_SOURCES.length)}) GROUP BY item_id`,
        [this.#space, layer, ...part, ...SEEN_SOURCES],
      );
      for (const r of rows) out.set(num(r.item_id), num(r.n));
    }
    return out;
  }

  async injectedInSession(session: string): Promise<Array<{ layer: Layer; itemId: number }>> {
    const rows = await this.#db.all<{ layer: string; item_id: unknown }>(
      `SELECT DISTINCT layer, item_id FROM attention_log WHERE space = ? AND session = ?
       AND source IN ('t0_inject', 't1_prefetch')`,
      [this.#space, session],
    );
    return rows.map((r) => ({ layer: r.layer as Layer, itemId: num(r.item_id) }));
  }
}
