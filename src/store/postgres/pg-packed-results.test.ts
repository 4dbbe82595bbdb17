// Rankings and id lists come back from PostgreSQL as one packed text (pg-search.ts, `packedRanking`, `packedIds`) and
// the neighbours of recall's hits as one JSON text (episode-sql.ts, `around`): the numbers must be exactly those a
// protocol row would carry, on PGlite and on a PostgreSQL server (TIDEPOOL_TEST_PG_URL).
import { afterAll, describe, expect, it } from 'vitest';
import { pgEngines } from '../../../test/helpers/pg-schemas.js';
import type { NewEpisode } from '../port.js';
import type { SqlStore } from '../sql/sql-store.js';
import { plainEpisode } from '../sqlite/plain-episode.test-helper.js';
import { openPostgresStore } from './open-postgres.js';
import { packedIds, packedRanking } from './pg-search.js';

const stores: SqlStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
});

// Scores as BM25 produces them (products and quotients of float8), and the awkward ones: 0.1 + 0.2, subnormal, huge.
const FLOATS = ['0.1::float8 + 0.2', '1e-6::float8', '2.953344 * 3.0 * 2.2 / (3.0 + 1.2 * (0.25 + 0.75 * 47 / 41.948554455445546))', '5e-324::float8', '1.7976931348623157e308::float8', '1::float8 / 3', '123456789.123456789::float8'];


describe.each(pgEngines('packed'))('packed results on %s', (_, url) => {
  it('read the same ids, scores and neighbours as protocol rows', async () => {
    const store = await openPostgresStore(url());
    stores.push(store);
    const values = FLOATS.map((f, i) => `(${9_007_199_254_740_000 + i}::bigint, (${f})::float8)`).join(', ');
    const rows = await store.db.all<{ id: unknown; s: unknown }>(`SELECT id, s FROM (VALUES ${values}) v(id, s) ORDER BY s DESC, id DESC`);
    const packed = await store.db.get<{ r: string | null }>(`SELECT string_agg(id || ' ' || s, ' ' ORDER BY s DESC, id DESC) AS r FROM (VALUES ${values}) v(id, s)`);
    expect(packedRanking(packed!.r)).toEqual(rows.map((r) => ({ id: Number(r.id), s: Number(r.s) })));
    const ids = await store.db.get<{ r: string | null }>(`SELECT string_agg(id::text, ' ' ORDER BY id DESC) AS r FROM (VALUES ${values}) v(id, s)`);
    expect(packedIds(ids!.r)).toEqual([...rows].map((r) => Number(r.id)).sort((a, b) => b - a));
    expect(packedRanking(null)).toEqual([]);
    expect(packedIds(null)).toEqual([]);

    const at = 1_700_000_000_123;
    const episode = (content: string, i: number, speaker: string | null, session: string | null): NewEpisode => ({
      ...plainEpisode(content, at + i),
      speaker,
      session,
    });
    const { ids: written } = await store.transaction((tx) =>
      tx.forSpace('s').episodes.insertMany([
        episode('one', 0, 'Mia "M" \\ 米娅', 'sess 1'),
        episode('two', 1, null, null),
        episode('three', 2, 'Bo\nb', 'sess\t2'),
      ]),
    );
    const around = await store.forSpace('s').episodes.around([written[1]!], 1);
    expect([...around].sort((a, b) => a.id - b.id)).toEqual([
      { id: written[0], session: 'sess 1', occurredAt: at, speaker: 'Mia "M" \\ 米娅' },
      { id: written[1], session: null, occurredAt: at + 1, speaker: null },
      { id: written[2], session: 'sess\t2', occurredAt: at + 2, speaker: 'Bo\nb' },
    ]);
    expect(await store.forSpace('other').episodes.around([written[1]!], 1)).toEqual([]);
  }, 60_000);
});
