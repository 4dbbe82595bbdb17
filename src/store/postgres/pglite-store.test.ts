// The Store contract against embedded PGlite with pg_trgm and pgvector: the PostgreSQL code path without a server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStoreContract } from '../contract.js';
import type { SqlStore } from '../sql/sql-store.js';
import { openPostgresStore } from './open-postgres.js';
import { VectorSql } from '../sql/vector-sql.js';
import { hnswIndexName } from './pg-vectors.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';

runStoreContract('PGlite + pgvector', () => openPostgresStore('pglite://memory'));

describe('PGlite engine specifics', () => {
  let store: SqlStore;
  beforeAll(async () => {
    store = await openPostgresStore('pglite://memory');
  }, 180_000);
  afterAll(async () => {
    await store?.close();
  });

  it('reports the server, its extensions and a healthy schema', async () => {
    const info = await store.info();
    expect(info).toMatchObject({ engine: 'postgres', location: 'pglite://memory', schemaVersion: POSTGRES_MIGRATIONS.at(-1)!.version, integrity: 'ok' });
    expect(info.features).toMatchObject({ tsvector: true, trigram: true, pgvector: true, hnsw: true });
    expect(info.versions.postgres).toMatch(/^\d+/);
    expect(info.versions.pgvector).toMatch(/^0\.\d+/);
  });

  it('answers equal distances in id order, through the HNSW index as through the exact scan', async () => {
    // Three copies of each of four directions, written in shuffled id order; the nearest direction's copies tie.
    const dirs = [[1, 0, 0, 0], [0.9, 0.1, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]];
    const ids = [7, 3, 11, 1, 9, 5, 12, 2, 8, 4, 10, 6];
    for (const [i, id] of ids.entries()) await store.forSpace('ties').vectors.put('knowledge', id, 'm', new Float32Array(dirs[i % 4]!), 1);
    const q = new Float32Array([1, 0, 0, 0]);
    const viaIndex = await store.forSpace('ties').vectors.nearest('knowledge', 'm', q, 6);
    // The exact scan of the portable store (what a server without pgvector, or too few hits, answers from).
    const exact = await VectorSql.prototype.nearest.call(store.forSpace('ties').vectors, 'knowledge', 'm', q, 6);
    expect(exact.map((h) => h.id)).toEqual([7, 8, 9, 3, 4, 5]);
    expect(viaIndex.map((h) => h.id)).toEqual(exact.map((h) => h.id));
  });

  it('builds one HNSW index per dimension and answers from it', async () => {
    for (let i = 1; i <= 20; i++) await store.forSpace('hnsw').vectors.put('knowledge', i, 'm', new Float32Array([i, 20 - i, 1]), 1);
    const hits = await store.forSpace('hnsw').vectors.nearest('knowledge', 'm', new Float32Array([20, 0, 1]), 3);
    expect(hits.map((h) => h.id)).toEqual([20, 19, 18]);
    const idx = await store.db.all<{ indexdef: string }>('SELECT indexdef FROM pg_indexes WHERE indexname = ?', [hnswIndexName(3)]);
    expect(idx[0]?.indexdef).toMatch(/USING hnsw .*WHERE \(dim = 3\)/);
    const plan = await store.db.transaction(async (tx) => {
      await tx.run('SET LOCAL enable_seqscan = off');
      return tx.all<Record<string, string>>(
        `EXPLAIN SELECT item_id FROM embeddings WHERE space = 'hnsw' AND dim = 3
         ORDER BY tidepool_vector(vector)::vector(3) <=> '[20,0,1]'::vector(3) LIMIT 3`,
      );
    });
    expect(plan.map((r) => Object.values(r)[0]).join('\n')).toContain(hnswIndexName(3));
  });

  it('decodes stored float32 vectors exactly', async () => {
    const v = new Float32Array([1, -0.5, 3.14159, 1e-38, -2.5e-40, 123456.789]);
    await store.forSpace('dec').vectors.put('episode', 1, 'm', v, 1);
    const r = await store.db.get<{ t: string }>("SELECT tidepool_vector(vector)::text AS t FROM embeddings WHERE space = 'dec'");
    expect(new Float32Array(JSON.parse(r!.t) as number[])).toEqual(v);
  });
});
