/**
 * Access matrix of a server that requires tokens, over a real socket: every route of the OpenAPI document (iterated,
 * so a new route is covered without editing this file), `/mcp` and the dashboard, against callers without a token,
 * with a wrong token, with too small a scope and with another space's token; DNS rebinding (Host, Origin); MCP
 * through the SDK client; and no answer leaks another space, a token, a file path or a stack trace.
 * Past 400 lines on purpose (STYLE §4): one server and one set of seeded spaces serve every caller of the matrix.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, revokeToken } from '../src/app/tokens.js';
import { appContextOf, type Tidepool } from '../src/app/tidepool.js';
import { startHttpServer, type HttpHandle } from '../src/boot/serve.js';
import { createHttpApp } from '../src/surfaces/http/http-app.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { resultText } from './mcp-tool-cases.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';

// Names that appear in no generic message, so finding one in an answer is a leak.
const TARGET = 'tgt-space-a1';
const FOREIGN = 'frn-space-b2';
const MISSING = 'nosuch-space-c3';
const MARK = 'zephyrquill';
const SCOPES = ['read', 'write', 'admin'] as const;
type Scope = (typeof SCOPES)[number];

/** One operation of the API and the scope it needs. */
interface Route {
  method: string;
  template: string;
  needs: Scope | 'public';
}
/** What a route is aimed at: the space in its path, a knowledge id, a journal workspace. */
interface Aim {
  space: string;
  id: string;
  root: string;
}
interface Answer {
  status: number;
  text: string;
  headers: Headers;
  /** Everything the caller sent (URL and body): echoing it back is not a leak. */
  sent: string;
}

const MCP_INIT = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'matrix', version: '1' } },
});

let mem: TempMemory;
let server: HttpHandle;
let base: string;
let routes: Route[];
const tok = {} as Record<`${'t' | 'f'}${Scope}`, string> & { revoked: string };
let targetWs: string;
let strayWs: string;
let targetKnowledge: string;

const target = (): Tidepool => mem.memory.withSpace(TARGET);
const foreign = (): Tidepool => mem.memory.withSpace(FOREIGN);

/** The space's export; a token's `last_used_at` is dropped: using a token stamps it, which is not a change of data. */
async function lines(m: Tidepool): Promise<string[]> {
  const out: string[] = [];
  for await (const l of m.export()) {
    const x = JSON.parse(l) as { table?: string; row?: Record<string, unknown> };
    if (x.table === 'api_tokens') delete x.row!.last_used_at;
    out.push(JSON.stringify(x));
  }
  return out;
}

/** A quarantined knowledge entry of `m` (the review route needs one per approval). */
async function quarantined(m: Tidepool, text: string): Promise<string> {
  const r = await m.remember({ text });
  await appContextOf(m).store.forSpace(m.space).knowledge.setStatus([Number(r.id.slice(1))], 'quarantined', mem.clock.now());
  return r.id;
}

/** The route's request aimed at `aim`: path parameters, required query parameters and a valid body. */
function requestFor(r: Route, aim: Aim): { path: string; body?: string; headers: Record<string, string> } {
  const path = r.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(name === 'space' ? aim.space : name === 'id' ? aim.id : 'x'));
  const key = `${r.method} ${r.template}`;
  const json = { 'content-type': 'application/json' };
  if (r.method === 'GET' || r.method === 'DELETE') {
    const q = key === 'GET /v1/recall' ? `?q=${MARK}` : key.startsWith('GET /v1/journal/') && key !== 'GET /v1/journal/workspaces' ? `?root=${encodeURIComponent(aim.root)}` : key === 'GET /v1/know' ? `?q=${MARK}` : '';
    return { path: path + q, headers: {} };
  }
  const bodies: Record<string, string> = {
    'POST /v1/ingest': JSON.stringify({ content: 'matrix turn about the harbour', session: 'matrix' }),
    'POST /v1/import': '{"text":"matrix import about the harbour"}\n',
    'POST /v1/remember': JSON.stringify({ text: 'matrix memory about the harbour' }),
    'POST /v1/knowledge/{id}/review': JSON.stringify({ decision: 'approve' }),
    'PUT /v1/knowledge/{id}': JSON.stringify({ text: 'matrix correction about the harbour' }),
    'PUT /v1/journal/config': JSON.stringify({ root: aim.root, patch: { hotKeepDays: 9 } }),
  };
  return { path, body: bodies[key] ?? '{}', headers: json };
}

