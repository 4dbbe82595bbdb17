/** `tidepool agents-hint` on real files: create, append, unchanged, update only the block, clean removal, shell deletion. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

let root: string;
const agents = () => join(root, 'AGENTS.md');
const BEGIN = '<!-- tidepool:begin -->';
const END = '<!-- tidepool:end -->';

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tidepool-agents-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function hint(...args: string[]): Promise<{ kind: string; path: string }> {
  const r = await runCli(['agents-hint', '--root', root, '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { kind: string; path: string };
}

describe('tidepool agents-hint', () => {
  it('creates AGENTS.md with a title when missing, and deletes it again when it holds only the block', async () => {
    expect(await hint()).toEqual({ kind: 'created', path: agents() });
    const text = readFileSync(agents(), 'utf8');
    expect(text.startsWith(`# AGENTS.md\n\n${BEGIN}\n## Memory (Tidepool)\n`)).toBe(true);
    expect(text.endsWith(`${END}\n`)).toBe(true);
    expect(text).toContain('tidepool://context');
    expect(text).toMatch(/Never write credentials/);
    expect((await hint('--remove')).kind).toBe('deleted');
    expect(existsSync(agents())).toBe(false);
    expect((await hint('--remove')).kind).toBe('absent');
  });

  it('appends to an existing file, writes nothing when unchanged, and removes the block leaving the text byte-identical', async () => {
    const original = '# Team rules\n\nRun `npm test` before pushing.\n';
    writeFileSync(agents(), original);
    expect((await hint()).kind).toBe('appended');
    const withBlock = readFileSync(agents(), 'utf8');
    expect(withBlock.startsWith(original)).toBe(true);
    expect(withBlock.slice(original.length)).toMatch(new RegExp(`^\\n${BEGIN}\\n[\\s\\S]+\\n${END}\\n$`));
    // Whole seconds: utimes goes through a float of seconds, so a millisecond date can come back 1 µs off.
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
    utimesSync(agents(), past, past);
    expect((await hint()).kind).toBe('unchanged');
    expect(statSync(agents()).mtimeMs).toBe(past.getTime());
    expect((await hint('--remove')).kind).toBe('removed');
    expect(readFileSync(agents(), 'utf8')).toBe(original);
  });

  it('replaces only the text between the markers when the block is stale', async () => {
    const before = '# Rules\n\nBe kind.\n\n';
    const after = '\n\n## Later section\n\nKeep me.\n';
    writeFileSync(agents(), `${before}${BEGIN}\nold hint text\n${END}${after}`);
    expect((await hint()).kind).toBe('updated');
    const text = readFileSync(agents(), 'utf8');
    expect(text.startsWith(`${before}${BEGIN}\n## Memory (Tidepool)`)).toBe(true);
    expect(text.endsWith(`${END}${after}`)).toBe(true);
    expect(text).not.toContain('old hint text');
  });

  it("gives a journal workspace (with memory/) the journal's hint, so the daily tend writes the same block", async () => {
    mkdirSync(join(root, 'memory'));
    await hint();
    const text = readFileSync(agents(), 'utf8');
    expect(text).toContain('## Memory (Tidepool journal)');
    expect(text).toContain('journal_search');
  });
});
