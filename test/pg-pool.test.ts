/**
 * The PostgreSQL connection pool is sized by configuration (`postgres.poolSize`, TIDEPOOL_PG_POOL_SIZE), and a write
 * transaction holding one connection does not stop reads on the others (issue 20.1).
 */
import { describe, expect, it } from 'vitest';
import { openMemory } from '../src/boot/open-memory.js';
import { loadConfig } from '../src/boot/load-config.js';
import type { PgDriver } from '../src/store/postgres/pg-driver.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { pgSchemas } from './helpers/pg-schemas.js';
import { pgStatementsAsked } from './helpers/pg-statements-asked.js';
import { appContextOf, type Tidepool } from '../src/app/tidepool.js';

const base = process.env.TIDEPOOL_TEST_PG_URL;

describe('postgres.poolSize', () => {
  it('comes from the environment as a number and is validated', () => {
    const env = { TIDEPOOL_CONFIG: '/nonexistent/config.json' };
    expect(loadConfig({}, env).postgres.poolSize).toBe(10);
    expect(loadConfig({}, { ...env, TIDEPOOL_PG_POOL_SIZE: '3' }).postgres.poolSize).toBe(3);
    expect(() => loadConfig({}, { ...env, TIDEPOOL_PG_POOL_SIZE: '0' })).toThrow(/poolSize/);
    expect(() => loadConfig({}, { ...env, TIDEPOOL_PG_POOL_SIZE: 'many' })).toThrow(/poolSize/);
  });

  it('takes postgres.preparedStatements, parallelReads and pipeline from the environment, on unless turned off', () => {
    const env = { TIDEPOOL_CONFIG: '/nonexistent/config.json' };
    expect(loadConfig({}, env).postgres.preparedStatements).toBe(true);
    for (const off of ['0', 'false', 'off', 'NO']) {
      expect(loadConfig({}, { ...env, TIDEPOOL_PG_PREPARED_STATEMENTS: off }).postgres.preparedStatements).toBe(false);
    }
    expect(loadConfig({}, { ...env, TIDEPOOL_PG_PREPARED_STATEMENTS: 'true' }).postgres.preparedStatements).toBe(true);
    expect(loadConfig({}, env).postgres.parallelReads).toBe(true);
    expect(loadConfig({}, { ...env, TIDEPOOL_PG_PARALLEL_READS: 'off' }).postgres.parallelReads).toBe(false);
    expect(loadConfig({}, env).postgres.pipeline).toBe(true);
    expect(loadConfig({}, { ...env, TIDEPOOL_PG_PIPELINE: '0' }).postgres.pipeline).toBe(false);
  });

  it('takes postgres.idleSeconds from the environment as a whole number of seconds, 0 allowed', () => {
    const env = { TIDEPOOL_CONFIG: '/nonexistent/config.json' };
    expect(loadConfig({}, env).postgres.idleSeconds).toBe(300);
    expect(loadConfig({}, { ...env, TIDEPOOL_PG_IDLE_SECONDS: '0' }).postgres.idleSeconds).toBe(0);
    expect(loadConfig({}, { ...env, TIDEPOOL_PG_IDLE_SECONDS: '45' }).postgres.idleSeconds).toBe(45);
    expect(() => loadConfig({}, { ...env, TIDEPOOL_PG_IDLE_SECONDS: '-1' })).toThrow(/idleSeconds/);
    expect(() => loadConfig({}, { ...env, TIDEPOOL_PG_IDLE_SECONDS: '1.5' })).toThrow(/idleSeconds/);
    expect(() => loadConfig({}, { ...env, TIDEPOOL_PG_IDLE_SECONDS: 'soon' })).toThrow(/idleSeconds/);
    expect(loadConfig({}, env).postgres.keepConnections).toBe(2);
    expect(loadConfig({}, { ...env, TIDEPOOL_PG_KEEP_CONNECTIONS: '0' }).postgres.keepConnections).toBe(0);
    expect(() => loadConfig({}, { ...env, TIDEPOOL_PG_KEEP_CONNECTIONS: 'two' })).toThrow(/keepConnections/);
  });
});

