// Tidepool as a system of the scale benchmark: a real SQLite file in a temp dir, batched and single-call ingest.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appContextOf, type Tidepool } from '../app/tidepool.js';
import { openMemory } from '../boot/open-memory.js';
import type { Embedder } from '../core/embedder.js';
import { clusteredVectors } from './scale/clustered-vectors.js';
import { hashEmbedding } from './scale/hash-embedding.js';
import { createScratchDatabase } from './scratch-database.js';
import type { ScaleSystem, ScaleSystemFactory, VectorAgreement } from './scale/scale-system.js';
import type { ScaleItem } from './scale/synthetic-episodes.js';

// Hybrid mode embeds with the benchmark's deterministic 384-d hashing embedder (no model weights here).
const hashEmbedder: Embedder = { model: 'hash-384', embed: async (t) => t.map((x) => hashEmbedding(x)) };

class TidepoolScale implements ScaleSystem {
  readonly #m: Tidepool;
  readonly #dir: string | undefined;
  readonly #drop: (() => Promise<void>) | undefined;
  readonly #size: (() => Promise<number>) | undefined;
  constructor(m: Tidepool, at: { dir?: string; drop?: () => Promise<void>; size?: () => Promise<number> }) {
    this.#m = m;
    this.#dir = at.dir;
    this.#drop = at.drop;
    this.#size = at.size;
  }
  static async open(hybrid: boolean): Promise<TidepoolScale> {
    const dir = mkdtempSync(join(tmpdir(), 'tidepool-scale-'));
    const m = await openMemory({ path: join(dir, 'memory.db'), space: 'scale', embedder: hybrid ? hashEmbedder : 'none', warn: () => {} });
    return new TidepoolScale(m, { dir });
  }
  /** A fresh database on the PostgreSQL server at `url`, created for this run and dropped after it. */
  static async openPostgres(url: string, hybrid: boolean): Promise<TidepoolScale> {
    const db = await createScratchDatabase(url);
    const m = await openMemory({ url: db.url, space: 'scale', embedder: hybrid ? hashEmbedder : 'none', warn: () => {} });
    return new TidepoolScale(m, { drop: db.drop, size: () => db.sizeBytes() });
  }
  #turn(i: ScaleItem) {
    return { role: i.role, content: i.text, speaker: i.speaker, session: i.sessionId, at: i.at, ref: i.id };
  }
  async ingestBatch(items: readonly ScaleItem[]): Promise<void> {
    await this.#m.record({ turns: items.map((i) => this.#turn(i)) });
  }
  async ingestOne(item: ScaleItem): Promise<void> {
    await this.#m.record({ turns: [this.#turn(item)] });
  }
  async search(query: string, k: number): Promise<string[]> {
    return (await this.#m.recall({ query, limit: k, layers: ['episode'] }, { sideEffects: false })).map((h) => h.id);
  }
  async itemIds(result: unknown): Promise<string[]> {
    const ids = (result as string[]).map((id) => Number(id.slice(1)));
    const rows = await appContextOf(this.#m).store.forSpace('scale').episodes.getMany(ids);
    const ref = new Map(rows.map((r) => [r.id, r.ref]));
    return ids.map((id) => ref.get(id) ?? '').filter((r) => r !== '');
  }
  async searchHybrid(query: string, _embedding: Float32Array, k: number): Promise<string[]> {
    return this.search(query, k);
  }
  async prepareHybrid(): Promise<void> {
    // The first search through the index builds it (or loads its file): done here, outside the timed queries.
    await appContextOf(this.#m).store.forSpace(this.#m.space).vectors.nearest('episode', hashEmbedder.model, hashEmbedding('warm up'), 10, { indexAbove: 0 });
  }
  async vectorAgreement(queries: readonly Float32Array[], k: number): Promise<VectorAgreement> {
    return this.#agreement(hashEmbedder.model, queries, k);
  }
  async clusteredAgreement(count: number, queries: number, k: number): Promise<VectorAgreement & { readySeconds: number }> {
    const { store, space } = appContextOf(this.#m);
    const set = clusteredVectors({ count, queries });
    const model = 'clustered-384';
    for (let i = 0; i < set.vectors.length; i += 2000) {
      await store.transaction(async (tx) => {
        for (const [j, v] of set.vectors.slice(i, i + 2000).entries()) await tx.forSpace(space).vectors.put('narrative', i + j + 1, model, v, 0);
      });
    }
    const t0 = performance.now();
    await store.forSpace(space).vectors.nearest('narrative', model, set.queries[0]!, k, { indexAbove: 0 });
    const readySeconds = Math.round(performance.now() - t0) / 1000;
    return { ...(await this.#agreement(model, set.queries, k, 'narrative')), readySeconds };
  }
  /** The exact scan against the index path (SQLite: HNSW; PostgreSQL: pgvector's HNSW when installed, else exact). */
  async #agreement(model: string, queries: readonly Float32Array[], k: number, layer: 'episode' | 'narrative' = 'episode'): Promise<VectorAgreement> {
    const { store, space } = appContextOf(this.#m);
    const exactMs: number[] = [];
    const fastMs: number[] = [];
    let recall = 0;
    for (const q of queries) {
      let t = performance.now();
      const exact = await store.forSpace(space).vectors.nearest(layer, model, q, k);
      exactMs.push(performance.now() - t);
      t = performance.now();
      const fast = await store.forSpace(space).vectors.nearest(layer, model, q, k, { indexAbove: 0 });
      fastMs.push(performance.now() - t);
      const got = new Set(fast.map((h) => h.id));
      recall += exact.length === 0 ? 1 : exact.filter((h) => got.has(h.id)).length / exact.length;
    }
    return { recall: queries.length === 0 ? 1 : recall / queries.length, exactMs, fastMs };
  }
  dbSizeBytes(): number | Promise<number> {
    if (this.#size) return this.#size();
    if (!this.#dir) return 0;
    const f = join(this.#dir, 'memory.db');
    const size = (p: string) => {
      try {
        return statSync(p).size;
      } catch {
        return 0;
      }
    };
    return size(f) + size(`${f}-wal`);
  }
  async close(): Promise<void> {
    await this.#m.close();
    if (this.#dir) rmSync(this.#dir, { recursive: true, force: true });
    await this.#drop?.();
  }
}

/** Tidepool, lexical only (no embedder). */
export const tidepoolScaleFactory: ScaleSystemFactory = {
  name: 'tidepool',
  hybrid: false,
  storage: 'disk',
  ref: { module: import.meta.url, exportName: 'tidepoolScaleFactory' },
  create: () => TidepoolScale.open(false),
};

/** Tidepool with a 384-d embedder: vectors stored with every episode, recall fuses lexical and vector lists. */
export const tidepoolHybridScaleFactory: ScaleSystemFactory = {
  name: 'tidepool-hybrid',
  hybrid: true,
  storage: 'disk',
  ref: { module: import.meta.url, exportName: 'tidepoolHybridScaleFactory' },
  create: () => TidepoolScale.open(true),
};

/**
 * Tidepool on a PostgreSQL server (`bench scale --db postgres://…`): each run gets a database of its own, created on
 * that server and dropped afterwards, so runs never see each other's rows.
 */
export function tidepoolPostgresScaleFactory(url: string, hybrid = false): ScaleSystemFactory {
  return {
    name: hybrid ? 'tidepool-postgres-hybrid' : 'tidepool-postgres',
    hybrid,
    storage: 'disk',
    ref: { module: import.meta.url, exportName: 'tidepoolPostgresScaleFactory', args: [url, hybrid] },
    create: () => TidepoolScale.openPostgres(url, hybrid),
  };
}
