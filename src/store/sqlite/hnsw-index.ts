/**
 * Approximate nearest neighbours for SQLite: one HNSW graph (hnswlib-node, an optional dependency) per space, layer,
 * model and dimension, persisted beside the database as `<db>.hnsw/<key>-<seq>.bin`. The table stays the truth:
 *
 * - An index is built from `embeddings` when no file exists, or loaded from the newest file and reconciled with the
 *   table (a label the table no longer holds is scrubbed and deleted, a row the file lacks is added), then kept up to
 *   date by replaying `embedding_changes` (migration v3: triggers log every put and drop, whatever code path made it)
 *   after the sequence number it has applied. Each search replays first, so a write committed before it is seen.
 * - The graph holds each vector whole (float32, normalised), so the distances it returns for its candidates are the
 *   exact cosine distances, not an approximation: only which vectors it visits is approximate. The caller keeps the
 *   nearest k of them without reading the table again; the graph holds exactly the table's rows of the set, because
 *   every search replays the log first (below).
 * - Erasure: a dropped vector is overwritten in the graph (hnswlib keeps a deleted element's data) and marked
 *   deleted. `purge` (after forget) rewrites this process's files of the touched sets, and deletes every file of a
 *   set that was saved before a drop, so no file keeps a forgotten vector; an index held by another thread or process
 *   scrubs it at its next search.
 * - The log is cut when an index is saved: the set keeps its newest changes up to what the index applied, as many as
 *   an index may be behind and still replay (`#catchUp` builds again past that). The cut is recorded first
 *   (`embedding_change_floor`, migration v5), then the rows go: an index or file behind the floor is built again,
 *   and purge deletes a file saved below it (it may predate a drop that was cut).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Layer } from '../../core/types.js';
import type { SqlDriver } from '../sql-driver.js';
import { bytesToVector } from '../sql/vector-sql.js';
import { num } from '../sql/sql-util.js';

/** The part of hnswlib-node's HierarchicalNSW used here. */
interface Hnsw {
  initIndex(o: { maxElements: number; m?: number; efConstruction?: number; randomSeed?: number }): void;
  readIndexSync(file: string): void;
  writeIndexSync(file: string): void;
  resizeIndex(max: number): void;
  addPoint(point: number[], label: number): void;
  markDelete(label: number): void;
  searchKnn(q: number[], k: number): { neighbors: number[]; distances: number[] };
  getIdsList(): number[];
  getMaxElements(): number;
  getCurrentCount(): number;
  setEf(ef: number): void;
}
type HnswClass = new (space: 'cosine', dim: number) => Hnsw;

let library: HnswClass | null | undefined;

/** hnswlib-node when it is installed and its native addon loads; undefined otherwise (the exact scan answers). */
export function hnswLibrary(): HnswClass | undefined {
  if (library === undefined) {
    try {
      library = (createRequire(import.meta.url)('hnswlib-node') as { HierarchicalNSW: HnswClass }).HierarchicalNSW;
    } catch {
      library = null;
    }
  }
  return library ?? undefined;
}

/** Graph degree and build-time beam (hnswlib's defaults are 16 and 200; 100 builds twice as fast at the same recall here). */
const M = 16;
const EF_CONSTRUCTION = 100;
/** Candidates asked of the graph for a top k, and its search beam: measured in docs/BENCHMARKS.md ("Scale", vectors). */
export const candidatesFor = (k: number): number => Math.max(40, 4 * k);
const efFor = (candidates: number): number => Math.max(96, candidates);
/** Changes an index may be behind and still replay them rather than build again; the log keeps as many per set. */
const replayable = (live: number): number => Math.max(1000, live);
/** Deleted elements still route searches; past this share of the graph it is rebuilt from the table. */
const REBUILD_DELETED_SHARE = 0.25;
/** What a dropped vector's data is overwritten with: one fixed direction for all (cosine cannot take a zero vector). */
const scrubOf = (dim: number): number[] => new Array<number>(dim).fill(1);

/** One vector set: the rows of `embeddings` with this space, layer, model and dimension. */
export interface VectorSetKey {
  space: string;
  layer: Layer;
  model: string;
  dim: number;
}

interface Loaded {
  key: VectorSetKey;
  index: Hnsw;
  /** Labels the graph returns. */
  live: Set<number>;
  /** Labels the graph holds marked deleted (their data scrubbed). */
  dead: Set<number>;
  /** Highest `embedding_changes.seq` applied. */
  applied: number;
  /** `applied` when the file was last written. */
  saved: number;
}

