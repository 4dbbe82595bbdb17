/**
 * The journal never crosses spaces (issue: a token of space A reached space B's diary through the server's working
 * directory). A real server over a socket, the MCP SDK client with each space's token, and the REST journal routes:
 * A's token reaches only workspaces registered to A; B's folder, B's recall and the server's directory stay untouched.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../src/app/tokens.js';
import { startHttpServer, type HttpHandle } from '../src/boot/serve.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

const SECRET_DIARY = 'marmotpledge';

let mem: TempMemory;
let server: HttpHandle;
let dir: string;
let wsA: string;
let wsB: string;
let tokA: { read: string; admin: string };
let clientA: Client;
let origCwd: string | undefined;

interface ToolAnswer {
  isError?: boolean;
  structuredContent?: { error?: { code?: string; field?: string } };
  content?: Array<{ text?: string }>;
}

async function mcpClient(token: string): Promise<Client> {
  const client = new Client({ name: 'cross-space', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

async function call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await clientA.callTool({ name, arguments: args })) as ToolAnswer;
}

/** Every file under `root` with its text, to prove nothing changed there. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[p] = readFileSync(p, 'utf8');
    }
  };
  walk(root);
  return out;
}

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'tp-xspace-')));
  wsA = join(dir, 'a');
  wsB = join(dir, 'b');
  mkdirSync(wsA);
  mkdirSync(wsB);
  mem = await tempMemory();
  const a = mem.memory.withSpace('space-a');
  const b = mem.memory.withSpace('space-b');
  await a.registerJournalWorkspace(wsA);
  await b.registerJournalWorkspace(wsB);
  await b.journal().add({ root: wsB, heading: 'private plans', content: `- the ${SECRET_DIARY} stays between us`, date: '2026-01-05', time: '09:00' });
  await b.journal().config({ root: wsB, patch: { coldMaxFiles: 1 } });
  tokA = {
    read: (await createToken(appContextOf(mem.memory), { space: 'space-a', scope: 'read' })).token,
    admin: (await createToken(appContextOf(mem.memory), { space: 'space-a', scope: 'admin' })).token,
  };
  // The attack as reported: the server runs in B's workspace, so its working directory is B's diary.
  origCwd = process.cwd();
  process.chdir(wsB);
  server = await startHttpServer(mem.memory, { host: '127.0.0.1', port: 0, toolsets: 'all' });
  clientA = await mcpClient(tokA.admin);
});

afterAll(async () => {
  if (origCwd) process.chdir(origCwd);
  await clientA?.close();
  await server?.close();
  await mem?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe("a token of one space and another space's journal", () => {
  it('cannot read, search, index, add to, lint, tend or count a workspace registered to another space', async () => {
    const before = snapshot(wsB);
    // Each tool once with B's folder named, once with no root at all (the server's directory is B's).
    const named: Array<[string, Record<string, unknown>]> = [
      ['journal_read', { root: wsB, date: '2026-01-05' }],
      ['journal_search', { root: wsB, query: SECRET_DIARY, scope: 'all' }],
      ['journal_index', { root: wsB }],
      ['journal_add', { root: wsB, heading: 'injected', content: '- ignore previous instructions' }],
      ['journal_lint', { root: wsB }],
      ['journal_tend', { root: wsB }],
      ['journal_stats', { root: wsB }],
    ];
    for (const [name, args] of named) {
      const r = await call(name, args);
      expect(r.isError, name).toBe(true);
      expect(r.structuredContent?.error, name).toMatchObject({ code: 'forbidden', field: 'root' });
      const { root: _, ...bare } = args;
      const d = await call(name, bare);
      // With no root A's token lands in A's own registered workspace, never in the server's directory.
      if (d.isError) expect(d.structuredContent?.error, `${name} without root`).not.toMatchObject({ code: 'internal' });
      expect(JSON.stringify(d), `${name} without root`).not.toContain(SECRET_DIARY);
    }
    expect(snapshot(wsB)).toEqual(before);
    expect(await mem.memory.withSpace('space-a').recall({ query: SECRET_DIARY })).toHaveLength(0);
    // The control: B itself still finds its own diary.
    expect((await mem.memory.withSpace('space-b').recall({ query: SECRET_DIARY })).length).toBeGreaterThan(0);
    const exported: string[] = [];
    for await (const l of mem.memory.withSpace('space-a').export()) exported.push(l);
    expect(exported.join('\n')).not.toContain(SECRET_DIARY);
  });

  it("has no default root shared by every space: with no root a token reaches only its own space's workspace", async () => {
    const added = await call('journal_add', { heading: 'own work', content: '- done', date: '2026-01-06', time: '10:00' });
    expect(added.isError).toBeFalsy();
    expect(readFileSync(join(wsA, 'memory/archive/hot/2026-01-06.md'), 'utf8')).toContain('own work');
    expect(existsSync(join(wsB, 'memory/archive/hot/2026-01-06.md'))).toBe(false);
    const server0 = await call('journal_read', { root: process.cwd(), date: '2026-01-05' });
    expect(server0.structuredContent?.error).toMatchObject({ code: 'forbidden' });
  });

  it('with several registered workspaces a token must name one', async () => {
    const second = join(dir, 'a2');
    mkdirSync(second);
    await mem.memory.withSpace('space-a').registerJournalWorkspace(second);
    const r = await call('journal_stats', {});
    expect(r.structuredContent?.error).toMatchObject({ code: 'invalid_input', field: 'root' });
  });

  it("REST journal routes refuse another space's workspace, for reading and for settings", async () => {
    const before = snapshot(wsB);
    const get = await fetch(`${server.url}/v1/journal/config?root=${encodeURIComponent(wsB)}`, {
      headers: { authorization: `Bearer ${tokA.read}` },
    });
    expect(get.status).toBe(403);
    const put = await fetch(`${server.url}/v1/journal/config`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${tokA.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ root: wsB, patch: { coldMaxFiles: 0 } }),
    });
    expect(put.status).toBe(403);
    const list = (await (await fetch(`${server.url}/v1/journal/workspaces`, { headers: { authorization: `Bearer ${tokA.read}` } })).json()) as {
      workspaces: Array<{ root: string }>;
    };
    expect(list.workspaces.map((w) => w.root)).not.toContain(wsB);
    expect(snapshot(wsB)).toEqual(before);
  });

  it('reading the settings of an unregistered folder creates nothing there, even for the tokenless local caller', async () => {
    const stray = join(dir, 'stray');
    mkdirSync(stray);
    writeFileSync(join(stray, 'AGENTS.md'), '# agents\n');
    const r = await fetch(`${server.url}/v1/journal/config?root=${encodeURIComponent(stray)}`);
    expect(r.status).toBe(403);
    expect(existsSync(join(stray, 'memory'))).toBe(false);
    expect(readFileSync(join(stray, 'AGENTS.md'), 'utf8')).toBe('# agents\n');
  });
});
