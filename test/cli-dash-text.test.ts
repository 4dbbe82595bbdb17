/** `remember` takes text that starts with a dash (a list item, a PEM block) as text; options and typos stay options. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from './helpers/cli-in-process.js';

describe('text arguments starting with "-"', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidepool-dash-'));
  const db = join(dir, 'memory.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (...argv: string[]) => runInProcess(argv, { db, cwd: dir });

  it('stores a list item and a negative number as text, with or without --, and keeps options working', async () => {
    expect((await run('remember', '- buy milk on friday')).code).toBe(0);
    expect((await run('remember', '-5 degrees at the summit', '--key', 'summit.temp')).code).toBe(0);
    expect((await run('remember', '--', '- renew the domain')).code).toBe(0);
    const r = await run('recall', 'milk summit domain', '--json');
    for (const t of ['- buy milk on friday', '-5 degrees at the summit', '- renew the domain']) expect(r.stdout).toContain(t);
    // An option-shaped typo is still an error, and an option's value may start with a dash.
    expect((await run('remember', '--kye', 'x', 'text')).stderr).toMatch(/unknown option '--kye'/);
    expect((await run('remember', '--importance', '-2', 'x')).stderr).toMatch(/importance/);
  });

  it('refuses a PEM private key given without -- as a secret, not as an unknown option', async () => {
    const pem = ['-----BEGIN', 'RSA PRIVATE KEY-----'].join(' ') + '\nMIIEowIBAAKCAQEA7v4Vq1Gk2n9Lw3mX8pR5tY0zB6cD1eF4hJ7kL2nM9qS3uW6x\n' + ['-----END', 'RSA PRIVATE KEY-----'].join(' ');
    const r = await run('remember', pem);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/private key/);
  });
});
