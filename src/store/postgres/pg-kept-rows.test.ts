// PostgreSQL ranks in the shared word index first and then keeps the space's rows that pass the search's filters, the
// best first (pg-search.ts, `#keepInOrder`). Two spaces share the index, some of the best rows are archived, a session
// and a time window are asked: the hits must be the rows of the whole ranking that pass, in its order. On PGlite and
// on a PostgreSQL server (TIDEPOOL_TEST_PG_URL).
import { afterAll, describe, expect, it } from 'vitest';
import { pgEngines } from '../../../test/helpers/pg-schemas.js';
import type { LexicalOptions } from '../port.js';
import type { SqlStore } from '../sql/sql-store.js';
import { createRng } from '../../script/seeded-rng.js';
import { plainEpisode } from '../sqlite/plain-episode.test-helper.js';
import { openPostgresStore } from './open-postgres.js';

const stores: SqlStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
});

describe.each(pgEngines('kept'))('the best rows that pass the filters, on %s', (_, url) => {
  it("keeps the rows of the whole ranking that are the space's own, not archived, in the session and window asked", async () => {
    const store = await openPostgresStore(url());
    stores.push(store);
    const rng = createRng(23);
    // Two spaces written in turns, so that their rows interleave in the shared index; "osprey" and "reef" in a few
    // per cent of the rows (rare words: ranked by BM25, not the newest rows first).
    for (let b = 0; b < 12; b++) {
      const rows = Array.from({ length: 200 }, (_, i) => {
        const words = Array.from({ length: rng.between(2, 10) }, () => `w${rng.between(1, 300)}`);
        if (rng.chance(0.04)) words.push('osprey');
        if (rng.chance(0.03)) words.push('reef', 'reef');
        return { ...plainEpisode(words.join(' '), 1_000_000 + (b * 200 + i) * 1000), session: `s${i % 7}` };
      });
      await store.transaction((tx) => tx.forSpace(b % 3 === 2 ? 'other' : 'mine').episodes.insertMany(rows));
    }
    const ask = (o: LexicalOptions) => store.forSpace('mine').search.lexical('episode', ['osprey', 'reef'], o);
    // Every matching row of the space, ranked (a row's score does not depend on the filters).
    const whole = await ask({ limit: 1000, includeArchived: true });
    expect(whole.length).toBeGreaterThan(60);
    const archived = [whole[0]!.id, whole[2]!.id, whole[5]!.id, whole[17]!.id];
    await store.forSpace('mine').episodes.markArchived(archived, 1);
    const rows = new Map((await store.forSpace('mine').episodes.getMany(whole.map((h) => h.id))).map((e) => [e.id, e]));
    expect(rows.size).toBe(whole.length);
    const cases: Array<[LexicalOptions, (id: number) => boolean]> = [
      [{ limit: 10 }, (id) => !archived.includes(id)],
      [{ limit: 30 }, (id) => !archived.includes(id)],
      [{ limit: 10, session: 's3' }, (id) => !archived.includes(id) && rows.get(id)!.session === 's3'],
      [
        { limit: 10, since: 1_000_000 + 600 * 1000, until: 1_000_000 + 1800 * 1000 },
        (id) => !archived.includes(id) && rows.get(id)!.occurredAt >= 1_000_000 + 600 * 1000 && rows.get(id)!.occurredAt <= 1_000_000 + 1800 * 1000,
      ],
      [{ limit: 10, includeArchived: true }, () => true],
    ];
    for (const [o, passes] of cases) {
      const got = await ask(o);
      expect(got.length).toBe(o.limit);
      expect(got.map((h) => h.id)).toEqual(whole.map((h) => h.id).filter(passes).slice(0, o.limit));
    }
  }, 120_000);
});
