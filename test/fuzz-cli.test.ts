/**
 * Property tests over the CLI (issue #6): hostile arguments, flags and stdin for remember, recall, record, timeline,
 * forget, import and journal end with exit 0 and correct output, or a non-zero exit and a clear message on stderr
 * without a stack trace (unless --debug), never a hang or a changed store. The program runs in process (its own
 * `runCli` entry, fast); a sample of the same arguments then runs through the real binary.
 */
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appContextOf, type Tidepool } from '../src/app/tidepool.js';
import { openMemory } from '../src/boot/open-memory.js';
import { parseId } from '../src/core/ids.js';
import { CREDENTIALS, describeInput, hostileString, keepInside, storeDigest, treeDigest, unclearMessage, asStored, within } from './helpers/hostile.js';
import { runInProcess as inProcess } from './helpers/cli-in-process.js';
import { runCli as spawnCli, type CliRun } from './helpers/run-cli.js';

const SEED = 20_260_603;
const RUNS = { inProcess: 120, stdin: 25, spawned: 12 } as const;
const RUN_MS = 30_000;

let base: string;
let workspace: string;
let db: string;
let observer: Tidepool;
let fileArgs: string[];
let previousCwd: string;

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-fuzz-cli-')));
  workspace = join(base, 'workspace');
  mkdirSync(workspace);
  db = join(base, 'memory.db');
  // The journal commands resolve a relative --root from the working directory, as the real binary does from its own.
  previousCwd = process.cwd();
  process.chdir(workspace);
  observer = await openMemory({ path: db, embedder: 'none', warn: () => {} });
  await observer.remember({ text: 'The staging database listens on port 6543', key: 'staging.port' });
  await observer.record({ turns: [{ role: 'user', content: 'check staging', session: 's1' }] });
  await observer.registerJournalWorkspace(workspace);
  // Import candidates: real transcripts, hostile files, a folder and a missing path.
  const files = join(base, 'files');
  mkdirSync(files);
  copyFileSync(join(import.meta.dirname, 'fixtures', 'import', 'openai-messages.jsonl'), join(files, 'openai-messages.jsonl'));
  writeFileSync(join(files, 'broken.jsonl'), '{"role":"user","content":"ok"}\n{not json\n\u0000\u0001\n{"role":5}\n');
  writeFileSync(join(files, 'binary.json'), Buffer.from([0xff, 0xfe, 0x00, 0xed, 0xa0, 0x80, 0xc0, 0xaf]));
  writeFileSync(join(files, 'deep.json'), `${'['.repeat(20_000)}${']'.repeat(20_000)}`);
  writeFileSync(join(files, 'empty.md'), '');
  writeFileSync(join(files, 'huge-line.jsonl'), `{"role":"user","content":"${'字'.repeat(400_000)}"}\n`);
  fileArgs = ['openai-messages.jsonl', 'broken.jsonl', 'binary.json', 'deep.json', 'empty.md', 'huge-line.jsonl', 'missing.jsonl', '.'].map((f) => join(files, f));
});

afterAll(async () => {
  process.chdir(previousCwd);
  await observer.close();
  rmSync(base, { recursive: true, force: true });
});

function runInProcess(argv: readonly string[], stdin = ''): Promise<CliRun> {
  return inProcess(argv, { db, cwd: workspace, stdin, timeoutMs: RUN_MS });
}