const KEY_SQL = 'space = ? AND layer = ? AND model = ? AND dim = ?';
const keyParams = (k: VectorSetKey) => [k.space, k.layer, k.model, k.dim];

/** The HNSW indexes of one SQLite file, as this thread holds them. */
export class HnswIndexes {
  readonly #lib: HnswClass;
  readonly #dir: string;
  readonly #loaded = new Map<string, Loaded>();

  /** `dbPath` is the SQLite file; its indexes live in `<dbPath>.hnsw/`. */
  constructor(lib: HnswClass, dbPath: string) {
    this.#lib = lib;
    this.#dir = `${dbPath}.hnsw`;
  }

  /**
   * The graph's candidates for the query's `k` nearest, nearest first, each with its cosine distance as the graph
   * computed it from its copy of the vector; undefined when the set holds fewer than `above` vectors (the exact scan
   * is as quick there, and no graph is built for it).
   */
  async candidates(
    db: SqlDriver,
    key: VectorSetKey,
    query: Float32Array,
    k: number,
    above: number,
  ): Promise<Array<{ id: number; distance: number }> | undefined> {
    const id = keyId(key);
    let idx = this.#loaded.get(id);
    if (!idx) {
      const n = await db.get<{ n: unknown }>(`SELECT COUNT(*) AS n FROM embeddings WHERE ${KEY_SQL}`, keyParams(key));
      if (num(n?.n ?? 0) < above) return undefined;
      idx = await this.#open(db, key);
      this.#loaded.set(id, idx);
    }
    await this.#catchUp(db, idx);
    if (idx.dead.size > REBUILD_DELETED_SHARE * Math.max(1, idx.index.getCurrentCount())) {
      idx = await this.#build(db, key);
      this.#loaded.set(id, idx);
    }
    const want = Math.min(candidatesFor(k), idx.live.size);
    if (want === 0) return [];
    idx.index.setEf(efFor(want));
    try {
      const { neighbors, distances } = idx.index.searchKnn(Array.from(query), want);
      return neighbors.map((id, i) => ({ id, distance: distances[i]! }));
    } catch {
      return undefined; // a graph that cannot answer (hnswlib refuses some queries): the exact scan does
    }
  }

