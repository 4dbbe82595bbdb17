// A write's GIN pending list is merged after its commit, on another pooled connection (node-postgres): the writer is
// not held up by it, and by the time that work has settled (or the store has closed) the list is empty again. A
// search started together statements on the pool's connections, and one after another inside a transaction (one
// client, where node-postgres deprecates queuing a query), pipelined or not.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { pgSchemas } from '../../../test/helpers/pg-schemas.js';
import type { NewEpisode } from '../port.js';
import { PgDriver } from './pg-driver.js';
import { openPostgresStore } from './open-postgres.js';
import { COMPACT_AT } from './pg-lexical-stats.js';
import { MERGE_AT } from './pg-search.js';

const base = process.env.TIDEPOOL_TEST_PG_URL;
const fresh = base ? pgSchemas(base) : () => '';

function episode(body: string): NewEpisode {
  return {
    kind: 'turn', role: 'user', speaker: null, content: body, session: null, tool: null, ok: null, source: 'test', ref: null,
    meta: {}, durable: false, occurredAt: 1, createdAt: 1, embedPending: false, index: { body, extra: '', raw: '' },
  };
}

/** Pages left in the pending list of the episodes' word index (merging them reports how many there were). */
async function pendingPages(url: string): Promise<number> {
  const schema = new URL(url).searchParams.get('schema')!;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    const r = await c.query<{ n: number }>(`SELECT gin_clean_pending_list('"${schema}".ix_episodes_fts'::regclass) AS n`);
    return Number(r.rows[0]!.n);
  } finally {
    await c.end();
  }
}

