/**
 * Path confinement (issue #6): journal roots and day files through MCP, HTTP and the CLI, import paths and SOUL.md
 * never read or write outside their allowed folders — `../`, absolute paths, symlinks pointing out, NUL bytes and
 * very long paths included. A sentinel folder outside holds files that must stay untouched and never show up.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../src/app/tokens.js';
import { openMemory } from '../src/boot/open-memory.js';
import { appContextOf, type Tidepool } from '../src/app/tidepool.js';
import { soulReader } from '../src/surfaces/cli/inject-commands.js';
import { createHttpApp } from '../src/surfaces/http/http-app.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { runInProcess } from './helpers/cli-in-process.js';
import { treeDigest, within } from './helpers/hostile.js';
import { resultText } from './mcp-tool-cases.js';

const SEED = 20_260_604;
const SENTINEL = `SENTINEL-${process.pid}-outside-content`;
const DAY = '2026-10-30';

let base: string;
let outside: string;
let cwd: string;
let registered: string;
let linkedWs: string;
let db: string;
let memory: Tidepool;
let previousCwd: string;
let rootHadMemory: boolean;

/** Roots that name, or lead to, something outside the allowed folders (server directory + registered workspaces). */
let escapes: string[];

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-fuzz-paths-')));
  outside = join(base, 'outside');
  cwd = join(base, 'cwd');
  registered = join(base, 'registered');
  linkedWs = join(base, 'linked-ws');
  // The sentinel: a whole workspace outside, with a journal, settings, a SOUL.md and a plain secret file.
  mkdirSync(join(outside, 'memory', 'archive', 'hot'), { recursive: true });
  mkdirSync(join(outside, 'memory', 'archive', 'cold'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${SENTINEL}\n`);
  writeFileSync(join(outside, 'SOUL.md'), `# ${SENTINEL}\n`);
  writeFileSync(join(outside, 'memory', 'MEMORY.md'), `# Memory\n\n${SENTINEL}\n`);
  writeFileSync(join(outside, 'memory', '.tide.json'), JSON.stringify({ hotKeepDays: 7, note: SENTINEL }));
  writeFileSync(join(outside, 'memory', 'archive', 'hot', `${DAY}.md`), `# ${DAY}\n\n## 【09:00 ${SENTINEL}】\n${SENTINEL}\n`);
  for (const d of [cwd, registered, linkedWs]) mkdirSync(d);
  // Links from inside the allowed folders to the outside: a folder link, a memory/ link, a day file and MEMORY.md link.
  symlinkSync(outside, join(cwd, 'link-out'));
  symlinkSync(join(outside, 'memory'), join(linkedWs, 'memory'));
  mkdirSync(join(registered, 'memory', 'archive', 'hot'), { recursive: true });
  symlinkSync(join(outside, 'secret.txt'), join(registered, 'memory', 'archive', 'hot', `${DAY}.md`));
  symlinkSync(join(outside, 'memory', 'MEMORY.md'), join(registered, 'memory', 'MEMORY.md'));
  symlinkSync(join(outside, 'memory', '.tide.json'), join(registered, 'memory', '.tide.json'));
  symlinkSync(join(outside, 'SOUL.md'), join(cwd, 'SOUL.md'));

  previousCwd = process.cwd();
  process.chdir(cwd);
  db = join(base, 'memory.db');
  memory = await openMemory({ path: db, embedder: 'none', warn: () => {} });
  await memory.registerJournalWorkspace(registered);
  await memory.registerJournalWorkspace(linkedWs);
  rootHadMemory = existsSync('/memory');
  escapes = [
    outside, '../outside', `${cwd}/../outside`, `${registered}/../outside`, join(cwd, 'link-out'), 'link-out', 'link-out/',
    `${outside}/`, `${outside}/.`, outside.replace(/\//g, '//'), `${outside}\0`, `${cwd}\0/../outside`, '/', '/etc', '/tmp', '..', base,
    `${'../'.repeat(40)}etc`, `${'a/'.repeat(2_100)}x`, `${'x'.repeat(5_000)}`, '~', '~/../..', `file://${outside}`, '%2e%2e/outside',
    '..\\outside', ` ${outside}`, `${outside} `, outside.toUpperCase(), `${cwd}/link-out/memory`, join(outside, 'memory'),
  ];
});

afterAll(async () => {
  process.chdir(previousCwd);
  await memory.close();
  rmSync(base, { recursive: true, force: true });
});

/** The outside folder, the file system root's memory/ and every answer are checked after each call. */
function expectConfined(answer: string, before: string, where: string): void {
  expect(answer, `sentinel leaked: ${where}`).not.toContain(SENTINEL);
  expect(answer, `sentinel leaked: ${where}`).not.toContain('outside-content');
  expect(treeDigest(outside), `outside changed: ${where}`).toBe(before);
  if (!rootHadMemory) expect(existsSync('/memory'), `wrote /memory: ${where}`).toBe(false);
}

async function mcpClient(opts: { soul?: () => Promise<string | undefined> } = {}): Promise<Client> {
  const server = await createMcpServer(memory, { toolsets: 'all', ...opts });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'paths', version: '1.0.0' });
  await client.connect(b);
  return client;
}

