// SQLite vectors through the HNSW graph (hnswlib-node): its hits and their exact scores agree with the exact scan, the
// graph is persisted beside the file and reloaded, follows later writes and deletes, and no index file keeps a
// vector once it was deleted and purged.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SqlStore } from '../sql/sql-store.js';
import { hnswLibrary } from './hnsw-index.js';
import { openSqliteStore } from './open-sqlite.js';
import { mulberry32 } from '../../script/seeded-rng.js';

const DIM = 32;

/** `n` vectors around 10 centres, and queries near random centres. */
function clustered(n: number, queries: number, seed = 11): { vectors: Float32Array[]; queries: Float32Array[] } {
  const r = mulberry32(seed);
  const centres = Array.from({ length: 10 }, () => Float32Array.from({ length: DIM }, () => r() * 2 - 1));
  const near = (c: Float32Array, spread: number) => Float32Array.from(c, (x) => x + (r() * 2 - 1) * spread);
  return {
    vectors: Array.from({ length: n }, (_, i) => near(centres[i % 10]!, 0.7)),
    queries: Array.from({ length: queries }, () => near(centres[Math.floor(r() * 10)]!, 0.5)),
  };
}

/** A unit basis vector: hnswlib's normalised copy of it is bit-identical, so its bytes can be looked for in a file. */
function basis(i: number): Float32Array {
  const v = new Float32Array(DIM);
  v[i] = 1;
  return v;
}

const bytesOf = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