async function send(method: string, path: string, o: { token?: string; auth?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.auth !== undefined) headers.authorization = o.auth;
  else if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
  const res = await fetch(base + path, { method, headers, ...(o.body !== undefined ? { body: o.body } : {}) });
  return { status: res.status, text: await res.text(), headers: res.headers, sent: `${decodeURIComponent(path)}\n${o.body ?? ''}` };
}

/** Sends `r` aimed at `aim`; /mcp is an initialize. */
function call(r: Route, aim: Aim, o: { token?: string; auth?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  if (r.template === '/mcp') {
    return send('POST', '/mcp', { ...o, body: MCP_INIT, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...o.headers } });
  }
  const req = requestFor(r, aim);
  return send(r.method, req.path, { ...o, ...(req.body !== undefined ? { body: req.body } : {}), headers: { ...req.headers, ...o.headers } });
}

const label = (r: Route) => `${r.method} ${r.template}`;
const guarded = () => routes.filter((r) => r.needs !== 'public');
const writing = () => guarded().filter((r) => r.method !== 'GET');
const aimAtTarget = (): Aim => ({ space: TARGET, id: targetKnowledge, root: targetWs });

/**
 * What in `a` must not reach a caller of `callerSpace` (undefined: no valid token): a token, in an error a server path,
 * a stack trace, and anything of a space that is not the caller's. What the caller sent itself may come back.
 */
function leaks(a: Answer, callerSpace: string | undefined): string[] {
  const targetThings = [TARGET, MARK, targetWs];
  const otherSpaces = [...(callerSpace === TARGET ? [] : targetThings), ...(callerSpace === FOREIGN ? [] : [FOREIGN]), MISSING];
  const paths = a.status >= 400 ? [mem.dir, realpathSync(mem.dir), process.cwd()] : [];
  const found = [...Object.values(tok), ...paths, ...otherSpaces].filter((s) => a.text.includes(s) && !a.sent.includes(s));
  if (/\n\s+at \S|\bat \S+ \([^)]*:\d+:\d+\)|node_modules|\.(ts|js|mjs):\d+|"stack"/.test(a.text)) found.push('a stack trace');
  return found;
}

function expectNoLeak(a: Answer, callerSpace: string | undefined, what: string): void {
  expect(leaks(a, callerSpace), `${what} leaks`).toEqual([]);
}