describe('Store.pooled', () => {
  it('is false where statements cannot run on several connections: SQLite, PGlite, a transaction', async () => {
    const { openSqliteStore } = await import('../src/store/sqlite/open-sqlite.js');
    const { openPostgresStore } = await import('../src/store/postgres/open-postgres.js');
    for (const store of [await openSqliteStore(':memory:'), await openPostgresStore('pglite://memory')]) {
      try {
        expect(store.pooled).toBe(false);
        await store.transaction(async (tx) => expect(tx.pooled).toBe(false));
      } finally {
        await store.close();
      }
    }
  });
});

if (!base) {
  describe.skip('PostgreSQL pool: skipped (set TIDEPOOL_TEST_PG_URL)', () => {
    it('reads beside a write transaction', () => undefined);
  });
} else {
  const fresh = pgSchemas(base);

  /** A fresh database holding `turns`, recorded by a memory of space `p` that is closed again. */
  const seeded = async (name: string, turns: Array<{ role: 'user'; content: string; session?: string; at: number }>, more?: (m: Tidepool) => Promise<void>): Promise<string> => {
    const url = fresh(name);
    const seed = await openMemory({ url, space: 'p', embedder: 'none', warn: () => {} });
    await seed.record({ turns });
    await more?.(seed);
    await seed.close();
    return url;
  };

  /**
   * Runs `fn` on a memory of space `p` over a pool of `poolSize`, with each statement the pool runs outside a
   * transaction shown to `watch` as it starts; what `watch` returns is called when it ends.
   */
  const withWatchedPool = async <T>(url: string, poolSize: number, watch: (text: string) => (() => void) | undefined, fn: (m: Tidepool, db: PgDriver) => Promise<T>): Promise<T> => {
    const m = await openMemory({ url, space: 'p', embedder: 'none', config: { postgres: { poolSize } }, warn: () => {} });
    try {
      const db = (appContextOf(m).store as SqlStore).db as PgDriver;
      const query = db.pool.query.bind(db.pool) as (...a: unknown[]) => Promise<unknown>;
      (db.pool as { query: unknown }).query = async (...a: unknown[]) => {
        const done = watch(typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: string }).text));
        try {
          return await query(...a);
        } finally {
          done?.();
        }
      };
      return await fn(m, db);
    } finally {
      await m.close();
    }
  };

  describe('PostgreSQL pool', () => {
    it('has the configured size, and answers reads while a write transaction holds a connection', { timeout: 60_000 }, async () => {
      const url = fresh('pool');
      const m = await openMemory({ url: url, space: 'p', embedder: 'none', config: { postgres: { poolSize: 2 } }, warn: () => {} });
      try {
        const store = appContextOf(m).store as SqlStore;
        expect((store.db as PgDriver).pool.options.max).toBe(2);
        await m.record({ turns: [{ role: 'user', content: 'committed before' }] });
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        let inserted!: () => void;
        const wrote = new Promise<void>((r) => (inserted = r));
        const writing = store.transaction(async (tx) => {
          await tx.spaces.ensure('p', 1);
          await tx.forSpace('p').episodes.insertMany([
            { kind: 'turn', role: 'user', speaker: null, content: 'not yet committed', session: null, tool: null, ok: null,
              source: 'test', ref: null, meta: {}, durable: false, occurredAt: 2, createdAt: 2, embedPending: false,
              index: { body: 'not yet committed', extra: '', raw: '' } },
          ]);
          inserted();
          await gate;
        });
        await wrote;
        // The transaction holds one of the two connections and waits: the read takes the other, and sees only
        // what was committed.
        expect(await store.forSpace('p').episodes.count()).toBe(1);
        expect((await m.recall({ query: 'committed', layers: ['episode'] }, { sideEffects: false })).length).toBe(1);
        release();
        await writing;
        expect(await store.forSpace('p').episodes.count()).toBe(2);
      } finally {
        await m.close();
      }
    });

    it('runs at most two statements of one recall at once, with the answers of a serial pool', { timeout: 60_000 }, async () => {
      // A two-word query asks the substring search beside the word search, "yesterday" a window's search beside the
      // whole memory's, and 2,500 rows holding "kayak" rank in halves: five statements at once without the share.
      const now = Date.now();
      const turns = Array.from({ length: 2500 }, (_, i) => ({
        role: 'user' as const, content: `kayak trip ${i} along the ${i % 7 === 0 ? 'harbour' : 'river'}`, at: now - i * 90_000,
      }));
      const ask = { query: 'kayak harbour yesterday', layers: ['episode' as const] };
      const url = await seeded('share', turns);
      const answers: string[][] = [];
      for (const poolSize of [10, 1]) {
        let running = 0;
        let most = 0;
        const watch = () => {
          running++;
          most = Math.max(most, running);
          return () => void running--;
        };
        await withWatchedPool(url, poolSize, watch, async (m, db) => {
          expect(appContextOf(m).store.pooled).toBe(poolSize > 1);
          await appContextOf(m).store.transaction(async (tx) => expect(tx.pooled).toBe(false));
          answers.push((await m.recall(ask, { sideEffects: false })).map((h) => h.id));
          if (poolSize === 10) {
            expect(most).toBe(2);
            // Two recalls at once each have their own two.
            most = 0;
            await Promise.all([m.recall(ask, { sideEffects: false }), m.recall(ask, { sideEffects: false })]);
            expect(most).toBeGreaterThan(2);
            expect(db.pool.totalCount).toBeLessThanOrEqual(4);
          }
        });
      }
      expect(answers[0]!.length).toBeGreaterThan(0);
      expect(answers[0]).toEqual(answers[1]);
    });

    it('searches the layers of one recall at once on a pool, with the answers of a serial one', { timeout: 60_000 }, async () => {
      // One after another, a recall of knowledge, narratives and episodes waited for each layer's statements in turn.
      const now = Date.now();
      const turns = Array.from({ length: 400 }, (_, i) => ({
        role: 'user' as const, content: `kayak trip ${i} along the ${i % 5 === 0 ? 'harbour' : 'river'}`, session: `s${i % 9}`, at: now - i * 90_000,
      }));
      const url = await seeded('layers', turns, async (seed) => {
        for (let i = 0; i < 8; i++) await seed.remember({ text: `the kayak ${i} is kept at the ${i % 3 === 0 ? 'harbour' : 'boathouse'}` });
      });
      const ask = { query: 'where is the kayak kept near the harbour?', limit: 20 };
      const answers: string[][] = [];
      for (const poolSize of [10, 1]) {
        // The table each running statement names first: two layers' indexes (their searches) in use at the same time.
        // (Their hits' rows are read during each layer's searches since 5 December, beside its session context,
        // `reads the word hits' rows…` below: whether two layers' row reads meet is a matter of timing.)
        const running = new Map<number, string>();
        let next = 0;
        const together = { searches: false, rows: false };
        const watch = (text: string) => {
          const table = /\b(episodes|knowledge|narratives)(_fts)?\b/.exec(text)?.[0];
          if (table === undefined) return undefined;
          const id = next++;
          const index = table.endsWith('_fts');
          if ([...running.values()].some((t) => t !== table && t.endsWith('_fts') === index)) together[index ? 'searches' : 'rows'] = true;
          running.set(id, table);
          return () => void running.delete(id);
        };
        const hits = await withWatchedPool(url, poolSize, watch, (m) => m.recall(ask, { sideEffects: false }));
        answers.push(hits.map((h) => `${h.id} ${h.score}`));
        expect(new Set(hits.map((h) => h.layer))).toEqual(new Set(['episode', 'knowledge']));
        expect(together.searches).toBe(poolSize > 1);
        if (poolSize === 1) expect(together.rows).toBe(false);
      }
      expect(answers[0]).toEqual(answers[1]);
    });

    it('reads the word hits\' rows while the session context is read on a pool, with the answers of a serial one', { timeout: 60_000 }, async () => {
      // The rows of the hits were read after the session context, the last round trip of a keyword recall.
      const now = Date.now();
      const turns = Array.from({ length: 300 }, (_, i) => ({
        role: 'user' as const, content: `lantern ${i} by the ${i % 4 === 0 ? 'jetty' : 'mill'}`, session: `s${i % 7}`, at: now - i * 60_000,
      }));
      const url = await seeded('early_rows', turns);
      const answers: string[][] = [];
      for (const poolSize of [10, 1]) {
        // The statements running of each kind: the session context's and the hits' rows'.
        const running = { context: 0, rows: 0 };
        let rowsBeside = false;
        const watch = (text: string) => {
          const kind = text.includes('json_build_array(id, session, occurred_at, speaker)')
            ? 'context'
            : text.startsWith('SELECT id, kind, role, speaker, content') ? 'rows' : undefined;
          if (kind === undefined) return undefined;
          running[kind]++;
          if (running.context > 0 && running.rows > 0) rowsBeside = true;
          return () => void running[kind]--;
        };
        const hits = await withWatchedPool(url, poolSize, watch, (m) => m.recall({ query: 'lantern jetty', limit: 15, layers: ['episode'] }, { sideEffects: false }));
        expect(hits).toHaveLength(15);
        answers.push(hits.map((h) => `${h.id} ${h.score} ${h.text}`));
        expect(rowsBeside).toBe(poolSize > 1);
      }
      expect(answers[0]).toEqual(answers[1]);
    });

    it('runs the work after a commit on the connection the write gave back: a process that writes once opens one', { timeout: 60_000 }, async () => {
      // Started before the write's client was released, the GIN merge and the statistics' fold opened a second
      // connection (a new backend, ~12 ms and its cold caches) in every CLI `record` or `remember`.
      const m = await openMemory({ url: fresh('after_commit'), space: 'p', embedder: 'none', warn: () => {} });
      try {
        const db = (appContextOf(m).store as SqlStore).db as PgDriver;
        const opened = db.pool.totalCount;
        await m.record({ role: 'user', content: 'we moved the standup to ten', session: 's' });
        await db.settled();
        expect(db.pool.totalCount).toBe(Math.max(opened, 1));
        await m.remember({ text: 'The standup is at ten' });
        await db.settled();
        expect(db.pool.totalCount).toBe(Math.max(opened, 1));
        expect((await m.recall({ query: 'standup' })).length).toBeGreaterThan(0);
      } finally {
        await m.close();
      }
    });

    it('keeps an unused connection for postgres.idleSeconds, and closes it after that', { timeout: 60_000 }, async () => {
      // The same server process answers after a pause shorter than idleSeconds; after a longer one, a new process.
      // pg's own default (10 s) closed connections between an agent's prompts, so the next recall opened new ones.
      const pidAfterPause = async (idleSeconds: number, pauseMs: number) => {
        const m = await openMemory({ url: fresh(`idle_${idleSeconds}`), space: 'p', embedder: 'none', config: { postgres: { poolSize: 1, idleSeconds, keepConnections: 0 } }, warn: () => {} });
        try {
          const db = (appContextOf(m).store as SqlStore).db as PgDriver;
          expect(db.pool.options.idleTimeoutMillis).toBe(idleSeconds * 1000);
          const pid = async () => (await db.get<{ p: number }>('SELECT pg_backend_pid() AS p'))!.p;
          const before = await pid();
          await new Promise((r) => setTimeout(r, pauseMs));
          return { before, after: await pid() };
        } finally {
          await m.close();
        }
      };
      const kept = await pidAfterPause(30, 1500);
      expect(kept.after).toBe(kept.before);
      const closed = await pidAfterPause(1, 1500);
      expect(closed.after).not.toBe(closed.before);
    });

    it('keeps postgres.keepConnections connections past idleSeconds and closes the others', { timeout: 60_000 }, async () => {
      // An agent's prompts come minutes apart: with every connection closed after idleSeconds, each first recall opened
      // new server processes and read the tables into them again.
      const afterPause = async (keepConnections: number) => {
        const config = { postgres: { poolSize: 3, idleSeconds: 1, keepConnections } };
        const m = await openMemory({ url: fresh(`keep_${keepConnections}`), space: 'p', embedder: 'none', config, warn: () => {} });
        try {
          const db = (appContextOf(m).store as SqlStore).db as PgDriver;
          // Three statements at once: three connections, three server processes.
          const pids = await Promise.all([0, 1, 2].map(async () => (await db.get<{ p: number }>('SELECT pg_backend_pid() AS p, pg_sleep(0.2)'))!.p));
          expect(new Set(pids).size).toBe(3);
          await new Promise((r) => setTimeout(r, 2500));
          const left = db.pool.totalCount;
          const after = left > 0 ? (await db.get<{ p: number }>('SELECT pg_backend_pid() AS p'))!.p : undefined;
          return { left, kept: after !== undefined && pids.includes(after) };
        } finally {
          await m.close();
        }
      };
      expect(await afterPause(2)).toEqual({ left: 2, kept: true });
      expect(await afterPause(0)).toEqual({ left: 0, kept: false });
    });

    it('pipelines its connections unless postgres.pipeline is off, and says so to a transaction', async () => {
      for (const pipeline of [true, false]) {
        const m = await openMemory({ url: fresh(`pipeline_${pipeline}`), space: 'p', embedder: 'none', config: { postgres: { pipeline } }, warn: () => {} });
        try {
          const db = (appContextOf(m).store as SqlStore).db as PgDriver;
          expect(db.pool.options.pipeline).toBe(pipeline);
          const tx = await db.transaction(async (t) => t as { readonly serial?: boolean; readonly pipelined?: boolean });
          expect({ serial: tx.serial, pipelined: tx.pipelined }).toEqual({ serial: true, pipelined: pipeline });
          await m.record({ turns: Array.from({ length: 600 }, (_, i) => ({ role: 'user' as const, content: `pipelined kayak ${i}` })) });
          expect((await m.recall({ query: 'kayak', layers: ['episode'], limit: 5 }, { sideEffects: false })).length).toBe(5);
        } finally {
          await m.close();
        }
      }
    });

    it('sends a write\'s BEGIN, space row and sessions\' last turns together when the connection pipelines', async () => {
      for (const pipeline of [true, false]) {
        const m = await openMemory({ url: fresh(`begin_${pipeline}`), space: 'p', embedder: 'none', config: { postgres: { pipeline } }, warn: () => {} });
        try {
          await m.record({ role: 'user', content: 'the first canoe', session: 's1' });
          // Every statement of the next write, in the order sent.
          const seen = await pgStatementsAsked(() => m.record({ role: 'user', content: 'a second canoe', session: 's1' }));
          const at = (start: string) => seen.find((s) => s.text.startsWith(start))!;
          const begin = at('BEGIN');
          const space = at('INSERT INTO spaces');
          const last = seen.find((s) => s.text.includes('json_array_elements_text'))!;
          // Pipelined: the three are asked before BEGIN answers; else each after the one before it answered.
          expect([space.asked < begin.answered, last.asked < begin.answered]).toEqual([pipeline, pipeline]);
          expect(seen.indexOf(begin)).toBeLessThan(seen.indexOf(space));
          // The turn before is the new one's context either way: both are found by a word only the first holds.
          expect(await appContextOf(m).store.forSpace('p').search.lexical('episode', ['first'], { limit: 5 })).toHaveLength(2);
        } finally {
          await m.close();
        }
      }
    });

    it('keeps a search\'s fixed statements prepared on its connection, and none when postgres.preparedStatements is off', { timeout: 60_000 }, async () => {
      for (const preparedStatements of [true, false]) {
        const url = fresh(`prepared_${preparedStatements}`);
        const config = { postgres: { poolSize: 1, preparedStatements } };
        const m = await openMemory({ url, space: 'p', embedder: 'none', config, warn: () => {} });
        try {
          await m.record({ turns: [{ role: 'user', content: 'the harbour kayak' }, { role: 'user', content: 'a kayak again' }] });
          expect((await m.recall({ query: 'kayak harbour', layers: ['episode'] }, { sideEffects: false })).length).toBeGreaterThan(0);
          // One connection: the view lists what this very session keeps prepared.
          const db = (appContextOf(m).store as SqlStore).db as PgDriver;
          const kept = await db.all<{ n: number }>("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'tp%'");
          if (preparedStatements) expect(kept[0]!.n).toBeGreaterThan(0);
          else expect(kept[0]!.n).toBe(0);
          // The write path's fixed statements too: after more batches than PostgreSQL plans one by one (5), the
          // batch inserts (the rows with their index entries, the statistics' delta, the space) run a plan made once.
          for (let b = 0; b < 7; b++) await m.record({ turns: [{ role: 'user', content: `batch ${b} of kayaks` }, { role: 'user', content: 'more' }] });
          const inserts = await db.all<{ s: string; generic: number }>(
            `SELECT left(statement, 40) AS s, generic_plans::int AS generic FROM pg_prepared_statements
             WHERE name LIKE 'tp%' AND statement ~ '^(WITH u AS MATERIALIZED|INSERT INTO (lexical_deltas|spaces) )' ORDER BY 1`,
          );
          if (preparedStatements) {
            expect(inserts.map((r) => r.s.replace(/\s+/g, ' ').split(' (')[0])).toEqual([
              'INSERT INTO lexical_deltas', 'INSERT INTO spaces', 'WITH u AS MATERIALIZED',
            ]);
            for (const r of inserts) expect(r.generic).toBeGreaterThan(0);
          } else expect(inserts).toEqual([]);
        } finally {
          await m.close();
        }
      }
    });

    it('keeps reads on one connection with postgres.parallelReads off, as the CLI does for every command but serve', { timeout: 60_000 }, async () => {
      const { statementsTogether, runsTogether } = await import('../src/store/sql-driver.js');
      const { openFromOptions } = await import('../src/boot/cli-main.js');
      const pidsTogether = async (db: PgDriver) =>
        new Set(
          await statementsTogether(db, [0, 1, 2].map(() => async () => (await db.get<{ p: number }>('SELECT pg_backend_pid() AS p, pg_sleep(0.1)'))!.p)),
        ).size;
      const url = fresh('parallel_reads');
      const turns = Array.from({ length: 40 }, (_, i) => ({ role: 'user' as const, content: `kayak harbour trip ${i}`, session: 's' }));
      for (const parallelReads of [true, false]) {
        const m = await openMemory({ url, space: 'p', embedder: 'none', config: { postgres: { parallelReads } }, warn: () => {} });
        try {
          const db = (appContextOf(m).store as SqlStore).db as PgDriver;
          expect(runsTogether(db)).toBe(parallelReads);
          // Three statements run together: on two connections at once (a recall runs at most two), or on one.
          expect(await pidsTogether(db)).toBe(parallelReads ? 2 : 1);
          await m.record({ turns });
          expect((await m.recall({ query: 'kayak harbour' }, { sideEffects: false })).length).toBeGreaterThan(0);
          // The write's transaction and the work after its commit may take a second connection; reads never add one.
          if (!parallelReads) expect(db.pool.totalCount).toBeLessThanOrEqual(2);
        } finally {
          await m.close();
        }
      }
      // The CLI: a one-shot command's memory reads on one connection, `serve`'s on the pool.
      for (const serving of [false, true]) {
        const m = await openFromOptions({ db: url, space: 'p', serving });
        try {
          expect(runsTogether((appContextOf(m).store as SqlStore).db)).toBe(serving);
        } finally {
          await m.close();
        }
      }
    });
  });
}
