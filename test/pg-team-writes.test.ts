/**
 * Three HTTP servers, each with its own connection pool, on one PostgreSQL database (issue 22.6): concurrent keyed
 * and unkeyed writes and recalls answer 2xx, and every acknowledged write is there afterwards.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { noteHits } from '../src/app/recall.js';
import { appContextOf, type Tidepool } from '../src/app/tidepool.js';
import { openMemory } from '../src/boot/open-memory.js';
import { startHttpServer, type HttpHandle } from '../src/boot/serve.js';
import { pgSchemas } from './helpers/pg-schemas.js';

const base = process.env.TIDEPOOL_TEST_PG_URL;

/** Runs `worker(i)` for i in [0, total) with at most `limit` running at once. */
async function pool<T>(total: number, limit: number, worker: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(total);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < total) {
        const i = next++;
        out[i] = await worker(i);
      }
    }),
  );
  return out;
}

if (!base) {
  describe.skip('three servers on one PostgreSQL database: skipped (set TIDEPOOL_TEST_PG_URL)', () => {
    it('serialises keyed writes', () => undefined);
  });
} else {
  const fresh = pgSchemas(base);

  describe('three servers on one PostgreSQL database', () => {
    it('note recall hits so that a writer holding one of their entries waits for nothing they hold', { timeout: 60_000 }, async (t) => {
      // Two recalls noted in one batch: the first hits k2, the second k1, and another server's transaction holds k1
      // and then wants the attention totals. Noted call by call, the batch locked the totals (after the first) before
      // it waited for k1: a deadlock, which PostgreSQL broke by aborting one side after deadlock_timeout. Now the
      // batch locks every entry first, in id order, and holds nothing else while it waits for k1.
      const url = fresh('notes');
      const m = await openMemory({ url, embedder: 'none', warn: () => {} });
      const other = new pg.Client({ connectionString: base });
      await other.connect();
      try {
        const ctx = appContextOf(m);
        const schema = new URL(url).searchParams.get('schema')!;
        const k1 = Number((await m.remember({ text: 'the heron nests by the weir' })).id.slice(1));
        const k2 = Number((await m.remember({ text: 'the plover nests on shingle' })).id.slice(1));
        expect(k1).toBeLessThan(k2);
        await m.recall({ query: 'heron' }); // the totals' row exists
        await other.query(`SET search_path = "${schema}"`);
        // This side notices a deadlock at once (the batch's own check comes after a second): it is the one aborted.
        // Only a superuser may set it (CI's role is one).
        if (!(await other.query("SET deadlock_timeout = '10ms'").then(() => true, () => false))) return t.skip();
        await other.query('BEGIN');
        await other.query('SELECT id FROM knowledge WHERE id = $1 FOR UPDATE', [k1]);
        const now = Date.now();
        const noted = Promise.all([
          noteHits(ctx, [{ id: `k${k2}`, score: 1 }], 'recall', null, now),
          noteHits(ctx, [{ id: `k${k1}`, score: 1 }], 'recall', null, now),
        ]);
        // Until the batch waits for k1.
        for (let waiting = false; !waiting; ) {
          await new Promise((r) => setTimeout(r, 20));
          const r = await other.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FROM knowledge%FOR UPDATE%'",
          );
          waiting = r.rows[0].n > 0;
        }
        await other.query(
          `INSERT INTO attention_stats (space, cluster, hit_count, last_hit, last_item_id) VALUES ($1, '_unclassified', 1, 0, 0)
           ON CONFLICT (space, cluster) DO UPDATE SET hit_count = attention_stats.hit_count + 1`,
          [m.space],
        );
        await other.query('COMMIT');
        await noted;
        const [a, b] = [await ctx.store.forSpace(m.space).knowledge.get(k1), await ctx.store.forSpace(m.space).knowledge.get(k2)];
        expect([a!.lastReinforcedAt, b!.lastReinforcedAt]).toEqual([now, now]);
      } finally {
        await other.query('ROLLBACK').catch(() => {});
        await other.end();
        await m.close();
      }
    });

    it(
      'answer concurrent keyed and unkeyed remembers, ingests and recalls with 2xx, and keep every acknowledged write',
      { timeout: 180_000 },
      async () => {
        const url = fresh('team');
        const memories: Tidepool[] = [];
        const servers: HttpHandle[] = [];
        try {
          // Opened together: the three migrate the fresh schema at the same moment.
          memories.push(...(await Promise.all([0, 1, 2].map(() => openMemory({ url: url, embedder: 'none', warn: () => {} })))));
          for (const m of memories) servers.push(await startHttpServer(m, { host: '127.0.0.1', port: 0 }));
          const post = (s: number, route: string, body: unknown) =>
            fetch(`${servers[s]!.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
          const KEYS = 4;
          const results = await pool(480, 24, async (i) => {
            const s = i % 3;
            const op = Math.floor(i / 3) % 4;
            // Keyed: every server writes the same few keys at once, with different values.
            const r =
              op === 0 || op === 1
                ? await post(s, '/v1/remember', { text: `heron setting ${i}`, key: `team.k${i % KEYS}` })
                : op === 2
                  ? i % 2 === 0
                    ? await post(s, '/v1/remember', { text: `unkeyed plover note ${i}` })
                    : await post(s, '/v1/ingest', { content: `plover turn ${i}`, session: `t${i}`, ref: `r${i}` })
                  : await fetch(`${servers[s]!.url}/v1/recall?q=${encodeURIComponent(`heron plover ${i}`)}`);
            const body = (await r.json()) as { id?: string; kind?: string; error?: { message?: string } };
            return { i, op, status: r.status, body };
          });
          const bad = results.filter((r) => r.status < 200 || r.status >= 300).map((r) => `${r.i}: ${r.status} ${JSON.stringify(r.body)}`);
          expect(bad).toEqual([]);

          const check = appContextOf(memories[0]!).store;
          const space = memories[0]!.space;
          // Every acknowledged keyed value is stored (live or superseded), and each key has exactly one live entry.
          for (let k = 0; k < KEYS; k++) {
            const key = `team.k${k}`;
            const acked = results.filter((r) => r.op <= 1 && r.i % KEYS === k).map((r) => `heron setting ${r.i}`);
            const ids = await check.forSpace(space).knowledge.idsByKey(key);
            const rows = await check.forSpace(space).knowledge.getMany(ids);
            expect(rows.map((r) => r.content).sort()).toEqual([...acked].sort());
            const live = rows.filter((r) => r.status !== 'superseded' && r.status !== 'forgotten');
            expect(live, key).toHaveLength(1);
            expect((await check.forSpace(space).knowledge.getLiveByKey(key))?.id).toBe(live[0]!.id);
          }
          // Every unkeyed remember and every ingested turn is there.
          const unkeyed = results.filter((r) => r.op === 2 && r.i % 2 === 0).map((r) => `unkeyed plover note ${r.i}`);
          const turns = results.filter((r) => r.op === 2 && r.i % 2 === 1).map((r) => `plover turn ${r.i}`);
          const all = (await memories[1]!.timeline({ limit: 1000 })).items.map((e) => e.content);
          const stored = new Set(all);
          expect(unkeyed.filter((t) => !stored.has(t))).toEqual([]);
          expect(turns.filter((t) => !stored.has(t))).toEqual([]);
          expect(unkeyed.length + turns.length).toBeGreaterThan(0);
        } finally {
          for (const s of servers) await s.close();
          for (const m of memories) await m.close();
        }
      },
    );
  });
}
