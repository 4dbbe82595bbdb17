/**
 * Three HTTP servers, each with its own connection pool, on one PostgreSQL database (issue 22.6): concurrent keyed
 * and unkeyed writes and recalls answer 2xx, and every acknowledged write is there afterwards.
 */
import { describe, expect, it } from 'vitest';
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