  /**
   * After a forget committed: brings this thread's indexes up to date (scrubbing dropped vectors) and rewrites
   * their files, then deletes any other file of a set saved before that set's last drop.
   */
  async purge(db: SqlDriver): Promise<void> {
    for (const idx of this.#loaded.values()) {
      await this.#catchUp(db, idx);
      if (idx.applied !== idx.saved) await this.#save(db, idx);
    }
    const drops = await db.all<{ space: string; layer: Layer; model: string; dim: unknown; seq: unknown }>(
      `SELECT space, layer, model, dim, MAX(seq) AS seq FROM embedding_changes WHERE op = 'drop' GROUP BY space, layer, model, dim`,
    );
    const floors = await db.all<{ space: string; layer: Layer; model: string; dim: unknown; seq: unknown }>(
      'SELECT space, layer, model, dim, seq FROM embedding_change_floor',
    );
    // A file saved below the floor may predate a drop that was cut from the log: deleted as well.
    const bound = new Map<string, number>();
    for (const d of [...drops, ...floors]) {
      const k = fileKey({ space: d.space, layer: d.layer, model: d.model, dim: num(d.dim) });
      bound.set(k, Math.max(bound.get(k) ?? 0, num(d.seq)));
    }
    for (const f of this.#files()) if ((bound.get(f.key) ?? 0) > f.seq) rmSync(f.path, { force: true });
  }

  /** Writes the indexes that changed since their file was written (at close: the next start loads instead of building). */
  async close(db: SqlDriver): Promise<void> {
    for (const idx of this.#loaded.values()) {
      await this.#catchUp(db, idx);
      if (idx.applied !== idx.saved) await this.#save(db, idx);
    }
    this.#loaded.clear();
  }

  async #open(db: SqlDriver, key: VectorSetKey): Promise<Loaded> {
    const newest = this.#files()
      .filter((f) => f.key === fileKey(key))
      .sort((a, b) => b.seq - a.seq)[0];
    const top = await this.#maxSeq(db, key);
    // A file from a later history than the table's (a restored backup) is not this table's index; one saved below the
    // floor cannot catch up from the log.
    if (!newest || newest.seq > top || newest.seq < (await this.#floor(db, key))) return this.#build(db, key);
    try {
      const index = new this.#lib('cosine', key.dim);
      index.readIndexSync(newest.path);
      const idx: Loaded = { key, index, live: new Set(), dead: new Set(), applied: newest.seq, saved: newest.seq };
      await this.#reconcile(db, idx);
      return idx;
    } catch {
      return this.#build(db, key); // a torn or foreign file: the table rebuilds it
    }
  }

  /** Makes the graph hold exactly the table's rows: drops labels the table lacks, adds rows the graph lacks. */
  async #reconcile(db: SqlDriver, idx: Loaded): Promise<void> {
    const rows = await db.all<{ item_id: unknown }>(`SELECT item_id FROM embeddings WHERE ${KEY_SQL}`, keyParams(idx.key));
    const inTable = new Set(rows.map((r) => num(r.item_id)));
    const inGraph = new Set(idx.index.getIdsList());
    for (const label of inGraph) {
      if (inTable.has(label)) {
        idx.live.add(label);
        continue;
      }
      // Deleted in the file or not, the graph holds its label: scrub it (again) and mark it deleted.
      idx.live.add(label);
      this.#drop(idx, label);
    }
    const missing = [...inTable].filter((id) => !inGraph.has(id));
    for (const id of missing) await this.#putFromTable(db, idx, id);
  }

  async #build(db: SqlDriver, key: VectorSetKey): Promise<Loaded> {
    // The sequence first: a change committed during the scan is replayed afterwards (puts and drops are idempotent).
    const applied = await this.#maxSeq(db, key);
    const rows = await db.all<{ item_id: unknown; vector: Uint8Array }>(
      `SELECT item_id, vector FROM embeddings WHERE ${KEY_SQL}`,
      keyParams(key),
    );
    const index = new this.#lib('cosine', key.dim);
    index.initIndex({ maxElements: Math.max(1024, Math.ceil(rows.length * 1.25)), m: M, efConstruction: EF_CONSTRUCTION, randomSeed: 100 });
    const idx: Loaded = { key, index, live: new Set(), dead: new Set(), applied, saved: -1 };
    for (const r of rows) this.#put(idx, num(r.item_id), bytesToVector(r.vector));
    await this.#save(db, idx);
    return idx;
  }

  async #catchUp(db: SqlDriver, idx: Loaded): Promise<void> {
    const changes = await db.all<{ seq: unknown; item_id: unknown; op: string }>(
      `SELECT seq, item_id, op FROM embedding_changes WHERE ${KEY_SQL} AND seq > ? ORDER BY seq`,
      [...keyParams(idx.key), idx.applied],
    );
    // The floor after the rows: a cut made before they were read raised it first, so a missing change is seen here.
    if (changes.length > replayable(idx.live.size) || idx.applied < (await this.#floor(db, idx.key))) {
      // More changed than the graph holds (a bulk import), or changes it missed were cut from the log: one build
      // reads each vector once instead of row by row.
      Object.assign(idx, await this.#build(db, idx.key));
      return;
    }
    for (const c of changes) {
      const id = num(c.item_id);
      if (c.op === 'drop') this.#drop(idx, id);
      else await this.#putFromTable(db, idx, id);
      idx.applied = num(c.seq);
    }
  }

  async #putFromTable(db: SqlDriver, idx: Loaded, id: number): Promise<void> {
    const row = await db.get<{ vector: Uint8Array }>(
      `SELECT vector FROM embeddings WHERE ${KEY_SQL} AND item_id = ?`,
      [...keyParams(idx.key), id],
    );
    // Gone again: a later drop in the log says so.
    if (row) this.#put(idx, id, bytesToVector(row.vector));
  }

