/** REST API through the Hono app: every endpoint valid, invalid and unauthorised; tokens, scopes, space isolation, limits. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../src/app/tokens.js';
import { startHttpServer } from '../src/boot/serve.js';
import { createHttpApp, type HttpApp } from '../src/surfaces/http/http-app.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { appContextOf, type Tidepool } from '../src/app/tidepool.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';

function appFor(memory: Tidepool, o: { tokensRequired?: boolean; rateLimitPerMinute?: number; bodyLimitBytes?: number } = {}): HttpApp {
  return createHttpApp({ memory, version: 'test', mcpServer: (session, p) => createMcpServer(p?.memory ?? memory, { session }), ...o });
}
const json = (body: unknown, token?: string, method = 'POST') => ({
  method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body),
});
const auth = (token: string, method = 'GET') => ({ method, headers: { authorization: `Bearer ${token}` } });

describe('HTTP API on loopback without tokens', () => {
  let mem: TempMemory;
  let http: HttpApp;
  beforeAll(async () => {
    mem = await tempMemory();
    http = appFor(mem.memory);
  });
  afterAll(async () => {
    await http.close();
    await mem.cleanup();
  });

  it('answers health and serves an OpenAPI document generated from the schemas', async () => {
    expect(await (await http.app.request('/v1/health')).json()).toMatchObject({ ok: true, space: 'default' });
    const doc = (await (await http.app.request('/v1/openapi.json')).json()) as { paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } }> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/ingest', '/v1/import', '/v1/remember', '/v1/recall', '/v1/know', '/v1/timeline', '/v1/briefing', '/v1/export', '/v1/spaces/{space}']));
    expect(Object.keys(doc.paths['/v1/remember']!.post!.requestBody.content['application/json']!.schema.properties)).toEqual(expect.arrayContaining(['text', 'key', 'kind']));
  });

  it('remembers and recalls; a wrong type is 400 naming the field; a body that is not JSON is 400', async () => {
    const r = await http.app.request('/v1/remember', json({ text: 'The staging database moved to port 6543', key: 'staging.port', subject: 'staging' }));
    expect(r.status).toBe(201);
    expect(await r.json()).toMatchObject({ kind: 'created' });
    const hits = (await (await http.app.request('/v1/recall?q=staging%20database')).json()) as { hits: Array<{ text: string }> };
    expect(hits.hits.some((h) => h.text.includes('6543'))).toBe(true);
    const bad = await http.app.request('/v1/remember', json({ text: 42 }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_input', field: 'text' } });
    const notJson = await http.app.request('/v1/remember', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' });
    expect(notJson.status).toBe(400);
    expect((await http.app.request('/v1/recall')).status).toBe(400);
    expect((await http.app.request('/v1/recall?q=x&limit=abc')).status).toBe(400);
  });

  it('refuses a credential on remember with 422', async () => {
    const r = await http.app.request('/v1/remember', json({ text: 'my key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd' }));
    expect(r.status).toBe(422);
    expect(await r.json()).toMatchObject({ error: { code: 'secret_refused' } });
  });

  it('ingests turns and tool results (plain and as events with payload.tool), and refuses bad ones', async () => {
    const one = await http.app.request('/v1/ingest', json({ content: 'hello from the ingest route', session: 's1' }));
    expect(one.status).toBe(201);
    const events = await http.app.request('/v1/ingest', json({ events: [{ type: 'tool_result', payload: { tool: 'pytest', ok: true, content: 'all 12 tests passed', session: 's1' } }] }));
    expect(events.status).toBe(201);
    const page = await mem.memory.timeline({ limit: 10 });
    expect(page.items.find((e) => e.tool === 'pytest')).toMatchObject({ kind: 'tool_result', ok: true, source: 'ingest' });
    const bad = await http.app.request('/v1/ingest', json({ turns: [{ role: 'robot', content: 'x' }] }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { field: string } }).error.field).toBe('turns.0.role');
  });

  it('imports JSONL memories all or nothing, naming the bad line', async () => {
    const ok = await http.app.request('/v1/import', { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: '{"text":"Ana prefers tea"}\n{"text":"Ben runs the CI","kind":"entity"}\n' });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ imported: 2 });
    const bad = await http.app.request('/v1/import', { method: 'POST', body: '{"text":"fine"}\n{"text":5}\n' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { field: 'line 2.text' } });
    expect((await http.app.request('/v1/import', { method: 'POST', body: '\n' })).status).toBe(400);
    expect((await mem.memory.recall({ query: 'fine' })).some((h) => h.text === 'fine')).toBe(false);
  });

  it('answers know, timeline, briefing (none yet) and rejects their bad parameters', async () => {
    const k = (await (await http.app.request('/v1/know?subject=staging')).json()) as { entries: Array<{ content: string }> };
    expect(k.entries.map((e) => e.content)).toContain('The staging database moved to port 6543');
    expect((await http.app.request('/v1/know?limit=0')).status).toBe(400);
    const t = (await (await http.app.request('/v1/timeline?limit=2&order=asc')).json()) as { items: unknown[]; total: number };
    expect(t.items).toHaveLength(2);
    expect(t.total).toBeGreaterThan(2);
    expect((await http.app.request('/v1/timeline?order=sideways')).status).toBe(400);
    expect(await (await http.app.request('/v1/briefing')).json()).toMatchObject({ briefing: null });
    expect((await http.app.request('/v1/briefing?date=yesterday')).status).toBe(400);
  });

  it('streams the export as JSON lines', async () => {
    const r = await http.app.request('/v1/export');
    expect(r.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await r.text()).trim().split('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const l of lines) JSON.parse(l);
  });

  it('reviews quarantined knowledge: approve makes it reliable, reject forgets it, others are 409/404', async () => {
    const a = await mem.memory.remember({ text: 'The deploy window is Tuesday' });
    const b = await mem.memory.remember({ text: 'The deploy window is Friday' });
    const idA = Number(a.id.slice(1));
    const idB = Number(b.id.slice(1));
    await appContextOf(mem.memory).store.forSpace('default').knowledge.setStatus([idA, idB], 'quarantined', mem.clock.now());
    const list = (await (await http.app.request('/v1/knowledge?status=quarantined')).json()) as { items: Array<{ id: string }> };
    expect(list.items.map((i) => i.id).sort()).toEqual([a.id, b.id].sort());
    expect((await http.app.request(`/v1/knowledge/${a.id}/review`, json({ decision: 'approve' }))).status).toBe(200);
    expect((await http.app.request(`/v1/knowledge/${b.id}/review`, json({ decision: 'reject' }))).status).toBe(200);
    expect((await appContextOf(mem.memory).store.forSpace('default').knowledge.get(idA))?.status).toBe('reliable');
    expect((await appContextOf(mem.memory).store.forSpace('default').knowledge.get(idB))?.status).toBe('forgotten');
    expect((await http.app.request(`/v1/knowledge/${a.id}/review`, json({ decision: 'approve' }))).status).toBe(409);
    expect((await http.app.request('/v1/knowledge/k99999/review', json({ decision: 'approve' }))).status).toBe(404);
    expect((await http.app.request(`/v1/knowledge/${a.id}/review`, json({ decision: 'maybe' }))).status).toBe(400);
  });

  it('reads and writes a workspace .tide.json through the settings API', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tidepool-ws-'));
    try {
      // HTTP reaches only registered workspaces, tokenless callers included (a browser could send the request).
      expect((await http.app.request('/v1/journal/config', json({ root, patch: { hotKeepDays: 11 } }, undefined, 'PUT'))).status).toBe(403);
      await mem.memory.registerJournalWorkspace(root);
      const r = await http.app.request('/v1/journal/config', json({ root, patch: { hotKeepDays: 11 } }, undefined, 'PUT'));
      expect(r.status).toBe(200);
      expect(JSON.parse(readFileSync(join(root, 'memory', '.tide.json'), 'utf8')).hotKeepDays).toBe(11);
      expect((await http.app.request('/v1/journal/config', json({ root, patch: { hotKeepDays: -1 } }, undefined, 'PUT'))).status).toBe(400);
      await http.app.request('/v1/journal/config', json({ root, reset: true }, undefined, 'PUT'));
      expect(JSON.parse(readFileSync(join(root, 'memory', '.tide.json'), 'utf8')).hotKeepDays).toBe(7);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('answers map, graph and an unknown route with the error shape on an empty memory', async () => {
    expect(await (await http.app.request('/v1/map')).json()).toMatchObject({ topics: [], soft: { kind: 'empty' } });
    expect(await (await http.app.request('/v1/graph')).json()).toMatchObject({ nodes: [], edges: [] });
    const nf = await http.app.request('/v1/nothing');
    expect(nf.status).toBe(404);
    expect(await nf.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('refuses another Host or Origin (DNS rebinding) and an oversized body', async () => {
    expect((await http.app.request('/v1/health', { headers: { host: 'evil.example:7077' } })).status).toBe(403);
    expect((await http.app.request('/v1/recall?q=x', { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    const small = appFor(mem.memory, { bodyLimitBytes: 100 });
    const r = await small.app.request('/v1/remember', json({ text: 'x'.repeat(500) }));
    expect(r.status).toBe(413);
    expect(await r.json()).toMatchObject({ error: { code: 'too_large' } });
  });

  it('erases its own space and refuses any other', async () => {
    expect((await http.app.request('/v1/spaces/other', { method: 'DELETE' })).status).toBe(403);
    expect((await http.app.request('/v1/spaces/default', { method: 'DELETE' })).status).toBe(200);
    expect((await mem.memory.timeline({})).total).toBe(0);
  });
});

describe('HTTP API with tokens required', () => {
  let mem: TempMemory;
  let http: HttpApp;
  let tok: { readA: string; writeA: string; adminA: string; writeB: string };
  beforeAll(async () => {
    mem = await tempMemory();
    http = appFor(mem.memory, { tokensRequired: true, rateLimitPerMinute: 1000 });
    const mk = async (space: string, scope: string) => (await createToken(appContextOf(mem.memory), { space, scope })).token;
    tok = { readA: await mk('alpha', 'read'), writeA: await mk('alpha', 'write'), adminA: await mk('alpha', 'admin'), writeB: await mk('beta', 'write') };
  });
  afterAll(async () => {
    await http.close();
    await mem.cleanup();
  });

  it('refuses a request without a token, with a malformed or unknown one, and stores only hashes', async () => {
    const r = await http.app.request('/v1/recall?q=x');
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toContain('Bearer');
    expect((await http.app.request('/v1/recall?q=x', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    expect((await http.app.request('/v1/recall?q=x', auth('tp_unknown'))).status).toBe(401);
    expect((await http.app.request('/v1/health')).status).toBe(200);
    const raw = await (appContextOf(mem.memory).store as unknown as { db: { all(sql: string): Promise<Array<{ hash: string }>> } }).db.all('SELECT hash FROM api_tokens');
    expect(raw.map((x) => x.hash)).not.toContain(tok.readA);
    expect(raw.every((x) => /^[0-9a-f]{64}$/.test(x.hash))).toBe(true);
  });

  it('lets a read token read but not write; a write token write but not erase', async () => {
    expect((await http.app.request('/v1/remember', json({ text: 'alpha secret plan' }, tok.readA))).status).toBe(403);
    expect((await http.app.request('/v1/remember', json({ text: 'alpha secret plan' }, tok.writeA))).status).toBe(201);
    expect((await http.app.request('/v1/ingest', json({ content: 'alpha turn' }, tok.readA))).status).toBe(403);
    expect((await http.app.request('/v1/import', { method: 'POST', body: '{"text":"x"}', headers: { authorization: `Bearer ${tok.readA}` } })).status).toBe(403);
    const hits = (await (await http.app.request('/v1/recall?q=alpha%20plan', auth(tok.readA))).json()) as { hits: Array<{ text: string }> };
    expect(hits.hits.map((h) => h.text)).toContain('alpha secret plan');
    expect((await http.app.request('/v1/spaces/alpha', auth(tok.writeA, 'DELETE'))).status).toBe(403);
  });

  it("keeps each token in its own space: beta cannot read or write alpha, nor learn whether a space exists", async () => {
    expect((await http.app.request('/v1/remember', json({ text: 'beta note about the plan' }, tok.writeB))).status).toBe(201);
    const fromB = (await (await http.app.request('/v1/recall?q=alpha%20secret%20plan', auth(tok.writeB))).json()) as { hits: Array<{ text: string }> };
    expect(fromB.hits.map((h) => h.text)).not.toContain('alpha secret plan');
    const exportB = await (await http.app.request('/v1/export', auth(tok.writeB))).text();
    expect(exportB).not.toContain('alpha secret plan');
    const existing = await http.app.request('/v1/spaces/alpha', auth(tok.adminA.replace(/.$/, '_'), 'DELETE'));
    expect(existing.status).toBe(401);
    const other = await http.app.request('/v1/spaces/beta', auth(tok.adminA, 'DELETE'));
    const missing = await http.app.request('/v1/spaces/nosuchspace', auth(tok.adminA, 'DELETE'));
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual(await missing.json());
    expect((await mem.memory.withSpace('beta').recall({ query: 'beta note' })).length).toBeGreaterThan(0);
    expect((await http.app.request('/v1/spaces/alpha', auth(tok.adminA, 'DELETE'))).status).toBe(200);
    expect((await mem.memory.withSpace('beta').recall({ query: 'beta note' })).length).toBeGreaterThan(0);
  });

  it('guards MCP over HTTP with the same tokens: none is 401, a read token cannot open a session', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    expect((await http.app.request('/mcp', { method: 'POST', headers, body: JSON.stringify(init) })).status).toBe(401);
    expect((await http.app.request('/mcp', { method: 'POST', headers: { ...headers, authorization: `Bearer ${tok.readA}` }, body: JSON.stringify(init) })).status).toBe(403);
    const ok = await http.app.request('/mcp', { method: 'POST', headers: { ...headers, authorization: `Bearer ${tok.writeB}` }, body: JSON.stringify(init) });
    expect(ok.status).toBe(200);
    const sid = ok.headers.get('mcp-session-id')!;
    // Another token cannot ride on beta's session.
    const hijack = await http.app.request('/mcp', { method: 'POST', headers: { ...headers, 'mcp-session-id': sid, authorization: `Bearer ${tok.writeA}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(hijack.status).toBe(404);
  });

  it('limits requests per token and answers 429 with Retry-After', async () => {
    const limited = appFor(mem.memory, { tokensRequired: true, rateLimitPerMinute: 3 });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await limited.app.request('/v1/timeline', auth(tok.writeB))).status);
    expect(codes).toEqual([200, 200, 200, 429]);
    const r = await limited.app.request('/v1/timeline', auth(tok.writeB));
    expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another token has its own budget.
    const other = (await createToken(appContextOf(mem.memory), { space: 'beta', scope: 'read' })).token;
    expect((await limited.app.request('/v1/timeline', auth(other))).status).toBe(200);
  });
});

describe('HTTP server on a real port', () => {
  it('serves REST and the dashboard on loopback; refuses a public bind without tokens and accepts it with one', async () => {
    const mem = await tempMemory();
    try {
      await expect(startHttpServer(mem.memory, { host: '0.0.0.0', port: 0 })).rejects.toThrow(/token/);
      const h = await startHttpServer(mem.memory, { host: '127.0.0.1', port: 0 });
      try {
        expect((await fetch(`${h.url}/v1/remember`, json({ text: 'real port memory' }))).status).toBe(201);
        const html = await (await fetch(`${h.url}/`)).text();
        expect(html).toContain('<html');
        // Vite names the entry by content hash: follow the page's own script tag.
        const entry = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
        expect(entry).toMatch(/^\/assets\/index-[\w-]+\.js$/);
        const js = await fetch(`${h.url}${entry}`);
        expect(js.headers.get('content-type')).toContain('javascript');
        expect(js.headers.get('content-security-policy')).not.toContain('unsafe-inline');
        expect((await fetch(`${h.url}/assets/..%2Fhttp-app.ts`)).status).toBe(404);
      } finally {
        await h.close();
      }
      const { token } = await createToken(appContextOf(mem.memory), { space: 'default', scope: 'read' });
      const pub = await startHttpServer(mem.memory, { host: '0.0.0.0', port: 0 });
      try {
        const port = new URL(pub.url).port;
        expect((await fetch(`http://127.0.0.1:${port}/v1/recall?q=real`)).status).toBe(401);
        expect((await fetch(`http://127.0.0.1:${port}/v1/recall?q=real`, auth(token))).status).toBe(200);
      } finally {
        await pub.close();
      }
    } finally {
      await mem.cleanup();
    }
  });
});

it('keeps the dashboard sources next to the server code and serves the Vite build', () => {
  expect(existsSync(join(import.meta.dirname, '..', 'src', 'surfaces', 'web', 'app', 'index.html'))).toBe(true);
  expect(existsSync(join(import.meta.dirname, '..', 'dist', 'web', 'index.html'))).toBe(true);
});