/** Flags per command, as its --help lists them; values are hostile text or something plausible. */
const COMMANDS: Record<string, { positional: number; flags: readonly string[]; bools?: readonly string[]; prefix?: readonly string[] }> = {
  remember: { positional: 1, flags: ['--key', '--kind', '--importance', '--tags', '--space'], bools: ['--not-durable'] },
  recall: { positional: 1, flags: ['--limit', '--layers', '--kinds', '--since', '--until', '--session', '--min-weight', '--max-tokens', '--space'] },
  record: { positional: 1, flags: ['--role', '--session', '--speaker', '--tool', '--ok', '--at'] },
  write: { positional: 0, flags: ['--gesture', '--context', '--moment', '--direction', '--importance', '--tags', '--entities-role', '--source-links', '--type', '--kind'] },
  timeline: { positional: 0, flags: ['--from', '--to', '--session', '--limit', '--offset', '--order', '--space'] },
  forget: { positional: 1, flags: ['--key'], bools: ['--all', '--yes'] },
  import: { positional: 1, flags: ['--format'] },
  'journal search': { positional: 2, flags: ['--scope', '--limit', '--root'], prefix: ['journal', 'search'] },
  'journal read': { positional: 0, flags: ['--date', '--root'], prefix: ['journal', 'read'] },
  'journal add': { positional: 2, flags: ['--content', '--date', '--time', '--root'], prefix: ['journal', 'add'] },
  'journal stats': { positional: 0, flags: ['--root'], prefix: ['journal', 'stats'] },
  'journal tend': { positional: 0, flags: ['--root'], bools: ['--dry-run'], prefix: ['journal', 'tend'] },
  'journal config': { positional: 0, flags: ['--set', '--root'], bools: ['--reset'], prefix: ['journal', 'config'] },
  'journal restore-day': { positional: 1, flags: ['--root'], prefix: ['journal', 'restore-day'] },
};

const PLAUSIBLE = ['3', '0', '-1', '1.5', '10', 'fact', 'entity', 'user', 'tool', 'true', 'no', 'asc', 'sideways', 'episode,knowledge', '2026-11-01', '2026-11-01 09:00', '09:10', 'hot', 'all', 'k1', 'e2', 'n1', 'k99999', 'hotKeepDays=3', 'hotKeepDays=-1', 'x=y', '=', 'general', 'auto', 'openai-jsonl', 'tideline'];

/** One command line: the command, hostile positionals and flags, sometimes --json or --debug. */
function argvFor(spawnable: boolean): fc.Arbitrary<string[]> {
  // A spawned process cannot take NUL in argv, nor one argument over 128 KiB (MAX_ARG_STRLEN).
  const text = hostileString({ huge: !spawnable }).map((s) => (spawnable ? s.replace(/\0/g, '') : s));
  const value = (flag: string) => {
    // The local CLI may name any folder: hostile roots stay inside the temp folder (keepInside).
    if (flag === '--root') return fc.oneof({ weight: 3, arbitrary: fc.constant(workspace) }, { weight: 1, arbitrary: text.map((p) => keepInside(base, workspace, p)) });
    if (flag === '--format') return fc.oneof({ weight: 3, arbitrary: fc.constantFrom('auto', 'openai-jsonl', 'markdown', 'locomo', 'claude-code', 'hermes') }, { weight: 1, arbitrary: text });
    return fc.oneof(text, fc.constantFrom(...PLAUSIBLE));
  };
  // The seven journal commands share one weight with each of the others.
  const names = Object.keys(COMMANDS).map((n) => ({ weight: n.startsWith('journal') ? 1 : 3, arbitrary: fc.constant(n) }));
  return fc.oneof(...names).chain((name) => {
    const c = COMMANDS[name]!;
    // Mostly one positional where the command takes one, and at most two flags: most runs then reach the use case.
    const positional = name === 'import'
      ? fc.array(fc.constantFrom(...fileArgs), { minLength: 1, maxLength: 1 })
      : fc.array(fc.oneof({ weight: 3, arbitrary: text }, { weight: 1, arbitrary: fc.constantFrom(...PLAUSIBLE) }), { minLength: c.positional > 0 ? 1 : 0, maxLength: c.positional });
    const flags = fc.subarray([...c.flags], { maxLength: Math.min(2, c.flags.length) }).chain((fs) => fc.tuple(...fs.map((f) => value(f).map((v) => [f, v]))));
    const bools = fc.subarray([...(c.bools ?? []), '--json', '--debug']);
    return fc.tuple(positional, flags, bools).map(([p, f, b]) => [...(c.prefix ?? [name]), ...p, ...f.flat(), ...b]);
  });
}