const JOURNAL_TOOLS = ['journal_search', 'journal_read', 'journal_add', 'journal_index', 'journal_lint', 'journal_tend', 'journal_stats'] as const;

/** Arguments of a journal tool, given a root: queries and headings that would match the sentinel, hostile dates. */
function journalArgs(tool: string, root: string): fc.Arbitrary<Record<string, unknown>> {
  const date = fc.constantFrom(DAY, '../../outside/secret', `${DAY}/../../../outside`, '2026-10-30\0', '../2026-10-30');
  switch (tool) {
    case 'journal_search':
      return fc.record({ root: fc.constant(root), query: fc.constantFrom(SENTINEL, 'SENTINEL', 'outside content', '"SENTINEL"'), scope: fc.constantFrom('hot', 'all') });
    case 'journal_read':
      return fc.record({ root: fc.constant(root), date }, { requiredKeys: ['root'] });
    case 'journal_add':
      return fc.record({ root: fc.constant(root), heading: fc.constantFrom('probe', '../../outside'), content: fc.constantFrom('probe body'), date }, { requiredKeys: ['root', 'heading', 'content'] });
    case 'journal_tend':
      return fc.record({ root: fc.constant(root), dry_run: fc.boolean() });
    default:
      return fc.constant({ root });
  }
}

describe('journal roots through MCP stay in the server directory and registered workspaces', () => {
  it('refuses every escaping root for every journal tool; nothing outside is read or written', { timeout: 120_000 }, async () => {
    const client = await mcpClient();
    try {
      const call = fc.tuple(fc.constantFrom(...JOURNAL_TOOLS), fc.constantFrom(...escapes)).chain(([tool, root]) => journalArgs(tool, root).map((args) => [tool, args] as const));
      await fc.assert(
        fc.asyncProperty(call, async ([tool, args]) => {
          const before = treeDigest(outside);
          const r = await within(30_000, tool, client.callTool({ name: tool, arguments: args }));
          const where = `${tool} ${JSON.stringify(args).slice(0, 200)} → ${resultText(r).slice(0, 200)}`;
          expect(r.isError, where).toBe(true);
          expect(resultText(r), where).toMatch(/^(Error \((forbidden|invalid_input)\)|MCP error -32602|Input validation error: Invalid arguments for tool )/);
          expectConfined(JSON.stringify(r), before, where);
        }),
        { seed: SEED, numRuns: 120 },
      );
    } finally {
      await client.close();
    }
  });

  it('inside allowed roots, links to the outside (memory/, a day file, MEMORY.md, .tide.json) are never followed', { timeout: 120_000 }, async () => {
    const client = await mcpClient();
    try {
      const roots = [cwd, '.', `${cwd}/`, registered, `${registered}/.`, linkedWs];
      const call = fc.tuple(fc.constantFrom(...JOURNAL_TOOLS), fc.constantFrom(...roots)).chain(([tool, root]) => journalArgs(tool, root).map((args) => [tool, args] as const));
      await fc.assert(
        fc.asyncProperty(call, async ([tool, args]) => {
          const before = treeDigest(outside);
          const r = await within(30_000, tool, client.callTool({ name: tool, arguments: args }));
          const where = `${tool} ${JSON.stringify(args).slice(0, 200)} → ${resultText(r).slice(0, 300)}`;
          expectConfined(JSON.stringify(r), before, where);
          // The linked memory/ is refused outright; elsewhere an error is fine as long as it is a clean one.
          if (args.root === linkedWs) expect(resultText(r), where).toMatch(/^(Error \(forbidden\)|MCP error -32602|Input validation error: Invalid arguments for tool )/);
          if (r.isError) expect(resultText(r), where).not.toMatch(/Error \(internal\)/);
        }),
        { seed: SEED + 1, numRuns: 120 },
      );
      // Recall never returns the linked day's text either (it was never indexed).
      expect(JSON.stringify(await memory.recall({ query: 'SENTINEL outside content' }))).not.toContain(SENTINEL);
    } finally {
      await client.close();
    }
  });

  it('tells a confined caller nothing about folders outside: a missing folder and a refused one get the same answer', { timeout: 60_000 }, async () => {
    const client = await mcpClient();
    try {
      const answer = async (root: string) => {
        const r = await client.callTool({ name: 'journal_stats', arguments: { root } });
        expect(r.isError, root).toBe(true);
        // The caller's own spelling may come back; a resolved path (where a link points) must not.
        return resultText(r).split(root).join('<root>');
      };
      const missing = await answer(join(outside, 'no-such-folder'));
      for (const root of [outside, join(cwd, 'link-out'), 'link-out', '/etc']) {
        expect(await answer(root), root).toBe(missing);
      }
      expect(missing).toMatch(/^Error \(forbidden\)/);
      expect(missing).not.toContain(outside);
    } finally {
      await client.close();
    }
  });

  it('has no tool that takes a file path to import or read', { timeout: 60_000 }, async () => {
    const client = await mcpClient();
    try {
      const { tools } = await client.listTools();
      for (const t of tools) {
        const keys = Object.keys((t.inputSchema.properties ?? {}) as object);
        expect(keys.filter((k) => k.split('_').some((w) => /^(path|file|files|soul|dir)$/i.test(w))), t.name).toEqual([]);
      }
    } finally {
      await client.close();
    }
  });
});

