/**
 * Secrets outside the main text: the field probes — tags, subject, session, speaker, tool, ref, meta and
 * metadata (keys and values), narrative tags and entities, profile entities, continuity sessions — over REST, MCP
 * and the CLI. Explicit writes are refused naming the field; automatic capture stores a placeholder. Afterwards the
 * secret is nowhere in the space's export.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemory } from '../src/boot/open-memory.js';
import { createHttpApp, type HttpApp } from '../src/surfaces/http/http-app.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import type { Tidepool } from '../src/app/tidepool.js';
import { runInProcess } from './helpers/cli-in-process.js';

// Built at run time so this file itself holds no token-shaped string.
const GH = ['ghp', 'k8Zq2Lw9Xv4Tn7Rb1Mc6Hd3Jf5Gs0Py8Ua2Q'].join('_');
const DB_URL = `postgres://admin:${['Vq7', 'mT2x', 'Lp9w'].join('')}@db.internal:5432/app`;
const SECRETS = [GH, DB_URL];

describe('secrets in every stored field', () => {
  let dir: string;
  let db: string;
  let memory: Tidepool;
  let http: HttpApp;
  let client: Client;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidepool-secret-fields-'));
    db = join(dir, 'memory.db');
    memory = await openMemory({ path: db, embedder: 'none' });
    http = createHttpApp({ memory, version: 'test', mcpServer: (session, p) => createMcpServer(p?.memory ?? memory, { session }) });
    const server = await createMcpServer(memory, { toolsets: 'all' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: 'probe', version: '1.0.0' });
    await client.connect(b);
  });
  afterAll(async () => {
    await client.close();
    await http.close();
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (path: string, body: unknown) => {
    const r = await http.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as { error?: { code: string; field?: string }; redacted?: number } };
  };
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text?: string }> };
    return { isError: r.isError === true, text: r.content.map((c) => c.text ?? '').join('\n') };
  };
  const exported = async () => {
    const lines: string[] = [];
    for await (const l of memory.export()) lines.push(l);
    return lines.join('\n');
  };

  it('refuses explicit writes naming the field, on REST, MCP and the CLI', async () => {
    const refusals: Array<[string, Promise<{ ok: boolean; field?: string; detail: string }>]> = [
      ['REST remember tags', post('/v1/remember', { text: 'deploy notes', tags: ['infra', GH] }).then((r) => ({ ok: r.status === 422, field: r.body.error?.field, detail: JSON.stringify(r.body) }))],
      ['REST remember subject', post('/v1/remember', { text: 'deploy notes', subject: GH }).then((r) => ({ ok: r.status === 422, field: r.body.error?.field, detail: JSON.stringify(r.body) }))],
      ['REST import tags', Promise.resolve(http.app.request('/v1/import', { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: JSON.stringify({ text: 'x', tags: [GH] }) })).then(async (r: Response) => ({ ok: r.status === 422, detail: await r.text() }))],
      ['MCP remember tags', tool('remember', { text: 'deploy notes', tags: [GH] }).then((r) => ({ ok: r.isError && /tags\.0/.test(r.text), detail: r.text }))],
      ['MCP memory_write tags', tool('memory_write', { gesture: 'I rotated the deploy key today', tags: [GH] }).then((r) => ({ ok: r.isError && /tags/.test(r.text), detail: r.text }))],
      ['MCP memory_write related_entities', tool('memory_write', { gesture: 'I met the ops team', related_entities: [GH] }).then((r) => ({ ok: r.isError, detail: r.text }))],
      ['MCP memory_write_profile entity', tool('memory_write_profile', { entity: GH, content: 'prefers short answers' }).then((r) => ({ ok: r.isError && /entity/.test(r.text), detail: r.text }))],
      ['MCP set_goal session', tool('set_goal', { goal: 'ship the release', session: GH }).then((r) => ({ ok: r.isError && /session/.test(r.text), detail: r.text }))],
    ];
    for (const [what, p] of refusals) {
      const r = await p;
      expect(r.ok, `${what}: ${r.detail}`).toBe(true);
      if (r.field) expect(r.field, what).toMatch(/^(tags\.1|subject)$/);
    }
    const cli = await runInProcess(['remember', 'deploy notes', '--tags', `infra,${GH}`], { db, cwd: dir });
    expect(cli.code, cli.stderr).toBe(4);
    expect(cli.stderr).toMatch(/tags\.1/);
  });

  it('redacts automatic capture in every field, on REST, MCP and the CLI', async () => {
    const ingest = await post('/v1/ingest', {
      turns: [
        { content: 'checked the deploy', session: GH, speaker: 'ana' },
        { content: 'ran it', speaker: GH, tool: GH, role: 'tool', ok: true },
        { content: 'noted', meta: { db: DB_URL, [GH]: 'x', nested: { list: [DB_URL] } }, ref: `run-${GH}` },
      ],
    });
    expect(ingest.status).toBe(201);
    expect(ingest.body.redacted).toBeGreaterThanOrEqual(7);
    expect((await tool('record', { content: 'ran the tool', session: GH, tool: GH })).isError).toBe(false);
    expect((await tool('context_record', { content: 'logged', metadata: { session: 's-1', url: DB_URL, [GH]: true } })).isError).toBe(false);
    for (const argv of [['record', 'standup notes', '--session', GH], ['record', 'standup notes', '--speaker', GH], ['record', 'standup notes', '--tool', GH, '--role', 'tool']]) {
      const r = await runInProcess(argv, { db, cwd: dir });
      expect(r.code, r.stderr).toBe(0);
    }
    const dump = await exported();
    for (const s of SECRETS) expect(dump.includes(s), 'a secret survived in the export').toBe(false);
    expect(dump).toContain('[secret:');
    // The captured turns are still there, with placeholders where the secrets were.
    expect((await memory.timeline({})).total).toBeGreaterThanOrEqual(8);
  });
});
