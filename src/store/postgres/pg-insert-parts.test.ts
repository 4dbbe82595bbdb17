// A batch insert's parts on a pipelined connection: each built part is sent before the last one's ids are read, so the
// server can start it as soon as the last one ends; a part the server refuses fails the batch with its own error,
// after the part behind it has answered, and leaves the store as it was.
import { describe, expect, it } from 'vitest';
import { pgSchemas } from '../../../test/helpers/pg-schemas.js';
import { pgStatementsAsked } from '../../../test/helpers/pg-statements-asked.js';
import type { NewEpisode } from '../port.js';
import { openPostgresStore } from './open-postgres.js';
import type { PgFamilyDriver } from './pg-driver.js';

const base = process.env.TIDEPOOL_TEST_PG_URL;
const fresh = base ? pgSchemas(base) : () => '';

function episode(i: number, occurredAt = 1): NewEpisode {
  const body = `part row ${i} partmark${i}`;
  return {
    kind: 'turn', role: 'user', speaker: null, content: body, session: null, tool: null, ok: null, source: 'test', ref: `p:${i}`,
    meta: {}, durable: false, occurredAt, createdAt: 1, embedPending: false, index: { body, extra: '', raw: '' },
  };
}

/** For each part statement sent while `run` runs: when it was asked and when it answered, on one counter. */
async function partsTimed(run: () => Promise<unknown>): Promise<Array<{ asked: number; answered: number }>> {
  return (await pgStatementsAsked(run)).filter((s) => s.text.includes('WITH u AS MATERIALIZED'));
}

describe.skipIf(!base)('PostgreSQL: a batch insert in parts', () => {
  it('sends each part before the last one has answered when the connection pipelines, and only after when not', async () => {
    for (const pipeline of [true, false]) {
      const store = await openPostgresStore(fresh(`parts${pipeline ? 'p' : 's'}`), { pipeline });
      try {
        const rows = Array.from({ length: 1000 }, (_, i) => episode(i));
        const parts = await partsTimed(() => store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows)));
        expect(parts.length).toBeGreaterThanOrEqual(4);
        // Pipelined, the second part is sent before the first has answered (it is built and sent before the first's
        // answer is awaited; later ones may find the last already answered, when both answers arrive in one read),
        // and never more than two at once. Else each waits for the last one's answer.
        const before = (k: number, back: number) => parts[k]!.asked < parts[k - back]!.answered;
        expect(before(1, 1), `pipeline ${pipeline}`).toBe(pipeline);
        for (let k = 1; k < parts.length; k++) if (!pipeline) expect(before(k, 1), `part ${k}`).toBe(false);
        for (let k = 2; k < parts.length; k++) expect(before(k, 2), `part ${k}`).toBe(false);
        expect(await store.forSpace('s').episodes.count()).toBe(1000);
        const hit = await store.forSpace('s').search.lexical('episode', ['partmark999'], { limit: 5 });
        expect(hit).toHaveLength(1);
      } finally {
        await store.close();
      }
    }
  });

  it('fails with the refused part’s own error while the next part is in flight, and keeps nothing of the batch', async () => {
    const store = await openPostgresStore(fresh('partsfail'));
    try {
      await store.transaction((tx) => tx.forSpace('s').episodes.insertMany([episode(-1)]));
      // Row 400 is in the second part; its time is beyond BIGINT, which the server refuses.
      const rows = Array.from({ length: 1000 }, (_, i) => episode(i, i === 400 ? 4e19 : 1));
      const parts = await partsTimed(() => expect(store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows))).rejects.toThrow(/out of range/));
      // The third part was sent before the second's failure was read, and every part sent had answered when it failed.
      expect(parts.length).toBeGreaterThanOrEqual(3);
      expect(parts.every((p) => p.answered >= 0)).toBe(true);
      expect(await store.forSpace('s').episodes.count()).toBe(1);
      expect(await store.forSpace('s').search.lexical('episode', ['partmark5'], { limit: 5 })).toEqual([]);
      // The connection is whole: the same batch without the bad row goes in.
      const ok = await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows.map((r, i) => (i === 400 ? episode(i) : r))));
      expect(ok.ids).toHaveLength(1000);
    } finally {
      await store.close();
    }
  });

  it('sends the statistics\' delta and COMMIT together when pipelined, and fails the write when the delta is refused', async () => {
    for (const pipeline of [true, false]) {
      const store = await openPostgresStore(fresh(`delta${pipeline ? 'p' : 's'}`), { pipeline });
      try {
        const order = await pgStatementsAsked(() => store.transaction((tx) => tx.forSpace('s').episodes.insertMany([episode(1), episode(2)])));
        const delta = order.find((s) => s.text.startsWith('INSERT INTO lexical_deltas'))!;
        const commit = order.find((s) => s.text === 'COMMIT')!;
        expect(commit.asked < delta.answered, `pipeline ${pipeline}`).toBe(pipeline);
        // A delta the server refuses (here a trigger) fails the write with its own error and keeps none of it.
        await (store.db as PgFamilyDriver).exec(`CREATE FUNCTION refuse_delta() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'delta refused'; END $$;
          CREATE TRIGGER refuse_delta BEFORE INSERT ON lexical_deltas FOR EACH ROW EXECUTE FUNCTION refuse_delta();`);
        await expect(store.transaction((tx) => tx.forSpace('s').episodes.insertMany([episode(3)]))).rejects.toThrow(/delta refused/);
        // Its own error still, when the transaction went on with another statement (which the server refuses as
        // "current transaction is aborted").
        const goesOn = store.transaction(async (tx) => {
          await tx.forSpace('s').episodes.insertMany([episode(4)]);
          await tx.forSpace('s').episodes.count();
        });
        await expect(goesOn).rejects.toThrow(/delta refused/);
        expect(await store.forSpace('s').episodes.count()).toBe(2);
        await (store.db as PgFamilyDriver).exec('DROP TRIGGER refuse_delta ON lexical_deltas');
        await store.transaction((tx) => tx.forSpace('s').episodes.insertMany([episode(3)]));
        expect(await store.forSpace('s').episodes.count()).toBe(3);
        expect(await store.forSpace('s').search.lexical('episode', ['partmark3'], { limit: 5 })).toHaveLength(1);
      } finally {
        await store.close();
      }
    }
  });
});