describe('journal roots through HTTP', () => {
  it('a token may name only the server directory and registered workspaces; the tokenless user never follows links', { timeout: 120_000 }, async () => {
    const http = createHttpApp({ memory, version: 'test', tokensRequired: true, rateLimitPerMinute: 100_000, mcpServer: (s) => createMcpServer(memory, { session: s }) });
    const local = createHttpApp({ memory, version: 'test', mcpServer: (s) => createMcpServer(memory, { session: s }) });
    try {
      const { token } = await createToken(appContextOf(memory), { space: 'default', scope: 'admin' });
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const request = fc.tuple(fc.constantFrom(...escapes.filter((e) => !e.includes('\0'))), fc.boolean());
      await fc.assert(
        fc.asyncProperty(request, async ([root, put]) => {
          const before = treeDigest(outside);
          const res = put
            ? await http.app.request('/v1/journal/config', { method: 'PUT', headers: auth, body: JSON.stringify({ root, patch: { hotKeepDays: 1 } }) })
            : await http.app.request(`/v1/journal/config?root=${encodeURIComponent(root)}`, { headers: auth });
          const text = await res.text();
          const where = `${put ? 'PUT' : 'GET'} ${root.slice(0, 100)} → ${res.status} ${text.slice(0, 200)}`;
          expect([400, 403], where).toContain(res.status);
          expectConfined(text, before, where);
        }),
        { seed: SEED + 2, numRuns: 60 },
      );
      // The tokenless loopback user may name any folder (DESIGN §10), but a linked memory/ is still refused.
      for (const root of [linkedWs, registered]) {
        const before = treeDigest(outside);
        const res = await local.app.request('/v1/journal/config', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ root, patch: { hotKeepDays: 2 } }) });
        const text = await res.text();
        expect(res.status, text).toBeGreaterThanOrEqual(400);
        expectConfined(text, before, `tokenless PUT ${root}`);
      }
    } finally {
      await http.close();
      await local.close();
    }
  });

  it('dashboard assets cannot name a file outside the static folder', { timeout: 60_000 }, async () => {
    const local = createHttpApp({ memory, version: 'test', mcpServer: (s) => createMcpServer(memory, { session: s }) });
    try {
      for (const name of ['..%2F..%2F..%2Fpackage.json', '..%2fhttp-app.ts', '%2e%2e%2f%2e%2e%2fpackage.json', '..%5C..%5Cpackage.json', 'app.js%00.css', `${'a'.repeat(5_000)}.js`, '.%2E/index.html', '%252e%252e%252fpackage.json']) {
        const res = await local.app.request(`/assets/${name}`);
        const text = await res.text();
        expect(res.status, name).toBe(404);
        expect(text).not.toContain('"name": "tidepool"');
        expect(text).not.toContain('import ');
      }
      // A raw import path in the body is only text: /v1/import reads no file.
      const res = await local.app.request('/v1/import', { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: join(outside, 'secret.txt') });
      expect(res.status).toBe(400);
      expect(await res.text()).not.toContain(SENTINEL);
    } finally {
      await local.close();
    }
  });
});