/** A raw request with a chosen Host header (fetch does not let a caller set Host). */
function rawRequest(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  mem = await tempMemory({ config: { http: { rateLimitPerMinute: 1_000_000 } } });
  targetWs = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-matrix-ws-')));
  strayWs = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-matrix-stray-')));
  const t = target();
  await t.registerJournalWorkspace(targetWs);
  await t.remember({ text: `The ${MARK} launch code lives in the vault`, key: 'launch', subject: 'vault' });
  await t.record({ turns: [{ role: 'user', content: `ask ${MARK} about the harbour`, session: 'matrix' }, { role: 'assistant', content: `${MARK} answered` }] });
  await t.write({ gesture: `I mapped the ${MARK} harbour`, tags: [MARK] });
  await t.journal().add({ root: targetWs, heading: `${MARK} day`, content: `met ${MARK} at the pier` });
  targetKnowledge = await quarantined(t, `${MARK} prefers the north pier`);
  await foreign().remember({ text: 'The foreign team keeps its own notes about the harbour' });
  for (const s of SCOPES) {
    tok[`t${s}`] = (await createToken(appContextOf(mem.memory), { space: TARGET, scope: s })).token;
    tok[`f${s}`] = (await createToken(appContextOf(mem.memory), { space: FOREIGN, scope: s })).token;
  }
  const revoked = await createToken(appContextOf(mem.memory), { space: TARGET, scope: 'admin' });
  await revokeToken(appContextOf(mem.memory), revoked.id);
  tok.revoked = revoked.token;
  // A public bind: tokens are required on every request, reached here through 127.0.0.1.
  server = await startHttpServer(mem.memory, { host: '0.0.0.0', port: 0, toolsets: 'all' });
  base = `http://127.0.0.1:${new URL(server.url).port}`;
  const doc = (await (await fetch(`${base}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary?: string; security?: unknown[] }>> };
  routes = Object.entries(doc.paths).flatMap(([template, ops]) =>
    Object.entries(ops).map(([m, op]) => {
      const method = m.toUpperCase();
      const needs: Route['needs'] = op.security?.length === 0 ? 'public' : /\(admin\)/.test(op.summary ?? '') ? 'admin' : method === 'GET' ? 'read' : 'write';
      return { method, template, needs };
    }),
  );
  // MCP tools write (remember, record), so the endpoint needs a write token.
  routes.push({ method: 'POST', template: '/mcp', needs: 'write' });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await mem?.cleanup();
  for (const d of [targetWs, strayWs]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('the access matrix over a real socket (tokens required)', () => {
  it('takes its routes from the OpenAPI document, which lists every /v1 route the app serves', () => {
    const app = createHttpApp({ memory: mem.memory, version: 'test', mcpServer: (s) => createMcpServer(mem.memory, { session: s }) }).app;
    const served = app.routes
      .filter((r) => r.method !== 'ALL' && r.path.startsWith('/v1/'))
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(new Set([...routes.map(label), 'GET /v1/openapi.json'])).toEqual(new Set([...served, 'POST /mcp']));
    expect(guarded().length).toBeGreaterThanOrEqual(17);
    expect(routes.filter((r) => r.needs === 'admin').map(label).sort()).toEqual(['DELETE /v1/spaces/{space}', 'PUT /v1/journal/config']);
  });

  it('answers the public routes without a token, naming no space', async () => {
    // The dashboard's entry script is named by content hash (Vite): take it from the page.
    const entry = /src="(\/assets\/[^"]+\.js)"/.exec((await send('GET', '/')).text)?.[1];
    expect(entry).toBeDefined();
    for (const path of [...routes.filter((r) => r.needs === 'public').map((r) => r.template), '/', entry!]) {
      const a = await send('GET', path);
      expect(a.status, path).toBe(200);
      expect(a.text, path).not.toContain(TARGET);
      expect(a.text, path).not.toContain(FOREIGN);
      expect(a.text, path).not.toContain(MARK);
    }
  });

  it('refuses every guarded route without a token: 401 with a Bearer challenge', async () => {
    for (const r of guarded()) {
      const a = await call(r, aimAtTarget());
      expect(a.status, label(r)).toBe(401);
      expect(a.headers.get('www-authenticate'), label(r)).toContain('Bearer');
      expect(JSON.parse(a.text).error.code, label(r)).toBe('unauthorized');
      expectNoLeak(a, undefined, label(r));
    }
  });

  it('refuses every guarded route with a wrong token: unknown, revoked, one character off, another scheme, empty', async () => {
    const wrong = [
      `Bearer tp_${'A'.repeat(43)}`,
      `Bearer ${tok.revoked}`,
      `Bearer ${tok.tadmin.slice(0, -1)}${tok.tadmin.endsWith('A') ? 'B' : 'A'}`,
      `Basic ${Buffer.from(`x:${tok.tadmin}`).toString('base64')}`,
      'Bearer ',
      `Bearer ${tok.tadmin} extra`,
    ];
    for (const r of guarded()) {
      for (const auth of wrong) {
        const a = await call(r, aimAtTarget(), { auth });
        expect(a.status, `${label(r)} with ${auth.slice(0, 12)}…`).toBe(401);
        expectNoLeak(a, undefined, label(r));
      }
    }
  });

  it('refuses a read token on every writing route and a write token on every admin route (403), and changes nothing', async () => {
    const before = await lines(target());
    for (const r of writing()) {
      const a = await call(r, aimAtTarget(), { token: tok.tread });
      expect(a.status, label(r)).toBe(403);
      expect(JSON.parse(a.text).error.code, label(r)).toBe('forbidden');
      expectNoLeak(a, TARGET, label(r));
    }
    for (const r of guarded().filter((x) => x.needs === 'admin')) {
      const a = await call(r, aimAtTarget(), { token: tok.twrite });
      expect(a.status, label(r)).toBe(403);
      expectNoLeak(a, TARGET, label(r));
    }
    expect(await lines(target())).toEqual(before);
  });

  it("lets the space's own token with enough scope through on every route (the control)", async () => {
    for (const r of guarded()) {
      if (r.method === 'DELETE') continue; // erasing the space comes last
      // An edit needs a live entry; the review route one waiting for review; the others take either.
      const fresh = async () =>
        label(r) === 'PUT /v1/knowledge/{id}' ? (await target().remember({ text: `${MARK} control edit` })).id : quarantined(target(), `${MARK} control ${r.template}`);
      const aim = { ...aimAtTarget(), id: r.template.includes('{id}') ? await fresh() : targetKnowledge };
      const token = r.needs === 'admin' ? tok.tadmin : r.needs === 'write' ? tok.twrite : tok.tread;
      const a = await call(r, aim, { token });
      expect(a.status, `${label(r)}: ${a.text.slice(0, 200)}`).toBeGreaterThanOrEqual(200);
      expect(a.status, `${label(r)}: ${a.text.slice(0, 200)}`).toBeLessThan(300);
    }
    const hits = JSON.parse((await call(routes.find((r) => r.template === '/v1/recall')!, aimAtTarget(), { token: tok.tread })).text) as { hits: Array<{ text: string }> };
    expect(hits.hits.some((h) => h.text.includes(MARK))).toBe(true);
  });

  it("never lets another space's token read or write this space, at any scope", async () => {
    const before = await lines(target());
    for (const scope of SCOPES) {
      for (const r of guarded()) {
        const aim = aimAtTarget();
        // Also try to name the space outright: a query parameter, and a body field where the schema tolerates one.
        const a = await call(r, aim, { token: tok[`f${scope}`] });
        const req = requestFor(r, aim);
        const steer = r.template === '/mcp' ? undefined : await send(r.method, `${req.path}${req.path.includes('?') ? '&' : '?'}space=${TARGET}`, {
          token: tok[`f${scope}`], headers: req.headers,
          ...(req.body !== undefined ? { body: r.template === '/v1/remember' ? JSON.stringify({ ...JSON.parse(req.body), space: TARGET }) : req.body } : {}),
        });
        for (const x of steer ? [a, steer] : [a]) {
          expect(x.status, `${label(r)} as ${FOREIGN}/${scope}`).toBeLessThan(500);
          expectNoLeak(x, FOREIGN, `${label(r)} as ${FOREIGN}/${scope}`);
        }
      }
    }
    expect(await lines(target())).toEqual(before);
    // The writes landed in the caller's own space, not nowhere.
    expect((await foreign().recall({ query: 'matrix harbour' })).length).toBeGreaterThan(0);
  });

  it("answers a foreign token the same for this space's resources as for ones that do not exist", async () => {
    const variable = routes.filter((r) => r.template.includes('{') || r.template === '/v1/journal/config');
    expect(variable.length).toBeGreaterThanOrEqual(4);
    for (const scope of SCOPES) {
      for (const r of variable) {
        const existing = aimAtTarget();
        const absent: Aim = { space: MISSING, id: 'k987654', root: strayWs };
        const a = await call(r, existing, { token: tok[`f${scope}`] });
        const b = await call(r, absent, { token: tok[`f${scope}`] });
        const norm = (x: Answer, aim: Aim) => `${x.status} ${x.text.replaceAll(aim.space, '<space>').replaceAll(aim.id, '<id>').replaceAll(aim.root, '<root>')}`;
        expect(norm(a, existing), `${label(r)} as ${FOREIGN}/${scope}`).toBe(norm(b, absent));
        expect(a.status, label(r)).toBeGreaterThanOrEqual(400);
      }
    }
    // Erasing another space: the same 403 for an existing and a missing one, and the target keeps its data.
    const erase = routes.find((r) => r.method === 'DELETE' && r.template === '/v1/spaces/{space}')!;
    const a = await call(erase, aimAtTarget(), { token: tok.fadmin });
    expect(a.status).toBe(403);
    expect(a.text).toBe((await call(erase, { ...aimAtTarget(), space: MISSING }, { token: tok.fadmin })).text);
    expect((await target().recall({ query: MARK })).length).toBeGreaterThan(0);
  });

  it('refuses a page of another origin even with a valid token (403)', async () => {
    for (const r of guarded()) {
      const a = await call(r, aimAtTarget(), { token: tok.tadmin, headers: { origin: 'http://evil.example' } });
      expect(a.status, label(r)).toBe(403);
      expectNoLeak(a, TARGET, label(r));
    }
  });

  it('answers another Host name on a public server only with a token: without one it is 401', async () => {
    for (const r of guarded()) {
      const req = r.template === '/mcp' ? { path: '/mcp', body: MCP_INIT, headers: { 'content-type': 'application/json' } } : requestFor(r, aimAtTarget());
      const a = await rawRequest(base + req.path, r.method, { ...req.headers, host: 'evil.example' }, req.body);
      expect(a.status, label(r)).toBe(401);
      expect(a.text).not.toContain(MARK);
    }
  });
});

describe('DNS rebinding on a loopback server (no tokens needed there)', () => {
  it('refuses Host: evil.example and Origin: http://evil.example on every route, and changes nothing', async () => {
    const loop = await startHttpServer(mem.memory, { host: '127.0.0.1', port: 0 });
    try {
      await mem.memory.remember({ text: `default space holds ${MARK} too` });
      const before = await lines(mem.memory);
      const all = [...routes, { method: 'GET', template: '/', needs: 'public' as const }];
      for (const r of all) {
        const aim = { space: mem.memory.space, id: 'k1', root: targetWs };
        const req = r.template === '/mcp' ? { path: '/mcp', body: MCP_INIT, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } } : requestFor(r, aim);
        const host = await rawRequest(loop.url + req.path, r.method, { ...req.headers, host: 'evil.example' }, req.body);
        expect(host.status, `${label(r)} Host`).toBe(403);
        expect(host.text).not.toContain(MARK);
        const origin = await rawRequest(loop.url + req.path, r.method, { ...req.headers, origin: 'http://evil.example' }, req.body);
        expect(origin.status, `${label(r)} Origin`).toBe(403);
        expect(origin.text).not.toContain(MARK);
      }
      expect(await lines(mem.memory)).toEqual(before);
      // The control: the server's own name passes.
      expect((await rawRequest(`${loop.url}/v1/recall?q=${MARK}`, 'GET', { host: `localhost:${new URL(loop.url).port}` })).status).toBe(200);
    } finally {
      await loop.close();
    }
  });
});

describe('MCP over HTTP with the same tokens (SDK client)', () => {
  const connect = async (token?: string): Promise<Client> => {
    const client = new Client({ name: 'matrix', version: '1.0.0' });
    const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
    return client;
  };
  const failure = async (token?: string): Promise<string> => {
    try {
      const c = await connect(token);
      await c.close();
    } catch (e) {
      return `${(e as { code?: unknown }).code} ${e instanceof Error ? e.message : String(e)}`;
    }
    throw new Error('connected');
  };

  it('cannot connect without a token, with a wrong or revoked one, or with a read token', async () => {
    for (const t of [undefined, `tp_${'Z'.repeat(43)}`, tok.revoked, tok.tread]) {
      const message = await failure(t);
      expect(message).toMatch(/^40[13] /);
      const a: Answer = { status: 401, text: message, headers: new Headers(), sent: '' };
      expectNoLeak(a, undefined, `MCP with ${t?.slice(0, 6) ?? 'no token'}`);
    }
  });

  it("reads and writes only its own space with another space's write token", async () => {
    const before = await lines(target());
    const c = await connect(tok.fwrite);
    try {
      // The journal tools are called with the target's workspace path, so an answer may name that path back.
      const seen: string[] = [c.getInstructions() ?? ''];
      const text = async (name: string, args: Record<string, unknown>) => {
        const r = await c.callTool({ name, arguments: args });
        const t = `${resultText(r)}\n${JSON.stringify(r.structuredContent ?? {})}`;
        seen.push(t);
        return { isError: r.isError === true, text: t };
      };
      await text('recall', { query: MARK });
      await text('know', { query: MARK });
      await text('timeline', {});
      await text('journal_search', { root: targetWs, query: MARK });
      await text('journal_read', { root: targetWs });
      await text('remember', { text: 'written through MCP by the foreign token' });
      const forgetTarget = await text('forget', { id: targetKnowledge });
      const forgetMissing = await text('forget', { id: 'k987654' });
      expect(forgetTarget.isError).toBe(true);
      expect(forgetTarget.text.replaceAll(targetKnowledge, '<id>')).toBe(forgetMissing.text.replaceAll('k987654', '<id>'));
      seen.push(((await c.readResource({ uri: 'tidepool://context' })).contents[0] as { text?: string }).text ?? '');
      for (const s of seen) {
        expect(s).not.toContain(MARK);
        expect(s).not.toContain(TARGET);
      }
    } finally {
      await c.close();
    }
    expect(await lines(target())).toEqual(before);
    expect((await foreign().recall({ query: 'written through MCP' })).length).toBeGreaterThan(0);
  });

  it("finds this space's memory with its own write token (the control)", async () => {
    const c = await connect(tok.twrite);
    try {
      expect(resultText(await c.callTool({ name: 'recall', arguments: { query: MARK } }))).toContain(MARK);
    } finally {
      await c.close();
    }
  });

  it('cannot erase the whole space with a write token: that needs admin, as DELETE /v1/spaces does', async () => {
    const c = await connect(tok.twrite);
    try {
      const r = await c.callTool({ name: 'forget', arguments: { all: true, confirm: true } });
      expect(r.isError, resultText(r)).toBe(true);
      expect(resultText(r)).toMatch(/admin/);
    } finally {
      await c.close();
    }
    expect((await target().recall({ query: MARK })).length).toBeGreaterThan(0);
    // The control: an admin token may, and it erases only its own space.
    const admin = await connect(tok.fadmin);
    try {
      expect(resultText(await admin.callTool({ name: 'forget', arguments: { all: true, confirm: true } }))).toBe(`Erased space ${FOREIGN}.`);
    } finally {
      await admin.close();
    }
    expect(await lines(foreign())).toEqual([JSON.stringify({ format: 'tidepool-export/1', space: FOREIGN })]);
    expect((await target().recall({ query: MARK })).length).toBeGreaterThan(0);
  });
});

describe('erasing a space', () => {
  it("erases its own space with an admin token, leaves the other space whole, and the erased token's space stays empty", async () => {
    const erase = routes.find((r) => r.method === 'DELETE' && r.template === '/v1/spaces/{space}')!;
    const foreignBefore = await lines(foreign());
    const a = await call(erase, aimAtTarget(), { token: tok.tadmin });
    expect(a.status).toBe(200);
    expect(JSON.parse(a.text)).toEqual({ erased: TARGET });
    expect(await lines(target())).toEqual([JSON.stringify({ format: 'tidepool-export/1', space: TARGET })]);
    expect(await lines(foreign())).toEqual(foreignBefore);
    expect(existsSync(targetWs)).toBe(true);
  });
});