describe.skipIf(!base)('PostgreSQL: GIN pending lists merged after the commit', () => {
  it('leaves no pending list once the work after the commit has settled', async () => {
    const url = fresh('aftercommit');
    const store = await openPostgresStore(url);
    const rows = Array.from({ length: 2000 }, (_, i) => episode(`harbour kayak storm w${i} tide ${i % 97} gull rope net`));
    await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows));
    expect(store.db).toBeInstanceOf(PgDriver);
    await (store.db as PgDriver).settled();
    expect(await pendingPages(url)).toBe(0);
    // The rows are searchable, and a second write merges again; closing waits for that merge.
    expect((await store.forSpace('s').search.lexical('episode', ['kayak'], { limit: 5 })).length).toBe(5);
    await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows.slice(0, 500)));
    await store.close();
    expect(await pendingPages(url)).toBe(0);
  });

  it('merges a trickle of small writes once they reach MERGE_AT rows, and what is left when the store closes', async () => {
    const url = fresh('aftercommit_trickle');
    const store = await openPostgresStore(url);
    const db = store.db as PgDriver;
    const one = (i: number) => store.transaction((tx) => tx.forSpace('s').episodes.insertMany([episode(`harbour kayak turn${i}`)]));
    for (let i = 0; i < 20; i++) await one(i);
    await db.settled();
    // Twenty one-row writes: no merge yet (each cost ~0.6 ms of server time), and the rows are found meanwhile.
    expect(await pendingPages(url)).toBeGreaterThan(0);
    expect((await store.forSpace('s').search.lexical('episode', ['turn7'], { limit: 5 })).length).toBe(1);
    // A batch that brings the rows since the last merge to MERGE_AT merges them all at once.
    const batch = Array.from({ length: MERGE_AT - 20 }, (_, i) => episode(`harbour gull w${i}`));
    await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(batch));
    await db.settled();
    expect(await pendingPages(url)).toBe(0);
    // A few more: merged by the close.
    for (let i = 20; i < 25; i++) await one(i);
    await db.settled();
    expect(await pendingPages(url)).toBeGreaterThan(0);
    await store.close();
    expect(await pendingPages(url)).toBe(0);
  });

  it('asks whether to fold the statistics every few writes, so the deltas readers add up stay few', async () => {
    const url = fresh('aftercommit_fold');
    const store = await openPostgresStore(url);
    const deltas = async () => Number((await store.db.get<{ n: unknown }>('SELECT count(*) AS n FROM lexical_deltas'))?.n);
    for (let i = 0; i < 3 * COMPACT_AT; i++) {
      await store.transaction((tx) => tx.forSpace('s').episodes.insertMany([episode(`harbour kayak turn${i}`)]));
      await (store.db as PgDriver).settled();
      expect(await deltas()).toBeLessThan(COMPACT_AT + COMPACT_AT / 4);
    }
    // Folded at least once, and the figures are the index's.
    expect(await deltas()).toBeLessThan(3 * COMPACT_AT);
    const stats = await store.db.get<{ rows: unknown }>(
      `SELECT (SELECT rows FROM lexical_rows WHERE layer = 'episode' AND space = 's') + (SELECT coalesce(sum(rows), 0) FROM lexical_deltas) AS rows`,
    );
    expect(Number(stats?.rows)).toBe(3 * COMPACT_AT);
    await store.close();
  });

  it('runs no work after a transaction that rolled back', async () => {
    const url = fresh('aftercommit_rollback');
    const store = await openPostgresStore(url);
    await expect(
      store.transaction(async (tx) => {
        await tx.forSpace('s').episodes.insertMany([episode('harbour kayak')]);
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    await (store.db as PgDriver).settled();
    // Its entries are still in the list: nothing merged them.
    expect(await pendingPages(url)).toBeGreaterThan(0);
    await store.close();
  });

  it('keeps to two connections for writes with their work after the commit, and for searches that fan out', async () => {
    const url = fresh('aftercommit_connections');
    const store = await openPostgresStore(url);
    const pool = (store.db as PgDriver).pool;
    // Each backend a process opens pays again for the pages it reads first (issue 20): the pool grows only where
    // statements run at once, and no caller runs more than two.
    const rows = Array.from({ length: 6000 }, (_, i) =>
      episode(`tide ${i % 3 === 0 ? 'harbour' : 'rope'} ${i % 97 === 0 ? 'gull' : 'net'} 咖啡 w${i} ${i % 5 === 0 ? 'sea wall' : 'dune'}`),
    );
    for (let i = 0; i < rows.length; i += 500) await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows.slice(i, i + 500)));
    await (store.db as PgDriver).settled();
    // A common word dropped (both rankings at once), a phrase and a Chinese prefix (counted in the index).
    for (const terms of [['tide', 'harbour', 'gull'], ['tide', 'sea wall', '咖', 'gull'], ['咖', 'gull', 'sea wall']]) {
      expect((await store.forSpace('s').search.lexical('episode', terms, { limit: 10 })).length).toBeGreaterThan(0);
    }
    expect(pool.totalCount).toBeLessThanOrEqual(2);
    await store.close();
  });

  it.each([true, false])('searches inside a transaction (pipelined: %s) without a queuing warning, with the answers of a search outside it', async (pipeline) => {
    const url = fresh(`aftercommit_tx${pipeline ? 'p' : 's'}`);
    const store = await openPostgresStore(url, { pipeline });
    // 6,000 rows: "tide" in all (common), "harbour" in a third, "gull" in a few: counts and a dropped common term.
    const rows = Array.from({ length: 6000 }, (_, i) => episode(`tide ${i % 3 === 0 ? 'harbour' : 'rope'} ${i % 97 === 0 ? 'gull' : 'net'} w${i}`));
    await store.transaction((tx) => tx.forSpace('s').episodes.insertMany(rows));
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const terms = ['tide', 'harbour', 'gull'];
      const inside = await store.transaction((tx) => tx.forSpace('s').search.lexical('episode', terms, { limit: 10 }));
      const outside = await store.forSpace('s').search.lexical('episode', terms, { limit: 10 });
      expect(inside.length).toBe(10);
      expect(inside).toEqual(outside);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
      await store.close();
    }
    expect(warnings.filter((w) => w.includes('already executing a query'))).toEqual([]);
  });
});