describe('journal roots and import paths through the CLI', () => {
  it('journal commands never follow a link out of the workspace, and answer NUL bytes and long paths clearly', { timeout: 120_000 }, async () => {
    const argv = fc.tuple(
      fc.constantFrom(['journal', 'read', '--date', DAY], ['journal', 'search', 'SENTINEL'], ['journal', 'search', 'outside', 'content'], ['journal', 'index'], ['journal', 'lint'], ['journal', 'stats'], ['journal', 'tend', '--dry-run'], ['journal', 'tend'], ['journal', 'config']),
      // The local CLI may name any folder, through a link too (its user can read it anyway); what it never does is
      // follow a link inside memory/ (registered) or a memory/ that is itself a link (linkedWs).
      fc.constantFrom(registered, linkedWs, `${registered}\0`, `${'a/'.repeat(2_100)}x`, `${'x'.repeat(300)}`),
    );
    await fc.assert(
      fc.asyncProperty(argv, async ([cmd, root]) => {
        const before = treeDigest(outside);
        const r = await runInProcess([...cmd, '--root', root, '--json'], { db, cwd });
        const where = `${cmd.join(' ')} --root ${root.slice(0, 80)} → ${r.code} ${r.stdout.slice(0, 200)} ${r.stderr.slice(0, 200)}`;
        expectConfined(r.stdout + r.stderr, before, where);
        if (root !== registered) expect(r.code, where).not.toBe(0);
        if (r.code !== 0 && !(r.code === 3 && r.stderr === '')) expect(r.stderr, where).toMatch(/^tidepool: \S/);
      }),
      { seed: SEED + 3, numRuns: 40 },
    );
  });

  it('import answers a folder, a link to a folder, a NUL byte and an over-long name with a failed file, not a crash', { timeout: 60_000 }, async () => {
    for (const path of [outside, join(cwd, 'link-out'), `${join(outside, 'secret.txt')}\0.jsonl`, join(base, `${'n'.repeat(300)}.jsonl`), join(base, `${'d/'.repeat(2_100)}x.jsonl`)]) {
      const r = await runInProcess(['import', path, '--format', 'openai-jsonl', '--json'], { db, cwd });
      expect(r.code, `${path.slice(0, 80)}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/^tidepool( import)?: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout + r.stderr).not.toContain(SENTINEL);
    }
    // An empty device reads as an empty transcript.
    const empty = await runInProcess(['import', '/dev/null', '--format', 'openai-jsonl', '--json'], { db, cwd });
    expect(empty.code, empty.stderr).toBe(0);
    expect(JSON.parse(empty.stdout)).toMatchObject({ imported: 0, failed: 0 });
  });
});

describe('SOUL.md', () => {
  it('the default SOUL.md is read only from inside the workspace: a link out of it is not followed', { timeout: 60_000 }, async () => {
    // cwd/SOUL.md links to outside/SOUL.md (a cloned repository could link ~/.ssh/id_rsa the same way).
    const linked = await soulReader(memory, cwd)();
    expect(linked ?? '').not.toContain(SENTINEL);
    const client = await mcpClient({ soul: soulReader(memory, cwd) });
    try {
      const res = await client.readResource({ uri: 'tidepool://context' });
      expect(JSON.stringify(res)).not.toContain(SENTINEL);
      const prompt = await client.getPrompt({ name: 'context', arguments: { max_tokens: '4000' } });
      expect(JSON.stringify(prompt)).not.toContain(SENTINEL);
    } finally {
      await client.close();
    }
    // A SOUL.md inside the workspace is read, including through a link that stays inside.
    const inside = join(base, 'soul-ws');
    mkdirSync(join(inside, 'docs'), { recursive: true });
    writeFileSync(join(inside, 'docs', 'soul.md'), 'I am the careful build agent.\n');
    symlinkSync(join(inside, 'docs', 'soul.md'), join(inside, 'SOUL.md'));
    expect(await soulReader(memory, inside)()).toBe('I am the careful build agent.\n');
    // A workspace without SOUL.md simply has no soul.
    expect(await soulReader(memory, registered)()).toBeUndefined();
  });

  it('a SOUL.md that is a folder or a FIFO is not read (no hang, no crash)', { timeout: 60_000 }, async () => {
    const dirWs = join(base, 'soul-dir');
    mkdirSync(join(dirWs, 'SOUL.md'), { recursive: true });
    expect(await within(10_000, 'soul folder', soulReader(memory, dirWs)())).toBeUndefined();
    const fifoWs = join(base, 'soul-fifo');
    mkdirSync(fifoWs);
    try {
      execFileSync('mkfifo', [join(fifoWs, 'SOUL.md')]);
    } catch {
      return; // no mkfifo on this system
    }
    expect(await within(10_000, 'soul fifo', soulReader(memory, fifoWs)())).toBeUndefined();
  });
});
