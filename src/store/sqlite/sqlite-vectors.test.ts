// SQLite vectors through sqlite-vec: the exact scan equals the portable one; the binary pre-selection with exact
// re-scoring finds the exact top-k on clustered data, fills in copies of vectors written without it, and drops
// copies whose vector went away.
import { afterEach, describe, expect, it } from 'vitest';
import { VectorSql } from '../sql/vector-sql.js';
import type { SqlStore } from '../sql/sql-store.js';
import { openSqliteStore } from './open-sqlite.js';
import { mulberry32 } from '../../script/seeded-rng.js';

let store: SqlStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** `n` 64-d vectors around 8 random centres (what embeddings of a few topics look like), and a query near centre 3. */
function clustered(n: number, seed = 7): { vectors: Float32Array[]; query: Float32Array } {
  const r = mulberry32(seed);
  const centres = Array.from({ length: 8 }, () => Float32Array.from({ length: 64 }, () => r() * 2 - 1));
  const near = (c: Float32Array, spread: number) => Float32Array.from(c, (x) => x + (r() * 2 - 1) * spread);
  return { vectors: Array.from({ length: n }, (_, i) => near(centres[i % 8]!, 0.6)), query: near(centres[3]!, 0.3) };
}

async function filled(n: number): Promise<{ s: SqlStore; query: Float32Array }> {
  const s = await openSqliteStore(':memory:');
  store = s;
  expect((await s.info()).features.sqliteVec).toBe(true);
  const { vectors, query } = clustered(n);
  await s.transaction(async (tx) => {
    for (const [i, v] of vectors.entries()) await tx.forSpace('a').vectors.put('episode', i + 1, 'm', v, 0);
  });
  return { s, query };
}

describe('SQLite vectors with sqlite-vec', () => {
  it('answers the exact scan in SQL with the same ids and scores as the portable scan', async () => {
    const { s, query } = await filled(300);
    const inSql = await s.forSpace('a').vectors.nearest('episode', 'm', query, 10);
    const portable = await new VectorSql(s.db, 'a').nearest('episode', 'm', query, 10);
    expect(inSql.map((h) => h.id)).toEqual(portable.map((h) => h.id));
    for (const [i, h] of inSql.entries()) expect(h.score).toBeCloseTo(portable[i]!.score, 5);
  });

  it('pre-selects by Hamming distance and re-scores exactly: the top 10 of the exact scan on clustered data', async () => {
    const { s, query } = await filled(2_000);
    const exact = await s.forSpace('a').vectors.nearest('episode', 'm', query, 10, { quantizeAbove: Number.MAX_SAFE_INTEGER });
    const binary = await s.forSpace('a').vectors.nearest('episode', 'm', query, 10, { quantizeAbove: 0 });
    expect(binary.map((h) => h.id)).toEqual(exact.map((h) => h.id));
    expect(binary[0]!.score).toBeCloseTo(exact[0]!.score, 6);
  });

  it('fills in binary copies of vectors written without them, and drops the copy of a deleted vector', async () => {
    const { s, query } = await filled(500);
    const bits = async () => Number((await s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM embedding_bits'))?.n);
    expect(await bits()).toBe(500);
    // As if written by a process without sqlite-vec, or before schema v2.
    await s.db.run('DELETE FROM embedding_bits WHERE item_id > 250');
    const exact = await s.forSpace('a').vectors.nearest('episode', 'm', query, 5, { quantizeAbove: Number.MAX_SAFE_INTEGER });
    expect((await s.forSpace('a').vectors.nearest('episode', 'm', query, 5, { quantizeAbove: 0 })).map((h) => h.id)).toEqual(exact.map((h) => h.id));
    expect(await bits()).toBe(500);
    await s.db.run('DELETE FROM embeddings WHERE item_id = ?', [exact[0]!.id]);
    expect(await bits()).toBe(499);
    const after = await s.forSpace('a').vectors.nearest('episode', 'm', query, 5, { quantizeAbove: 0 });
    expect(after.map((h) => h.id)).not.toContain(exact[0]!.id);
  });
});

describe('sqlite-vec loaded on the first vector operation', () => {
  const loaded = async (s: SqlStore) => (await s.db.get('SELECT vec_version() AS v').then(() => true, () => false));

  it('is not loaded by opening the file or by word search, and is by the first vector write or search', async () => {
    for (const first of ['put', 'nearest'] as const) {
      const s = await openSqliteStore(':memory:');
      store = s;
      await s.forSpace('a').search.lexical('episode', ['anything'], { limit: 5 });
      expect(await loaded(s)).toBe(false);
      const v = clustered(1).query;
      if (first === 'put') await s.forSpace('a').vectors.put('episode', 1, 'm', v, 0);
      else expect(await s.forSpace('a').vectors.nearest('episode', 'm', v, 1)).toEqual([]);
      expect(await loaded(s)).toBe(true);
      // The binary copy a write makes with sqlite-vec is there from the first write.
      if (first === 'put') expect((await s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM embedding_bits'))?.n).toBe(1);
      await s.close();
      store = undefined;
    }
  });
});
