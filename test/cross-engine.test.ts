/** Moving a memory between engines: SQLite → PGlite (→ PostgreSQL) → SQLite exports are identical, line for line. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appContextOf, Tidepool } from '../src/app/tidepool.js';
import { openMemory } from '../src/boot/open-memory.js';
import { FixedClock } from '../src/core/clock.js';
import { parseConfig } from '../src/core/config.js';
import type { Store } from '../src/store/port.js';
import { openPostgresStore } from '../src/store/postgres/open-postgres.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { openSqliteStore } from '../src/store/sqlite/open-sqlite.js';

const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);
const PG_URL = process.env.TIDEPOOL_TEST_PG_URL;

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const l of lines) out.push(l);
  return out;
}

/** A Tidepool over an already open store (openMemory routes only postgres:// URLs and SQLite paths). */
function memoryOver(store: Store, clock: FixedClock): Tidepool {
  return new Tidepool({ store, config: parseConfig({}), clock, embedder: undefined, space: 'default', warn: () => undefined }, () => store.close());
}

/** Fills a memory with every layer, Chinese text, floats, blobs and history. */
async function seed(m: Tidepool, clock: FixedClock): Promise<void> {
  await m.remember({ text: '用户爱喝咖啡', tags: ['偏好', 'coffee'] });
  await m.remember({ text: 'staging db on port 5432', key: 'staging.db.port' });
  clock.advance(60_000);
  await m.remember({ text: 'staging db on port 6543', key: 'staging.db.port' });
  await m.record({
    turns: [
      { role: 'user', content: 'Can you check the deploy logs? 日志在哪里', session: 's1' },
      { role: 'tool', content: 'exit 0', tool: 'bash', ok: true, session: 's1' },
    ],
  });
  await m.write({ gesture: '我终于修好了同步的竞态', tags: ['同步', 'sync'], entities_role: 'A=判断+执行; B=审查', importance: 4 });
  await m.writeProfile({ entity: 'Ana', content: 'prefers short answers' });
  clock.advance(1000);
  await m.writeProfile({ entity: 'Ana', content: '喜欢简短的回答' });
  await m.writeSelfConcept({ field: 'terrain', content: 'I work on sync engines' });
  await m.writeSnapshot({ content: 'calm, a bit tired' });
  await m.writeThread({ content: 'why does sync stall under load?' });
  await appContextOf(m).store.forSpace('default').vectors.put('knowledge', 1, 'test-model', Float32Array.from([0.1, -2.5, 3.4028234663852886e38, 1e-45]), T0);
  await m.recall({ query: '咖啡' });
  await m.recall({ query: 'staging port' });
}

/** Column lists of every table, as an engine reports them (the cross-engine export relies on equal lists). */
async function schemaOf(store: SqlStore): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of store.rows.tables()) {
    out[t] = store.engine === 'sqlite'
      ? (await store.db.all<{ name: string }>('SELECT name FROM pragma_table_info(?)', [t])).map((r) => r.name)
      : (await store.db.all<{ name: string }>(
          'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position',
          [t],
        )).map((r) => r.name);
  }
  return out;
}

function crossEngineSuite(label: string, openPg: () => Promise<SqlStore>): void {
  describe(`export/restore between SQLite and ${label}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidepool-cross-'));
    let pgStore: SqlStore;
    beforeAll(async () => {
      pgStore = await openPg();
    }, 180_000);
    afterAll(async () => {
      await pgStore?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('declares the same columns in the same order for every exported table', async () => {
      const lite = await openSqliteStore(':memory:');
      try {
        expect(await schemaOf(pgStore)).toEqual(await schemaOf(lite));
      } finally {
        await lite.close();
      }
    });

    it('moves a memory SQLite → PostgreSQL → SQLite with identical exports, searchable on arrival', async () => {
      const clock = new FixedClock(T0);
      const source = await openMemory({ path: join(dir, 'source.db'), clock, embedder: 'none', warn: () => undefined });
      await seed(source, clock);
      const original = await collect(source.export());
      await source.close();
      const tables = new Set(original.slice(1).map((l) => (JSON.parse(l) as { table: string }).table));
      for (const t of ['episodes', 'narratives', 'narrative_tags', 'knowledge', 'profiles', 'profile_history', 'self_concept', 'snapshots', 'threads', 'embeddings', 'attention_log']) {
        expect(tables).toContain(t);
      }

      const onPg = memoryOver(pgStore, clock);
      await onPg.restore(original);
      expect(await collect(onPg.export())).toEqual(original);
      expect((await onPg.recall({ query: '咖啡' }))[0]?.text).toBe('用户爱喝咖啡');
      expect((await onPg.recall({ query: 'staging port' })).map((h) => h.text)).toContain('staging db on port 6543');

      // New rows written on PostgreSQL after the restore get fresh ids and travel back too.
      clock.advance(3_600_000);
      const added = await onPg.remember({ text: 'written on postgres 在服务器上写的', key: 'pg.note' });
      expect(added.kind).toBe('created');
      await onPg.remember({ text: 'staging db on port 7000', key: 'staging.db.port' });
      const fromPg = await collect(onPg.export());
      expect(fromPg.length).toBeGreaterThan(original.length);

      const back = await openMemory({ path: join(dir, 'back.db'), clock, embedder: 'none', warn: () => undefined });
      try {
        await back.restore(fromPg);
        expect(await collect(back.export())).toEqual(fromPg);
        expect((await back.recall({ query: '服务器' }))[0]?.text).toBe('written on postgres 在服务器上写的');
      } finally {
        await back.close();
      }
    }, 120_000);
  });
}

crossEngineSuite('PGlite', () => openPostgresStore('pglite://memory'));

const schemas: string[] = [];
if (PG_URL) {
  afterAll(async () => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    await client.end();
  });
  crossEngineSuite('a PostgreSQL server', () => {
    const schema = `tp_test_cross_${process.pid}_${randomBytes(3).toString('hex')}`;
    schemas.push(schema);
    const u = new URL(PG_URL);
    u.searchParams.set('schema', schema);
    return openPostgresStore(u.href);
  });
} else {
  describe.skip('export/restore with a PostgreSQL server: skipped (set TIDEPOOL_TEST_PG_URL to run)', () => {
    it('moves a memory between SQLite and PostgreSQL', () => undefined);
  });
}