describe.skipIf(!hnswLibrary())('SQLite vectors through the HNSW index', () => {
  let dir: string;
  let path: string;
  let store: SqlStore | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tidepool-hnsw-'));
    path = join(dir, 'm.db');
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function filled(n: number): Promise<{ s: SqlStore; queries: Float32Array[] }> {
    const s = await openSqliteStore(path);
    store = s;
    const { vectors, queries } = clustered(n, 20);
    await s.transaction(async (tx) => {
      for (const [i, v] of vectors.entries()) await tx.forSpace('a').vectors.put('episode', i + 1, 'm', v, 0);
    });
    return { s, queries };
  }

  const indexFiles = () => {
    try {
      return readdirSync(`${path}.hnsw`).filter((f) => f.endsWith('.bin'));
    } catch {
      return [];
    }
  };

  it('finds the exact top 10 through the graph, with exact scores, and keeps small sets on the exact scan', async () => {
    const { s, queries } = await filled(600);
    expect(await s.forSpace('a').vectors.nearest('episode', 'm', queries[0]!, 10, { indexAbove: 601 })).toHaveLength(10);
    expect(indexFiles()).toEqual([]); // below the threshold: no graph built
    let agreed = 0;
    for (const q of queries) {
      const exact = await s.forSpace('a').vectors.nearest('episode', 'm', q, 10);
      const ann = await s.forSpace('a').vectors.nearest('episode', 'm', q, 10, { indexAbove: 100 });
      const ids = new Set(ann.map((h) => h.id));
      agreed += exact.filter((h) => ids.has(h.id)).length / exact.length;
      // Every returned score is the exact cosine of that id.
      const exactScore = new Map((await s.forSpace('a').vectors.nearest('episode', 'm', q, 600)).map((h) => [h.id, h.score]));
      for (const h of ann) expect(h.score).toBeCloseTo(exactScore.get(h.id)!, 5);
    }
    expect(agreed / queries.length).toBeGreaterThanOrEqual(0.95);
    expect(indexFiles()).toHaveLength(1);
  });

  it('scores a vector overwritten while the graph is loaded by its new value, and orders ties by id as the scan does', async () => {
    const { s, queries } = await filled(300);
    const v = s.forSpace('a').vectors;
    const q = queries[0]!;
    await v.nearest('episode', 'm', q, 5, { indexAbove: 1 }); // the graph is built and held
    // Item 1 now holds the query itself, and new items, written in descending order, hold copies of it: nine hits at
    // distance 0, ordered by id as the exact scan orders them.
    await v.put('episode', 1, 'm', q, 0);
    for (let id = 9008; id > 9000; id--) await v.put('episode', id, 'm', q, 0);
    const ann = await v.nearest('episode', 'm', q, 12, { indexAbove: 1 });
    const exact = await v.nearest('episode', 'm', q, 12);
    expect(ann.slice(0, 9).map((h) => h.id)).toEqual([1, 9001, 9002, 9003, 9004, 9005, 9006, 9007, 9008]);
    expect(ann.map((h) => h.id)).toEqual(exact.map((h) => h.id));
    for (const [i, h] of ann.entries()) expect(h.score).toBeCloseTo(exact[i]!.score, 5);
    // Overwritten again with its opposite: no longer near, and not returned with its old score.
    await v.put('episode', 1, 'm', q.map((x) => -x), 0);
    const after = await v.nearest('episode', 'm', q, 12, { indexAbove: 1 });
    expect(after.map((h) => h.id)).not.toContain(1);
    expect(after.slice(0, 2).map((h) => h.id)).toEqual([9001, 9002]);
  });

  it('reloads its file on the next open instead of rebuilding, and follows writes made while it was closed', async () => {
    const { s, queries } = await filled(300);
    await s.forSpace('a').vectors.nearest('episode', 'm', queries[0]!, 5, { indexAbove: 1 });
    const [file] = indexFiles();
    const written = statSync(join(`${path}.hnsw`, file!)).mtimeMs;
    await s.close();
    store = await openSqliteStore(path);
    // Written while no index was loaded: the log (embedding_changes) carries it to the loaded graph.
    await store.forSpace('a').vectors.put('episode', 9001, 'm', queries[1]!, 0);
    const hits = await store.forSpace('a').vectors.nearest('episode', 'm', queries[1]!, 3, { indexAbove: 1 });
    expect(hits[0]).toMatchObject({ id: 9001 });
    expect(hits[0]!.score).toBeCloseTo(1, 5);
    // Loaded, not rebuilt: the old file was not rewritten before the close that follows the new write.
    expect(statSync(join(`${path}.hnsw`, file!)).mtimeMs).toBe(written);
    await store.close();
    store = undefined;
    expect(indexFiles()).toHaveLength(1);
    expect(indexFiles()[0]).not.toBe(file);
  });

  it('no longer returns a deleted vector, and after purge no index file holds its bytes', async () => {
    const { s } = await filled(300);
    const victim = basis(5);
    await s.forSpace('a').vectors.put('episode', 7777, 'm', victim, 0);
    expect((await s.forSpace('a').vectors.nearest('episode', 'm', victim, 1, { indexAbove: 1 }))[0]).toMatchObject({ id: 7777 });
    const onDisk = () => indexFiles().some((f) => readFileSync(join(`${path}.hnsw`, f)).includes(bytesOf(victim)));
    expect(onDisk()).toBe(true); // the file holds it: the check below can fail
    await s.db.run(`DELETE FROM embeddings WHERE layer = 'episode' AND item_id = 7777`);
    expect((await s.forSpace('a').vectors.nearest('episode', 'm', victim, 5, { indexAbove: 1 })).map((h) => h.id)).not.toContain(7777);
    await s.purge(['episode']);
    expect(onDisk()).toBe(false);
    // Put back under the same id, it is found again.
    await s.forSpace('a').vectors.put('episode', 7777, 'm', victim, 0);
    expect((await s.forSpace('a').vectors.nearest('episode', 'm', victim, 1, { indexAbove: 1 }))[0]).toMatchObject({ id: 7777 });
  });

  it('deletes a file written before a delete that another connection made, when that connection purges', async () => {
    const { s } = await filled(200);
    const victim = basis(7);
    await s.forSpace('a').vectors.put('episode', 4242, 'm', victim, 0);
    await s.forSpace('a').vectors.nearest('episode', 'm', victim, 1, { indexAbove: 1 });
    await s.close();
    store = undefined;
    // A second process (the CLI's forget) that never loaded the graph deletes and purges.
    const other = await openSqliteStore(path);
    await other.db.run(`DELETE FROM embeddings WHERE layer = 'episode' AND item_id = 4242`);
    await other.purge(['episode']);
    await other.close();
    expect(indexFiles().some((f) => readFileSync(join(`${path}.hnsw`, f)).includes(bytesOf(victim)))).toBe(false);
  });

  it('cuts its change log when it saves, and an index behind the cut is built again from the table', async () => {
    const { s, queries } = await filled(300);
    await s.forSpace('a').vectors.nearest('episode', 'm', queries[0]!, 5, { indexAbove: 1 });
    // A second connection (another process) holding the graph as it was after the fill.
    const behind = await openSqliteStore(path);
    await behind.forSpace('a').vectors.nearest('episode', 'm', queries[0]!, 5, { indexAbove: 1 });
    const moved = clustered(300, 0, 99).vectors;
    // Every vector moves once (a drop and a put each: 600 changes), then the last 50 move five times more (500).
    await s.transaction(async (tx) => {
      for (let i = 0; i < 300; i++) await tx.forSpace('a').vectors.put('episode', i + 1, 'm', moved[i]!, 0);
      for (let round = 0; round < 5; round++) {
        for (let i = 250; i < 300; i++) await tx.forSpace('a').vectors.put('episode', i + 1, 'm', clustered(300, 0, 200 + round).vectors[i]!, 0);
      }
    });
    // The first connection replays, saves and cuts: it keeps the 1,000 newest changes (more than its 300 vectors).
    await s.close();
    store = undefined;
    const log = await behind.db.get<{ n: number; low: number }>('SELECT COUNT(*) AS n, MIN(seq) AS low FROM embedding_changes');
    const floor = await behind.db.get<{ seq: number }>('SELECT seq FROM embedding_change_floor');
    expect(log!.n).toBe(1000);
    expect(floor!.seq).toBe(log!.low - 1);
    // The connection behind missed the moves of the first vectors (cut), while the rest of the log is short enough
    // to replay: it must see the floor and build again, or the graph would still place vector 7 where it was.
    const hit = await behind.forSpace('a').vectors.nearest('episode', 'm', moved[6]!, 1, { indexAbove: 1 });
    expect(hit[0]).toMatchObject({ id: 7 });
    expect(hit[0]!.score).toBeCloseTo(1, 5);
    await behind.close();
  });
});
