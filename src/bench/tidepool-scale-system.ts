// Tidepool as a system of the scale benchmark: a real SQLite file in a temp dir, batched and single-call ingest.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tidepool } from '../app/tidepool.js';
import { openMemory } from '../boot/open-memory.js';
import type { Embedder } from '../core/embedder.js';
import { hashEmbedding } from './scale/hash-embedding.js';
import type { ScaleSystem, ScaleSystemFactory } from './scale/scale-system.js';
import type { ScaleItem } from './scale/synthetic-episodes.js';

class TidepoolScale implements ScaleSystem {
  readonly #m: Tidepool;
  readonly #dir: string;
  constructor(m: Tidepool, dir: string) {
    this.#m = m;
    this.#dir = dir;
  }
  static async open(hybrid: boolean): Promise<TidepoolScale> {
    const dir = mkdtempSync(join(tmpdir(), 'tidepool-scale-'));
    // Hybrid mode embeds with the benchmark's deterministic 384-d hashing embedder (no model weights here).
    const embedder: Embedder | 'none' = hybrid ? { model: 'hash-384', embed: async (t) => t.map((x) => hashEmbedding(x)) } : 'none';
    const m = await openMemory({ path: join(dir, 'memory.db'), space: 'scale', embedder, warn: () => {} });
    return new TidepoolScale(m, dir);
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
  async searchHybrid(query: string, _embedding: Float32Array, k: number): Promise<string[]> {
    return this.search(query, k);
  }
  dbSizeBytes(): number {
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
    rmSync(this.#dir, { recursive: true, force: true });
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
