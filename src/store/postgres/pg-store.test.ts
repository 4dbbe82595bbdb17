// The Store contract against a real PostgreSQL server (TIDEPOOL_TEST_PG_URL), plus multi-server behaviour.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runStoreContract } from '../contract.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';
import { openPostgresStore } from './open-postgres.js';

const base = process.env.TIDEPOOL_TEST_PG_URL;
const WRITER = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'pg-writer.mts');
const REASON = 'set TIDEPOOL_TEST_PG_URL=postgres://user@host:5432/db to run against a PostgreSQL server';

/** A fresh schema per run (and per purpose), so parallel or repeated runs never see each other's tables. */
function schemaUrl(purpose: string): { url: string; schema: string } {
  const schema = `tp_test_${purpose}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const u = new URL(base!);
  u.searchParams.set('schema', schema);
  return { url: u.href, schema };
}

const schemas: string[] = [];
function fresh(purpose: string): string {
  const s = schemaUrl(purpose);
  schemas.push(s.schema);
  return s.url;
}

/** Runs the fixture process `test/fixtures/pg-writer.mts` and resolves with its output. */
function runWriter(args: string[], opts: { killAfterOutput?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      // SIGKILL: the server dies mid-night without any chance to clean up.
      if (opts.killAfterOutput && out.includes('\n')) child.kill('SIGKILL');
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0 || (opts.killAfterOutput && signal === 'SIGKILL')) resolve(out);
      else reject(new Error(`pg-writer exited ${code ?? signal}: ${err}`));
    });
  });
}

if (!base) {
  describe.skip(`PostgreSQL server: skipped (${REASON})`, () => {
    it('runs the Store contract against PostgreSQL', () => undefined);
  });
} else {
  afterAll(async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    await client.end();
  });

  runStoreContract('PostgreSQL server', () => openPostgresStore(fresh('contract')));

  describe('PostgreSQL with several servers', () => {
    it('migrates once when two servers start at the same moment', async () => {
      const url = fresh('migrate');
      const stores = await Promise.all([openPostgresStore(url), openPostgresStore(url), openPostgresStore(url)]);
      try {
        const rows = await stores[0]!.db.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
        expect(rows.map((r) => r.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
        expect((await stores[1]!.info()).integrity).toBe('ok');
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });

    it('keeps every write of two processes writing at once', async () => {
      const url = fresh('writers');
      const probe = await openPostgresStore(url); // migrate first, so the writers race on rows, not on DDL
      try {
        const outs = await Promise.all([runWriter([url, 'write', 'shared', '200', 'p1']), runWriter([url, 'write', 'shared', '200', 'p2'])]);
        expect(outs).toEqual(['wrote 200\n', 'wrote 200\n']);
        expect(await probe.forSpace('shared').episodes.count()).toBe(400);
        const refs = await probe.db.all<{ n: number }>("SELECT COUNT(DISTINCT ref) AS n FROM episodes WHERE space = 'shared'");
        expect(refs[0]?.n).toBe(400);
        expect((await probe.forSpace('shared').search.lexical('episode', ['写入'], { limit: 500 })).length).toBe(400);
      } finally {
        await probe.close();
      }
    }, 120_000);

    it('lets exactly one of two servers claim a job, and another finish it after the first is killed', async () => {
      const url = fresh('jobs');
      const [a, b] = [await openPostgresStore(url), await openPostgresStore(url)];
      try {
        const key = { space: 's', job: 'script:clusters', day: '2025-03-01' };
        for (let round = 0; round < 5; round++) {
          const day = `2025-03-1${round}`;
          const won = await Promise.all([
            a.jobs.claim({ ...key, day, owner: 'a', ttlMs: 60_000, at: Date.now() }),
            b.jobs.claim({ ...key, day, owner: 'b', ttlMs: 60_000, at: Date.now() }),
          ]);
          expect(won.filter(Boolean)).toHaveLength(1);
        }
        const ttl = 1500;
        expect(await runWriter([url, 'claim', 's', 'sleep', '2025-03-01', 'doomed', String(ttl)], { killAfterOutput: true })).toBe('claimed true\n');
        expect(await b.jobs.claim({ ...key, job: 'sleep', owner: 'b', ttlMs: 60_000, at: Date.now() })).toBe(false);
        await new Promise((r) => setTimeout(r, ttl + 200));
        expect(await b.jobs.claim({ ...key, job: 'sleep', owner: 'b', ttlMs: 60_000, at: Date.now() })).toBe(true);
        expect(await b.jobs.finish({ ...key, job: 'sleep', owner: 'b', at: Date.now() })).toBe(true);
        expect(await a.jobs.claim({ ...key, job: 'sleep', owner: 'a', ttlMs: 60_000, at: Date.now() })).toBe(false);
      } finally {
        await a.close();
        await b.close();
      }
    }, 60_000);

    it('opens a current memory without locks while another process writes, and the same features as its first open', async () => {
      const url = fresh('quick');
      const schema = new URL(url).searchParams.get('schema')!;
      const first = await openPostgresStore(url);
      const firstInfo = await first.info();
      await first.close();
      // A write in progress in another session (an import's long transaction) holds its row locks on the lexical tables.
      const writer = new pg.Client({ connectionString: base, options: `-c search_path=${schema}` });
      await writer.connect();
      try {
        await writer.query('BEGIN');
        await writer.query("INSERT INTO episodes_fts (id, tsv, raw, len) VALUES (987654321, 'roof', '', 1)");
        const until = (ms: number) => new Promise<'waited'>((r) => setTimeout(() => r('waited'), ms).unref());
        // Before, every start took CREATE INDEX IF NOT EXISTS on these tables and waited for this COMMIT.
        const opened = openPostgresStore(url);
        const outcome = await Promise.race([opened.then(() => 'opened' as const), until(10_000)]);
        expect(outcome).toBe('opened');
        const second = await opened;
        try {
          const info = await second.info();
          expect({ ...info, integrity: 'ok' }).toEqual({ ...firstInfo, integrity: 'ok' });
        } finally {
          await second.close();
        }
      } finally {
        await writer.query('ROLLBACK');
        await writer.end();
      }
    });

    it('still migrates what is out of date: a lexical index without its pending list gets it back', async () => {
      const url = fresh('gin');
      const first = await openPostgresStore(url);
      const option = async (s: typeof first) =>
        (await s.db.get<{ o: string[] | null }>("SELECT reloptions AS o FROM pg_class WHERE oid = to_regclass('ix_episodes_fts')"))?.o;
      try {
        expect(await option(first)).toContain('fastupdate=on');
        await first.db.run('ALTER INDEX ix_episodes_fts SET (fastupdate = off)');
      } finally {
        await first.close();
      }
      const second = await openPostgresStore(url);
      try {
        expect(await option(second)).toContain('fastupdate=on');
      } finally {
        await second.close();
      }
    });

    it('keeps rows without raw text out of the trigram indexes, searches substrings through them, and rebuilds older ones so', async () => {
      const url = fresh('trgm');
      const partial = async (s: Awaited<ReturnType<typeof openPostgresStore>>) =>
        s.db.all<{ i: string; p: string | null }>(
          `SELECT c.relname AS i, pg_get_expr(x.indpred, x.indrelid) AS p FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
           WHERE c.relname LIKE 'ix\\_%\\_fts\\_trgm' AND c.relnamespace = current_schema()::regnamespace ORDER BY 1`,
        );
      const predicates = [
        { i: 'ix_episodes_fts_trgm', p: "(raw <> ''::text)" },
        { i: 'ix_knowledge_fts_trgm', p: "(raw <> ''::text)" },
        { i: 'ix_narratives_fts_trgm', p: "(raw <> ''::text)" },
      ];
      const first = await openPostgresStore(url);
      try {
        if (!(await first.info()).features.trigram) return; // no pg_trgm on this server: nothing to index
        expect(await partial(first)).toEqual(predicates);
        // A memory of the round before: whole trigram indexes, schema version 5.
        await first.db.run('DROP INDEX ix_episodes_fts_trgm');
        await first.db.run('CREATE INDEX ix_episodes_fts_trgm ON episodes_fts USING GIN (raw gin_trgm_ops)');
        await first.db.run('DELETE FROM schema_migrations WHERE version >= 6');
      } finally {
        await first.close();
      }
      const store = await openPostgresStore(url);
      try {
        expect(await partial(store)).toEqual(predicates);
        const { ids } = await store.forSpace('t').episodes.insertMany(
          // Most rows without raw text (as episodes are by default), so that the planner prefers the index.
          ['Deploy to STAGING at noon', ...Array.from({ length: 2000 }, (_, i) => `staging again, unindexed ${i}`)].map((content, i) => ({
            kind: 'turn', role: 'user', speaker: null, content, session: null, tool: null, ok: null, source: 'test', ref: null,
            meta: {}, durable: false, occurredAt: 1_700_000_000_000 + i, createdAt: 1_700_000_000_000, embedPending: false,
            index: { body: content, extra: '', raw: i === 0 ? content : '' },
          })),
        );
        expect(Number((await store.db.get<{ n: unknown }>("SELECT count(*) AS n FROM episodes_fts WHERE raw <> ''"))?.n)).toBe(1);
        await store.db.run('ANALYZE episodes, episodes_fts');
        // The statement substring search sends may use the partial index (it repeats the index's condition).
        const sent: Array<{ sql: string; params: readonly unknown[] }> = [];
        const all = store.db.all.bind(store.db);
        store.db.all = ((sql: string, params?: readonly never[], o?: never) => {
          sent.push({ sql, params: params ?? [] });
          return all(sql, params, o);
        }) as typeof store.db.all;
        expect((await store.forSpace('t').search.substring('episode', 'stag', { limit: 10 })).map((h) => h.id)).toEqual([ids[0]]);
        store.db.all = all;
        const q = sent.find((s) => s.sql.includes('ILIKE'))!;
        const plan = await store.db.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${q.sql}`, q.params as never[]);
        expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('ix_episodes_fts_trgm');
      } finally {
        await store.close();
      }
    });

    it('tries a missing optional extension again an hour after it failed, not at every start', async () => {
      const url = fresh('tried');
      const tried = async (s: Awaited<ReturnType<typeof openPostgresStore>>) =>
        (await s.db.get<{ d: string | null }>("SELECT obj_description(to_regclass('schema_migrations'), 'pg_class') AS d"))?.d;
      const first = await openPostgresStore(url);
      let at: number;
      try {
        const info = await first.info();
        if (info.features.trigram && info.features.pgvector) return; // both installed here: nothing is tried again
        const note = JSON.parse((await tried(first))!) as { at: number; notes: string[] };
        expect(note.notes.length).toBeGreaterThan(0);
        at = note.at - 2 * 3_600_000;
        // As if the failed attempt were two hours old.
        await first.db.run(`COMMENT ON TABLE schema_migrations IS '${JSON.stringify({ ...note, at })}'`);
      } finally {
        await first.close();
      }
      const second = await openPostgresStore(url);
      try {
        const note = JSON.parse((await tried(second))!) as { at: number };
        expect(note.at).toBeGreaterThan(at + 3_600_000);
      } finally {
        await second.close();
      }
      // Within the hour the next start reads the note and tries nothing: the note stays as it was.
      const before = await (async () => {
        const s = await openPostgresStore(url);
        try {
          return await tried(s);
        } finally {
          await s.close();
        }
      })();
      const third = await openPostgresStore(url);
      try {
        expect(await tried(third)).toBe(before);
      } finally {
        await third.close();
      }
    });

    it('opens for a role that may use the tables but does not own them, and finds the trigram indexes', async (ctx) => {
      const url = fresh('role');
      const schema = new URL(url).searchParams.get('schema')!;
      const first = await openPostgresStore(url);
      await first.close();
      const role = `tp_user_${process.pid}_${randomBytes(3).toString('hex')}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      try {
        try {
          await admin.query(`CREATE ROLE ${role} LOGIN`);
        } catch {
          ctx.skip(); // the test's connection may not create roles
        }
        await admin.query(`GRANT USAGE ON SCHEMA ${schema}, public TO ${role}`);
        await admin.query(`GRANT ALL ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
        await admin.query(`GRANT ALL ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`);
        // An old note on the missing extension: this start takes the locked path, which may not comment on the table.
        await admin.query(`COMMENT ON TABLE ${schema}.schema_migrations IS '{"at":0,"notes":[]}'`);
        const u = new URL(url);
        u.username = role;
        const store = await openPostgresStore(u.href);
        try {
          const info = await store.info();
          expect(info.integrity).toBe('ok');
          // The indexes exist: the start no longer tries to create them (as a non-owner it could not, and said none).
          expect(info.features.trigram).toBe(true);
          await store.db.run(`INSERT INTO spaces (id, created_at) VALUES ('r', 1) ON CONFLICT DO NOTHING`);
        } finally {
          await store.close();
        }
      } finally {
        await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
        await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
        await admin.end();
      }
    });

    it('reports the server version, extensions and health', async () => {
      const store = await openPostgresStore(fresh('info'));
      try {
        const info = await store.info();
        expect(info).toMatchObject({ engine: 'postgres', schemaVersion: POSTGRES_MIGRATIONS.at(-1)!.version, integrity: 'ok' });
        expect(info.location).not.toContain('schema=');
        expect(info.versions.postgres).toMatch(/^\d+/);
      } finally {
        await store.close();
      }
    });
  });
}
