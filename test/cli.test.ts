/** The `tidepool` binary as a user runs it: commands, --json shapes, stdin JSONL, errors on stderr with exit codes. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tidepool-cli-'));
  db = join(dir, 'm.db');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tp = (...args: string[]) => runCli([...args, '--db', db]);

describe('tidepool CLI', () => {
  it('remember → recall --json gives {results:[{id,layer,text,score,created_at}]}', async () => {
    expect((await tp('remember', '用户爱喝咖啡，每天早上一杯', '--json')).code).toBe(0);
    const r = await tp('recall', '咖啡', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { results: Array<Record<string, unknown>> };
    expect(doc.results[0]).toMatchObject({ id: 'k1', layer: 'knowledge', text: '用户爱喝咖啡，每天早上一杯' });
    expect(doc.results[0]).toHaveProperty('score');
    expect(doc.results[0]).toHaveProperty('created_at');
  });

  it('record reads JSONL turns from stdin', async () => {
    const jsonl = [
      { role: 'user', content: 'what is the plan for the migration?', session: 'cli-s' },
      { role: 'assistant', content: 'we move the billing tables first', session: 'cli-s' },
    ].map((t) => JSON.stringify(t)).join('\n');
    const r = await runCli(['record', '--db', db, '--json'], { stdin: jsonl });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ids: ['e2', 'e3'], skipped: 0 });
    const t = JSON.parse((await tp('timeline', '--session', 'cli-s', '--order', 'asc', '--json')).stdout) as { items: Array<{ text: string }> };
    expect(t.items.map((i) => i.text)).toEqual(['what is the plan for the migration?', 'we move the billing tables first']);
  });

  it('write takes the narrative fields as flags', async () => {
    const r = await tp('write', '--gesture', '我第一次在凌晨调通了同步', '--importance', '4', '--emotional', '3', '--unresolved', '2', '--tags', '调试,同步', '--entities-role', 'A=判断; B=审查', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'n1', tags: ['调试', '同步'] });
  });

  it('refuses a credential on stderr with a non-zero exit and no stack trace', async () => {
    const r = await tp('remember', 'my key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd');
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^tidepool: text contains an OpenAI API key/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const d = await tp('remember', 'my key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd', '--debug');
    expect(d.stderr).toMatch(/\n\s+at /);
  });

  it('bad flags are errors naming the flag', async () => {
    const r = await tp('recall', 'x', '--limit', 'many');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--limit must be an integer');
    const s = await tp('recall', 'x', '--space', 'ghost');
    expect(s.code).toBe(3);
    expect(s.stderr).toContain('space "ghost" does not exist');
  });

  it('export → restore into an empty database → export gives the same lines', async () => {
    const x = await tp('export');
    expect(x.code).toBe(0);
    const file = join(dir, 'x.jsonl');
    writeFileSync(file, x.stdout);
    const other = join(dir, 'r.db');
    expect((await runCli(['restore', file, '--db', other])).code).toBe(0);
    const y = await runCli(['export', '--db', other]);
    expect(y.stdout).toBe(x.stdout);
  });

  it('restore into another space of the same database says which tables got new ids, and the copy answers alike', async () => {
    const x = await tp('export');
    const file = join(dir, 'copy.jsonl');
    writeFileSync(file, x.stdout);
    const r = await tp('restore', file, '--space', 'copy');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/into space copy \(new ids in \d+ table\(s\): episodes/);
    expect((await tp('export')).stdout).toBe(x.stdout);
    const strip = (out: string) => out.replace(/"[enk]\d+"/g, '"ID"');
    const [a, b] = [await tp('recall', '咖啡', '--json'), await tp('recall', '咖啡', '--json', '--space', 'copy')];
    expect(a.stdout).toContain('咖啡');
    expect(JSON.parse(strip(b.stdout))).toEqual(JSON.parse(strip(a.stdout)));
  });

  it('doctor --json reports engine, integrity and features', async () => {
    const r = await tp('doctor', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, engine: 'sqlite', integrity: 'ok', features: { fts5: true, wal: true } });
  });

  it('forget removes one item, and --all needs --yes', async () => {
    expect((await tp('forget', 'n1')).code).toBe(0);
    const no = await tp('forget', '--all');
    expect(no.code).toBe(2);
    expect(no.stderr).toContain('--yes');
    expect((await tp('forget', '--all', '--yes')).code).toBe(0);
    expect(JSON.parse((await tp('timeline', '--json')).stdout)).toMatchObject({ total: 0 });
  });

  it('every command answers --help', { timeout: 180_000 }, async () => {
    for (const c of ['init', 'remember', 'record', 'write', 'recall', 'timeline', 'export', 'restore', 'forget', 'doctor']) {
      const r = await runCli([c, '--help']);
      expect(r.code, c).toBe(0);
      expect(r.stdout).toContain('--db');
      expect(r.stdout).toContain('--json');
    }
  });
});