/** The first stderr line a failing command must start with: ours, or commander's for a parse error. */
const FIRST_LINE = /^(tidepool( import)?: \S|error: \S)/;

/** A run's result is a clear success or a clear failure, and a failure changed neither the store nor the workspace. */
function checkRun(argv: readonly string[], r: CliRun, before: { store: string; files: string }, after: { store: string; files: string }): void {
  const where = `tidepool ${describeInput(argv)} → ${r.code}\nstdout: ${r.stdout.slice(0, 300)}\nstderr: ${r.stderr.slice(0, 500)}`;
  const debug = argv.includes('--debug');
  if (!debug) expect(unclearMessage(r.stderr || 'none', argv), where).toBeUndefined();
  // Documented results with their own exit code and the answer on stdout: a missing day (3), lint findings (1).
  const name = argv.slice(0, 2).join(' ');
  if (r.stderr === '' && ((r.code === 3 && /^journal (read|restore-day)$/.test(name)) || (r.code === 1 && name === 'journal lint'))) return;
  if (r.code === 0) {
    // `--json` prints one JSON document; `--help` (a hostile argument may be one) prints help.
    if (argv.includes('--json') && !argv.includes('--help') && !argv.includes('-h') && !argv.includes('--version') && !argv.includes('-V')) JSON.parse(r.stdout);
    return;
  }
  expect(r.stderr, where).toMatch(FIRST_LINE);
  // Our own messages are one line (hostile input they quote aside); commander's add the help after the error.
  if (!debug && r.stderr.startsWith('tidepool') && !r.stderr.includes('import:')) {
    let scrubbed = r.stderr;
    for (const a of [...argv].sort((x, y) => y.length - x.length)) if (a.length >= 2) scrubbed = scrubbed.split(asStored(a)).join('').split(a).join('');
    expect(scrubbed.trimEnd().split('\n'), where).toHaveLength(1);
  }
  // Exit 1 is a failure the CLI did not foresee (anything but a TidepoolError) unless a command chose it.
  expect(r.code === 1 && !/journal (lint|tend)/.test(argv.join(' ')), `unexpected exit 1: ${where}`).toBe(false);
  // `import` goes file by file (a failed file is reported, the others are kept), so only its single-file runs count;
  // a folder (fileArgs' last entry) is every file in it.
  const folder = fileArgs[fileArgs.length - 1];
  if (argv[0] !== 'import' || (argv.filter((a) => fileArgs.includes(a)).length <= 1 && !argv.includes(folder!))) {
    expect(after.store, `store changed by a failed command: ${where}`).toBe(before.store);
    expect(after.files, `workspace changed by a failed command: ${where}`).toBe(before.files);
  }
}

async function state(): Promise<{ store: string; files: string }> {
  return { store: await storeDigest(observer), files: treeDigest(workspace) };
}

/** Success oracles for the commands whose effect is easy to read back. */
async function checkEffect(argv: readonly string[], r: CliRun): Promise<void> {
  if (r.code !== 0 || !argv.includes('--json')) return;
  const doc = JSON.parse(r.stdout) as Record<string, unknown>;
  if (argv[0] === 'remember' && typeof doc.id === 'string' && doc.kind === 'created') {
    const row = await appContextOf(observer).store.forSpace('default').knowledge.get(parseId(doc.id).id);
    expect(row?.content).toBe(asStored(argv[1]!.trim()));
  }
  if (argv[0] === 'recall') expect(Array.isArray(doc.results)).toBe(true);
  if (argv[0] === 'timeline') expect(Array.isArray(doc.items)).toBe(true);
}