  #put(idx: Loaded, id: number, v: Float32Array): void {
    if (!v.some((x) => x !== 0)) return; // no direction: the exact scan scores it 0, the graph cannot place it
    const known = idx.live.has(id) || idx.dead.has(id);
    if (!known && idx.index.getCurrentCount() >= idx.index.getMaxElements()) {
      idx.index.resizeIndex(Math.ceil(idx.index.getMaxElements() * 1.5) + 1024);
    }
    // A label the graph holds is updated in place; a deleted one is revived with the new data (hnswlib unmarks it).
    idx.index.addPoint(Array.from(v), id);
    idx.dead.delete(id);
    idx.live.add(id);
  }

  #drop(idx: Loaded, id: number): void {
    if (!idx.live.has(id)) return;
    // hnswlib keeps a deleted element's vector in memory and in the file: overwrite it before marking it deleted.
    idx.index.addPoint(scrubOf(idx.key.dim), id);
    idx.index.markDelete(id);
    idx.live.delete(id);
    idx.dead.add(id);
  }

  /** Writes `<key>-<seq>.bin` by rename (readers never see a torn file), then removes the set's older files. */
  async #save(db: SqlDriver, idx: Loaded): Promise<void> {
    mkdirSync(this.#dir, { recursive: true });
    const name = `${fileKey(idx.key)}-${idx.applied}.bin`;
    const file = join(this.#dir, name);
    const tmp = join(this.#dir, `.${name}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
    idx.index.writeIndexSync(tmp);
    renameSync(tmp, file);
    idx.saved = idx.applied;
    // A forget that committed after this index caught up, and purged before the rename, did not see this file.
    const drop = await db.get<{ seq: unknown }>(
      `SELECT MAX(seq) AS seq FROM embedding_changes WHERE ${KEY_SQL} AND op = 'drop' AND seq > ?`,
      [...keyParams(idx.key), idx.applied],
    );
    // Likewise a cut above what this index applied (another index saved meanwhile) may have taken such a drop.
    if ((drop?.seq !== null && drop?.seq !== undefined) || (await this.#floor(db, idx.key)) > idx.applied) {
      rmSync(file, { force: true });
      idx.saved = -1;
      return;
    }
    for (const f of this.#files()) if (f.key === fileKey(idx.key) && f.seq < idx.applied) rmSync(f.path, { force: true });
    await this.#cut(db, idx);
  }

  /**
   * Cuts the set's log below its newest `replayable` changes up to what `idx` applied: the floor first, then the
   * rows, so that whoever reads the log after the rows went sees the floor (`#catchUp`, `#open`, `purge`).
   */
  async #cut(db: SqlDriver, idx: Loaded): Promise<void> {
    const cut = await db.get<{ seq: unknown }>(
      `SELECT seq FROM embedding_changes WHERE ${KEY_SQL} AND seq <= ? ORDER BY seq DESC LIMIT 1 OFFSET ?`,
      [...keyParams(idx.key), idx.applied, replayable(idx.live.size)],
    );
    if (cut?.seq === undefined || cut.seq === null) return;
    const seq = num(cut.seq);
    await db.run(
      `INSERT INTO embedding_change_floor (space, layer, model, dim, seq) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (space, layer, model, dim) DO UPDATE SET seq = max(seq, excluded.seq)`,
      [...keyParams(idx.key), seq],
    );
    await db.run(`DELETE FROM embedding_changes WHERE ${KEY_SQL} AND seq <= ?`, [...keyParams(idx.key), seq]);
  }

  /** The highest sequence number cut from the set's log (0: nothing cut). */
  async #floor(db: SqlDriver, key: VectorSetKey): Promise<number> {
    const r = await db.get<{ seq: unknown }>(`SELECT seq FROM embedding_change_floor WHERE ${KEY_SQL}`, keyParams(key));
    return num(r?.seq ?? 0);
  }

  /** The index files on disk: the set's file key and the sequence number each was saved at. */
  #files(): Array<{ path: string; key: string; seq: number }> {
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return [];
    }
    const out: Array<{ path: string; key: string; seq: number }> = [];
    for (const n of names) {
      const m = /^([0-9a-f]{32})-(\d+)\.bin$/u.exec(n);
      if (m) out.push({ path: join(this.#dir, n), key: m[1]!, seq: Number(m[2]) });
    }
    return out;
  }

  async #maxSeq(db: SqlDriver, key: VectorSetKey): Promise<number> {
    const r = await db.get<{ seq: unknown }>(`SELECT MAX(seq) AS seq FROM embedding_changes WHERE ${KEY_SQL}`, keyParams(key));
    return Math.max(num(r?.seq ?? 0), await this.#floor(db, key));
  }
}

const keyId = (k: VectorSetKey): string => `${k.space}\u0000${k.layer}\u0000${k.model}\u0000${k.dim}`;
/** A set's file name stem: a hash, so any space or model text makes a short, safe name. */
const fileKey = (k: VectorSetKey): string => createHash('sha256').update(keyId(k)).digest('hex').slice(0, 32);
