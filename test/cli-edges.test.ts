/**
 * The rough edges a new user hits, through the real binary on real SQLite files (issue 23): standard and Tideline
 * variables, a mistyped --db, `know`, directory and --from imports, inclusive --to, journal bodies, XDG paths.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

let dir: string;
let db: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tidepool-edges-'));
  db = join(dir, 'm.db');
  expect((await runCli(['init', '--db', db])).code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tp = (...args: string[]) => runCli([...args, '--db', db]);
const turn = (session: string, uuid: string, text: string) =>
  JSON.stringify({ type: 'user', sessionId: session, uuid, timestamp: '2026-11-30T10:00:00Z', message: { role: 'user', content: text } });

describe('--db that does not exist', () => {
  it('is an error naming the path for a command that reads, and creates nothing', async () => {
    const typo = join(dir, 'memroy.db');
    const r = await runCli(['recall', 'anything', '--db', typo]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`no memory database at ${typo}`);
    expect(existsSync(typo)).toBe(false);
  });

  it('is created by init, by --create, and (with a notice) by a command that writes', async () => {
    const a = join(dir, 'new-a.db');
    expect((await runCli(['timeline', '--db', a, '--create', '--json'])).code).toBe(0);
    expect(existsSync(a)).toBe(true);
    const b = join(dir, 'new-b.db');
    const w = await runCli(['remember', 'the staging port is 6543', '--db', b]);
    expect(w.code).toBe(0);
    expect(w.stderr).toContain(`creating a new memory database at ${b}`);
  });
});

describe('know', () => {
  it('lists and searches reliable knowledge with snake_case fields and k ids', async () => {
    expect((await tp('remember', 'Ana prefers green tea in the afternoon', '--key', 'ana.tea')).code).toBe(0);
    const all = JSON.parse((await tp('know', '--json')).stdout) as { entries: Array<Record<string, unknown>> };
    expect(all.entries.map((e) => e.content)).toContain('Ana prefers green tea in the afternoon');
    const hit = JSON.parse((await tp('know', 'green tea', '--kinds', 'fact', '--json')).stdout) as { entries: Array<Record<string, unknown>> };
    expect(hit.entries[0]).toMatchObject({ id: expect.stringMatching(/^k\d+$/), key: 'ana.tea', kind: 'fact' });
    expect(hit.entries[0]).toHaveProperty('created_at');
    expect(hit.entries[0]).not.toHaveProperty('createdAt');
    const text = await tp('know', 'green tea');
    expect(text.stdout).toMatch(/^k\d+\s+fact\s+/);
    expect((await tp('know', '--kinds', 'gossip')).code).toBe(2);
  });
});

describe('timeline --to a day', () => {
  it('includes that whole day (a date without a time is its end)', async () => {
    expect((await tp('record', 'the 4th of March, mid-morning', '--at', '2026-03-04T10:00:00Z', '--session', 'to-day')).code).toBe(0);
    const on = JSON.parse((await tp('timeline', '--session', 'to-day', '--to', '2026-03-04', '--json')).stdout) as { total: number };
    expect(on.total).toBe(1);
    const before = JSON.parse((await tp('timeline', '--session', 'to-day', '--to', '2026-03-03', '--json')).stdout) as { total: number };
    expect(before.total).toBe(0);
    const exact = JSON.parse((await tp('timeline', '--session', 'to-day', '--to', '2026-03-04T09:59:00Z', '--json')).stdout) as { total: number };
    expect(exact.total).toBe(0);
  });
});

describe('import of a directory', () => {
  it('imports every transcript under it, recursively, and --from reads the tool\'s own folder', async () => {
    const tree = join(dir, 'projects');
    mkdirSync(join(tree, 'proj-a'), { recursive: true });
    mkdirSync(join(tree, 'proj-b', 'nested'), { recursive: true });
    writeFileSync(join(tree, 'proj-a', 's1.jsonl'), `${turn('s1', 'u1', 'we chose postgres for billing')}\n`);
    writeFileSync(join(tree, 'proj-b', 'nested', 's2.jsonl'), `${turn('s2', 'u2', 'the invoice job runs at midnight')}\n`);
    writeFileSync(join(tree, 'proj-b', 'notes.txt'), 'not a transcript');
    const r = await tp('import', tree, '--json');
    expect(r.stderr).not.toContain('EISDIR');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ imported: 2, failed: 0 });

    const home = join(dir, 'home');
    mkdirSync(join(home, '.claude', 'projects', 'p'), { recursive: true });
    writeFileSync(join(home, '.claude', 'projects', 'p', 's3.jsonl'), `${turn('s3', 'u3', 'the cache warms at six')}\n`);
    const f = await runCli(['import', '--from', 'claude-code', '--db', db, '--json'], { env: { HOME: home } });
    expect(f.code).toBe(0);
    expect(JSON.parse(f.stdout)).toMatchObject({ imported: 1 });
    const none = await tp('import');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--from claude-code');
  });
});

describe('journal add with list items', () => {
  it('takes "- bullet" arguments as the body, one line each', async () => {
    const root = join(dir, 'ws');
    mkdirSync(root);
    const r = await tp('journal', 'add', 'shipped the fix', '- bullet one', '- bullet two', '--root', root, '--date', '2026-11-30', '--time', '09:00');
    expect(r.code, r.stderr).toBe(0);
    const day = readdirSync(join(root, 'memory', 'archive', 'hot')).find((f) => f.startsWith('2026-11-30'))!;
    expect(readFileSync(join(root, 'memory', 'archive', 'hot', day), 'utf8')).toContain('## 【09:00 shipped the fix】\n- bullet one\n- bullet two\n');
  });
});

describe('environment variables and paths', () => {
  it('names OPENAI_API_KEY when a hosted model has no key', async () => {
    const r = await runCli(['sleep', '--model', 'openai:gpt-4o-mini', '--force', '--db', db], { env: { OPENAI_API_KEY: '', TIDEPOOL_OPENAI_API_KEY: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('set OPENAI_API_KEY');
  });

  it('reads Tideline\'s MEMORY_MCP_DB as the database', async () => {
    const r = await runCli(['doctor', '--json'], { env: { MEMORY_MCP_DB: db, TIDEPOOL_DB: '' } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ db });
  });

  it('keeps the default memory under XDG_DATA_HOME, or the old ~/.tidepool while it exists, and doctor says which', async () => {
    const home = join(dir, 'xdg-home');
    mkdirSync(home);
    const xdg = { HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'cfg'), TIDEPOOL_DB: '', TIDEPOOL_CONFIG: '' };
    expect((await runCli(['remember', 'xdg memory'], { env: xdg })).code).toBe(0);
    expect(existsSync(join(home, 'data', 'tidepool', 'memory.db'))).toBe(true);
    const d = JSON.parse((await runCli(['doctor', '--json'], { env: xdg })).stdout) as { db: string; paths: Record<string, unknown> };
    expect(d.db).toBe(join(home, 'data', 'tidepool', 'memory.db'));
    expect(d.paths).toMatchObject({ default_db_source: 'xdg', config: { path: join(home, 'cfg', 'tidepool', 'config.json'), source: 'xdg' } });

    const old = join(dir, 'old-home');
    mkdirSync(join(old, '.tidepool'), { recursive: true });
    expect((await runCli(['remember', 'an old memory', '--db', join(old, '.tidepool', 'memory.db')])).code).toBe(0);
    const legacy = { HOME: old, TIDEPOOL_DB: '', TIDEPOOL_CONFIG: '' };
    const o = await runCli(['doctor'], { env: legacy });
    expect(o.stdout).toContain(join(old, '.tidepool', 'memory.db'));
    expect(o.stdout).toContain('old location ~/.tidepool');
    expect(JSON.parse((await runCli(['recall', 'old memory', '--json'], { env: legacy })).stdout).results).toHaveLength(1);
  });
});

describe('bench retrieval --db', () => {
  it('refuses what is not a postgres:// URL, and --cv with it, before loading anything', async () => {
    const r = await runCli(['bench', 'retrieval', '--db', join(dir, 'm.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--db must be a postgres:// URL (SQLite is always measured)');
    const cv = await runCli(['bench', 'retrieval', '--cv', '--db', 'postgres://127.0.0.1:1/x']);
    expect(cv.code).toBe(2);
    expect(cv.stderr).toContain('--cv runs on SQLite only');
  });
});