describe('CLI under hostile arguments (in process)', () => {
  it('remember, recall, record, write, timeline, forget, import and journal answer clearly', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(argvFor(false), async (argv) => {
        const before = await state();
        const r = await runInProcess(argv);
        checkRun(argv, r, before, await state());
        await checkEffect(argv, r);
      }),
      { seed: SEED, numRuns: RUNS.inProcess },
    );
  });

  it('record reads JSONL from stdin: a broken line fails the whole batch with its line number', { timeout: 120_000 }, async () => {
    const good = fc.record({ role: fc.constantFrom('user', 'assistant'), content: hostileString(), session: fc.constantFrom('s1', 's2') }).map((t) => JSON.stringify(t));
    const bad = fc.oneof(
      fc.constantFrom('{', '{"content":', 'null', '[]', '{"role":"robot","content":"x"}', '{"content":""}', '{"content":5}', '\u0000', '"just a string"', `${'['.repeat(5_000)}${']'.repeat(5_000)}`),
      // One line each (a newline inside would shift the number the message names).
      hostileString({ huge: false }).filter((s) => s.trim() !== '' && !s.includes('\n')),
    );
    const lines = fc.tuple(fc.array(good, { minLength: 1, maxLength: 4 }), fc.option(bad, { nil: undefined }), fc.nat(), fc.constantFrom('\n', '\r\n'));
    await fc.assert(
      fc.asyncProperty(lines, async ([ok, b, at, eol]) => {
        const all = b === undefined ? ok : [...ok.slice(0, at % (ok.length + 1)), b, ...ok.slice(at % (ok.length + 1))];
        const before = await state();
        const r = await runInProcess(['record', '--json'], all.join(eol));
        const argv = ['record', '--json', ...all];
        checkRun(argv, r, before, await state());
        if (r.code === 0) expect((JSON.parse(r.stdout) as { ids: unknown[]; skipped: number }).ids.length + (JSON.parse(r.stdout) as { skipped: number }).skipped).toBe(all.length);
        const badAt = b === undefined ? -1 : at % (ok.length + 1);
        if (r.code !== 0 && r.stderr.includes('is not JSON')) expect(r.stderr).toContain(`line ${badAt + 1} `);
      }),
      { seed: SEED + 1, numRuns: RUNS.stdin },
    );
  });

  it('a refused journal command naming --root leaves the store as it was (the root is registered after success)', { timeout: 60_000 }, async () => {
    // Found by the property above: restore-day without a date, and read with a bad date, first re-registered the root.
    for (const argv of [['journal', 'restore-day', '--root', workspace], ['journal', 'read', '--date', '2026-02-30', '--root', workspace]]) {
      const before = await state();
      const r = await runInProcess(argv);
      expect(r.code, r.stderr).toBe(2);
      expect(await state()).toEqual(before);
    }
  });

  it('prints a stack trace only with --debug', { timeout: 60_000 }, async () => {
    const r = await runInProcess(['remember', `my key is ${CREDENTIALS[0]}`]);
    expect(r.code).toBe(4);
    expect(unclearMessage(r.stderr)).toBeUndefined();
    const d = await runInProcess(['remember', `my key is ${CREDENTIALS[0]}`, '--debug']);
    expect(d.stderr).toMatch(/\n\s+at /);
  });
});

describe('CLI under hostile arguments (the real binary)', () => {
  it('a sample of the same command lines through node bin/tidepool.js', { timeout: 180_000 }, async () => {
    const env = { TIDEPOOL_DB: db };
    await fc.assert(
      fc.asyncProperty(argvFor(true), async (argv) => {
        const before = await state();
        const r = await within(60_000, 'spawned tidepool', spawnCli(argv, { env, cwd: workspace }));
        checkRun(argv, r, before, await state());
      }),
      { seed: SEED + 2, numRuns: RUNS.spawned },
    );
    // Broken JSONL on stdin and an unknown command through the real process.
    const broken = await spawnCli(['record'], { env, stdin: '{"content":"fine"}\n{oops\n' });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toBe('tidepool: stdin line 2 is not JSON\n');
    const unknown = await spawnCli(['remembr', 'x'], { env });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/^error: unknown command 'remembr'/);
  });
});
