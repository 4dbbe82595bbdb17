/** `tidepool import` as a user runs it: formats, idempotency, several files, failures and exit codes. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'import');
let dir: string;
let db: string;
const tp = (...args: string[]) => runCli([...args, '--db', db]);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tidepool-import-cli-'));
  db = join(dir, 'm.db');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tidepool import', () => {
  it('imports LoCoMo with --format, and the same file again adds nothing', async () => {
    const file = join(FIXTURES, 'locomo-mini.json');
    const first = await tp('import', file, '--format', 'locomo', '--json');
    expect(first.code).toBe(0);
    const a = JSON.parse(first.stdout) as {
      imported: number;
      skipped: number;
      failed: number;
      files: Array<{ format: string }>;
    };
    expect(a.imported).toBeGreaterThan(0);
    expect(a).toMatchObject({ skipped: 0, failed: 0, files: [{ format: 'locomo' }] });
    // No progress bar when stderr is not a terminal.
    expect(first.stderr).not.toContain('\r');
    const again = JSON.parse((await tp('import', file, '--json')).stdout) as {
      imported: number;
      skipped: number;
    };
    expect(again).toEqual(expect.objectContaining({ imported: 0, skipped: a.imported }));
    const exported = (await tp('export')).stdout.trim().split('\n');
    expect(exported.filter((l) => l.includes('"table":"episodes"'))).toHaveLength(a.imported);
  });

  it('detects the format of several files in one call and says what each added', async () => {
    const r = await tp(
      'import',
      join(FIXTURES, 'claude-code-session.jsonl'),
      join(FIXTURES, 'chat-export-2025-03-04.md'),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/claude-code-session\.jsonl \(claude-code\): \d+ of \d+ turns imported/);
    expect(r.stdout).toMatch(/chat-export-2025-03-04\.md \(markdown\): \d+ of \d+ turns imported/);
  });

  it('reports a missing file and an unknown format on stderr with exit code 2, and still imports the rest', async () => {
    const r = await tp(
      'import',
      join(dir, 'missing.jsonl'),
      join(FIXTURES, 'openai-messages.jsonl'),
      '--json',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing\.jsonl: .*ENOENT/);
    const doc = JSON.parse(r.stdout) as { failed: number; files: Array<{ status: string }> };
    expect(doc.failed).toBe(1);
    expect(doc.files.map((f) => f.status)).toEqual(['failed', 'imported']);
    const bad = await tp('import', join(FIXTURES, 'openai-messages.jsonl'), '--format', 'whatsapp');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format must be one of auto, claude-code, codex/);
  });
});
