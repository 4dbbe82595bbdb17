/**
 * The data lifecycle: a lived-in space is exported with the CLI, erased over HTTP, restored with the CLI and exported
 * again, line for line the same; and every released schema's fixture opens with today's code, migrated, data intact.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NOT_RESTORED } from '../src/app/export-space.js';
import { createToken } from '../src/app/tokens.js';
import { appContextOf, type Tidepool } from '../src/app/tidepool.js';
import { openMemory } from '../src/boot/open-memory.js';
import { startHttpServer } from '../src/boot/serve.js';
import { SPACE_TABLES } from '../src/store/sql/row-sql.js';
import { SQLITE_MIGRATIONS } from '../src/store/sqlite/sqlite-migrations.js';
import { seedFullSpace } from './helpers/full-space.js';
import { runCli } from './helpers/run-cli.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';

const SPACE = 'lived-in';
const FIXTURE_DIR = join(import.meta.dirname, 'fixtures', 'schema');

let mem: TempMemory | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await mem?.cleanup();
  mem = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(d);
  return d;
}

async function lines(m: Tidepool): Promise<string[]> {
  const out: string[] = [];
  for await (const l of m.export()) out.push(l);
  return out;
}

describe('export → erase → restore → export', () => {
  it('gives back every line of a lived-in space: exported and restored with the CLI, erased over HTTP', async () => {
    mem = await tempMemory();
    const life = mem.memory.withSpace(SPACE);
    const counts = await seedFullSpace(life, mem.clock, tempDir('tidepool-life-ws-'));
    // Every table of a space holds rows, so the round trip covers all of them (API tokens are never exported).
    expect(Object.keys(counts).sort()).toEqual(SPACE_TABLES.filter((t) => !t.credentials).map((t) => t.name).sort());
    const archived = (await appContextOf(life).store.forSpace(SPACE).episodes.timeline({ limit: 1000, offset: 0, order: 'asc', includeArchived: true })).items.filter((e) => e.archivedAt !== null);
    expect(archived.length).toBeGreaterThan(10);
    await mem.memory.withSpace('bystander').remember({ text: 'The bystander space keeps this note' });
    const bystander = await lines(mem.memory.withSpace('bystander'));
    const { token } = await createToken(appContextOf(life), { space: SPACE, scope: 'admin' });
    const recalled = (await life.recall({ query: 'staging database port' })).map((h) => h.id);
    expect(recalled.length).toBeGreaterThan(0);

    const cli = ['--db', mem.path, '--space', SPACE];
    const first = await runCli(['export', ...cli]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe(`${(await lines(life)).join('\n')}\n`);

    const server = await startHttpServer(mem.memory, { host: '0.0.0.0', port: 0 });
    try {
      const res = await fetch(`http://127.0.0.1:${new URL(server.url).port}/v1/spaces/${SPACE}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    } finally {
      await server.close();
    }
    expect(await lines(life)).toEqual([JSON.stringify({ format: 'tidepool-export/1', space: SPACE })]);
    expect(await lines(mem.memory.withSpace('bystander'))).toEqual(bystander);

    const file = join(tempDir('tidepool-life-export-'), 'export.jsonl');
    writeFileSync(file, first.stdout);
    const restored = await runCli(['restore', file, ...cli]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain(`into space ${SPACE}`);
    const second = await runCli(['export', ...cli]);
    expect(second.code, second.stderr).toBe(0);
    // Nothing needs normalising: restore keeps ids, times, token stamps and vectors exactly.
    expect(second.stdout).toBe(first.stdout);

    // The restored space works: search indexes were rebuilt, the archive and the other space are as they were.
    expect((await life.recall({ query: 'staging database port' })).map((h) => h.id).sort()).toEqual([...recalled].sort());
    const again = (await appContextOf(life).store.forSpace(SPACE).episodes.timeline({ limit: 1000, offset: 0, order: 'asc', includeArchived: true })).items.filter((e) => e.archivedAt !== null);
    expect(again.map((e) => e.id)).toEqual(archived.map((e) => e.id));
    expect(await lines(mem.memory.withSpace('bystander'))).toEqual(bystander);
  }, 120_000);
});

/*
 * Schema migrations from earlier versions. Every released schema keeps its fixture: test/fixtures/schema/v<N>.db
 * and v<N>.expected.jsonl, built once by make-fixture.mts at version N and never rebuilt. When a migration is added,
 * build the new version's fixture beside the old ones; this test then migrates every older fixture to the newest
 * schema and checks that each row it had is still there with the values it had (new columns may be added).
 */
describe('schema migrations from earlier versions', () => {
  const fixtures = readdirSync(FIXTURE_DIR).filter((f) => /^v\d+\.db$/.test(f));
  const newest = SQLITE_MIGRATIONS.at(-1)!.version;

  it('keeps a fixture of schema version 1 and of every later one', () => {
    const versions = fixtures.map((f) => Number(/\d+/.exec(f)![0]));
    expect(versions).toContain(1);
    expect(Math.max(...versions)).toBeLessThanOrEqual(newest);
    for (const f of fixtures) expect(readdirSync(FIXTURE_DIR)).toContain(f.replace(/\.db$/, '.expected.jsonl'));
  });

  it.each(fixtures)('%s opens with the current code, reaches the newest schema and keeps every row', async (f) => {
    const dir = tempDir('tidepool-schema-');
    const path = join(dir, f);
    copyFileSync(join(FIXTURE_DIR, f), path);
    const memory = await openMemory({ path, embedder: 'none', warn: () => undefined });
    try {
      const info = await appContextOf(memory).store.info();
      expect(info.schemaVersion).toBe(newest);
      expect(info.integrity).toBe('ok');

      const expected = readFileSync(join(FIXTURE_DIR, f.replace(/\.db$/, '.expected.jsonl')), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { format?: string; space: string; table?: string; row?: Record<string, unknown> });
      const spaces = expected.filter((x) => x.format !== undefined).map((x) => x.space);
      expect(spaces.length).toBeGreaterThanOrEqual(2);
      for (const space of spaces) {
        const actual = (await lines(memory.withSpace(space))).map((l) => JSON.parse(l) as { table?: string; row?: Record<string, unknown> });
        // Exports of schema 1 carried API tokens; an export no longer does (issue 22).
        const want = expected.filter(
          (x) => x.table !== undefined && !NOT_RESTORED.includes(x.table) && (x.table === 'spaces' ? x.row!.id === space : x.row!.space === space),
        );
        expect(actual.length - 1, `rows of ${space}`).toBe(want.length);
        // Each expected row, compared on the columns it had then: a later migration may add columns, not change values.
        const have = new Map<string, Set<string>>();
        for (const w of want) {
          const cols = Object.keys(w.row!);
          const key = `${w.table}|${cols.join(',')}`;
          if (!have.has(key)) have.set(key, new Set(actual.filter((a) => a.table === w.table).map((a) => JSON.stringify(cols.map((c) => a.row![c])))));
          expect(have.get(key)!.has(JSON.stringify(cols.map((c) => w.row![c]))), `${space} ${w.table} row ${JSON.stringify(w.row).slice(0, 160)}`).toBe(true);
        }
      }

      // The search indexes came through: each live knowledge entry of the fixture is found by its own text.
      const live = expected.filter((x) => x.table === 'knowledge' && ['provisional', 'reliable'].includes(String(x.row!.status)));
      expect(live.length).toBeGreaterThan(0);
      for (const k of live) {
        const hits = await memory.withSpace(k.row!.space as string).recall({ query: String(k.row!.content), layers: ['knowledge'], limit: 50 });
        expect(hits.map((h) => h.text), String(k.row!.content)).toContain(k.row!.content);
      }
      // And the migrated file takes new writes.
      const fixture = memory.withSpace(spaces[0]!);
      expect(await fixture.remember({ text: 'Written after the migration to the newest schema' })).toMatchObject({ kind: 'created' });
      expect((await fixture.recall({ query: 'written after the migration' }))[0]?.text).toBe('Written after the migration to the newest schema');
    } finally {
      await memory.close();
    }
  }, 120_000);
});
