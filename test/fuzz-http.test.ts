/**
 * Property tests over every REST endpoint (issue #6): hostile query strings and bodies, invalid JSON, wrong
 * content types, huge and deeply nested bodies get a 4xx `{ error: { code, message } }` or a correct 2xx — never a
 * 500, a hang, a stack trace or a changed store on error.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../src/app/tokens.js';
import { startHttpServer } from '../src/boot/serve.js';
import { recordInput, rememberInput } from '../src/core/schemas.js';
import { createHttpApp, type HttpApp } from '../src/surfaces/http/http-app.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import {
  CREDENTIALS, describeInput, fromSchema, hostileString, keepInside, storeDigest, treeDigest, unclearMessage, within, wrongValue, type JsonSchema,
} from './helpers/hostile.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

const SEED = 20_260_602;
const RUNS = { query: 40, body: 40, rawBody: 30, nested: 6, headers: 40 } as const;
const REQUEST_MS = 30_000;

/** Every GET route of `/v1` with the query parameters it reads. */
const GET_ROUTES: Record<string, readonly string[]> = {
  '/v1/health': [],
  '/v1/openapi.json': [],
  '/v1/recall': ['q', 'query', 'limit', 'layers', 'kinds', 'since', 'until', 'session', 'maxTokens', 'includeArchived'],
  '/v1/know': ['subject', 'q', 'kinds', 'limit'],
  '/v1/timeline': ['from', 'to', 'session', 'limit', 'offset', 'order'],
  '/v1/briefing': ['date', 'day'],
  '/v1/export': [],
  '/v1/knowledge': ['kind', 'status', 'limit', 'offset'],
  '/v1/map': ['days'],
  '/v1/graph': [],
  '/v1/journal/workspaces': [],
  '/v1/journal/config': ['root'],
};

/** Routes with a body: method and path (a `:id` is filled by the property). */
const BODY_ROUTES = [
  ['POST', '/v1/remember'],
  ['POST', '/v1/ingest'],
  ['POST', '/v1/import'],
  ['POST', '/v1/knowledge/:id/review'],
  ['PUT', '/v1/journal/config'],
  ['DELETE', '/v1/spaces/:id'],
  ['POST', '/mcp'],
] as const;

const jsonSchema = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

let base: string;
let workspace: string;
let previousCwd: string;
let mem: TempMemory;
let http: HttpApp;

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-fuzz-http-')));
  workspace = join(base, 'workspace');
  mkdirSync(join(base, 'cwd'));
  mkdirSync(workspace);
  // The tokenless journal settings route may name any folder relative to the working directory: keep it in a temp dir.
  previousCwd = process.cwd();
  process.chdir(join(base, 'cwd'));
  mem = await tempMemory();
  await mem.memory.remember({ text: 'The staging database listens on port 6543', key: 'staging.port' });
  await mem.memory.record({ turns: [{ role: 'user', content: 'check staging', session: 's1' }, { role: 'assistant', content: 'on 6543', session: 's1' }] });
  await mem.memory.registerJournalWorkspace(workspace);
  http = createHttpApp({ memory: mem.memory, version: 'test', mcpServer: (session, p) => createMcpServer(p?.memory ?? mem.memory, { session }) });
});

afterAll(async () => {
  await http.close();
  await mem.cleanup();
  process.chdir(previousCwd);
  rmSync(base, { recursive: true, force: true });
});

interface Answer {
  status: number;
  text: string;
  contentType: string;
}

async function send(app: HttpApp, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await within(REQUEST_MS, `${init.method ?? 'GET'} ${path.slice(0, 200)}`, Promise.resolve(app.app.request(path, init)));
  return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') ?? '' };
}

/** The error shape of `/v1` (and the JSON-RPC one of `/mcp`), with a message that holds no stack or source path. */
function expectCleanError(a: Answer, path: string, input: unknown, where: string): void {
  const body = JSON.parse(a.text) as { error?: { code?: unknown; message?: unknown }; jsonrpc?: string };
  expect(typeof body.error?.message, where).toBe('string');
  // `/mcp` answers JSON-RPC errors itself; the guards in front of it (token, body limit) use the REST shape.
  if (path !== '/mcp' || body.jsonrpc !== '2.0') expect(typeof body.error?.code, where).toBe('string');
  expect(unclearMessage(String(body.error?.message), input), where).toBeUndefined();
}

/** Success oracles: the answer is the JSON (or JSON lines) the route promises. */
function expectCorrectSuccess(a: Answer, method: string, path: string, body: unknown, where: string): void {
  if (path === '/v1/export') {
    for (const line of a.text.trim().split('\n')) JSON.parse(line);
    return;
  }
  if (path === '/mcp') return;
  const doc = JSON.parse(a.text) as Record<string, unknown>;
  if (path === '/v1/remember') expect(String(doc.id), where).toMatch(/^k\d+$/);
  if (path === '/v1/ingest') expect(Array.isArray(doc.ids), where).toBe(true);
  if (path === '/v1/import') expect(doc.imported, where).toBe(String(body).split('\n').filter((l) => l.trim()).length);
  if (path === '/v1/recall') expect(Array.isArray(doc.hits), where).toBe(true);
  if (path === '/v1/timeline') expect(Array.isArray(doc.items), where).toBe(true);
  if (method === 'GET' && path === '/v1/know') expect(Array.isArray(doc.entries), where).toBe(true);
}

/** One request: it settles under 500, and an error changed neither the store nor the workspace. */
async function check(app: HttpApp, method: string, path: string, init: RequestInit, input: unknown): Promise<Answer> {
  const before = await storeDigest(mem.memory);
  const files = treeDigest(base);
  const a = await send(app, path, { ...init, method });
  const where = `${method} ${path.slice(0, 300)} ${describeInput(input)} → ${a.status} ${a.text.slice(0, 300)}`;
  expect(a.status, where).toBeLessThan(500);
  if (a.status >= 400) {
    expectCleanError(a, path.split('?')[0]!, input, where);
    expect(await storeDigest(mem.memory), `store changed on error: ${where}`).toBe(before);
    expect(treeDigest(base), `files changed on error: ${where}`).toBe(files);
  } else {
    expectCorrectSuccess(a, method, path.split('?')[0]!, init.body, where);
  }
  return a;
}

/** A query value: hostile text (URL-encoded by URLSearchParams) or a raw, possibly broken, percent-encoding. */
const queryValue = fc.oneof(
  { weight: 4, arbitrary: hostileString().map((v) => new URLSearchParams({ v }).toString().slice(2)) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%Z', '%ZZ', '%FF', '%ED%A0%80', '%00', '%E4%B8', '%%%', '+', '&', '=', '[]', '%5B%5D', '1e999', '-0', '0x1f') },
);

const contentTypes = fc.constantFrom(
  'application/json', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', 'application/x-ndjson', '', 'application/json; charset=utf-8; charset=latin1',
);

function bodyFor(method: string, path: string): fc.Arbitrary<[string, unknown]> {
  const id = fc.oneof(fc.constantFrom('k1', 'k2', 'default', 'n1', 'e1', 'k99999'), hostileString({ huge: false })).map((v) => encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '')) || 'x');
  const at = (p: string) => id.map((v) => p.replace(':id', v));
  const json = (a: fc.Arbitrary<unknown>) => a.map((v) => JSON.stringify(v));
  switch (path) {
    case '/v1/remember':
      return fc.tuple(fc.constant(path), json(fc.oneof(fromSchema(jsonSchema(rememberInput)), wrongValue)));
    case '/v1/ingest': {
      const turn = fromSchema(jsonSchema(recordInput));
      const envelope = fc.oneof(turn, fc.record({ type: fc.oneof(fc.constant('tool_result'), hostileString({ huge: false })), payload: fc.oneof(turn, wrongValue) }), fc.record({ events: fc.array(fc.oneof(turn, wrongValue), { maxLength: 3 }) }), wrongValue);
      return fc.tuple(fc.constant(path), json(envelope));
    }
    case '/v1/import': {
      // Mostly storable lines with at most one refused line (a credential, a wrong type, not JSON) somewhere among
      // them: a refusal anywhere must store no line at all.
      const good = json(fc.record({ text: hostileString() }));
      const bad = fc.oneof(json(fc.record({ text: fc.constantFrom(...CREDENTIALS) })), json(fromSchema(jsonSchema(rememberInput))), hostileString({ huge: false }), json(wrongValue));
      return fc
        .tuple(fc.array(good, { minLength: 1, maxLength: 4 }), fc.option(bad, { nil: undefined }), fc.nat())
        .map(([lines, b, at]) => (b === undefined ? lines : [...lines.slice(0, at % (lines.length + 1)), b, ...lines.slice(at % (lines.length + 1))]))
        .map((lines) => [path, lines.join('\n')] as [string, unknown]);
    }
    case '/v1/knowledge/:id/review':
      return fc.tuple(at(path), json(fc.oneof(fc.record({ decision: fc.oneof(fc.constantFrom('approve', 'reject'), hostileString({ huge: false })) }), wrongValue)));
    case '/v1/journal/config': {
      // The tokenless caller may name any folder (DESIGN §10): hostile roots stay inside the temp folder.
      const root = fc.oneof({ weight: 3, arbitrary: fc.constant(workspace) }, { weight: 1, arbitrary: hostileString({ huge: false }).map((p) => keepInside(base, join(base, 'cwd'), p)) }, { weight: 1, arbitrary: wrongValue });
      const patch = fc.oneof(fc.dictionary(fc.constantFrom('hotKeepDays', 'coldKeepDays', 'searchLimit', 'agentsHint', '__proto__', 'x'), wrongValue, { maxKeys: 3 }), wrongValue);
      return fc.tuple(fc.constant(path), json(fc.record({ root, patch, reset: fc.oneof(fc.boolean(), wrongValue) }, { requiredKeys: ['root'] })));
    }
    case '/v1/spaces/:id':
      return fc.tuple(at(path), fc.constant(''));
    default:
      return fc.tuple(fc.constant(path), json(fc.oneof(wrongValue, fc.record({ jsonrpc: fc.constant('2.0'), id: wrongValue, method: fc.oneof(fc.constantFrom('initialize', 'tools/call', 'tools/list'), hostileString({ huge: false })), params: wrongValue }))));
  }
}

describe('REST API under hostile input', () => {
  it.each(Object.entries(GET_ROUTES).map(([p, params], i) => [p, params, i] as const))(
    'GET %s: hostile and broken query strings',
    { timeout: 120_000 },
    async (path, params, i) => {
      const names = fc.constantFrom(...params, 'x', '__proto__', 'q[]');
      // A journal root read by the tokenless caller lays out memory/ where it points: keep it in the temp folder.
      const rootValue = hostileString({ huge: false }).map((p) => new URLSearchParams({ v: keepInside(base, join(base, 'cwd'), p) }).toString().slice(2));
      const pair = names.chain((k) => fc.tuple(fc.constant(k), k === 'root' ? rootValue : queryValue));
      const query = fc.array(pair, { maxLength: 4 }).map((kv) => kv.map(([k, v]) => `${k}=${v}`).join('&'));
      await fc.assert(
        fc.asyncProperty(query, async (q) => {
          await check(http, 'GET', `${path}?${q}`, {}, q);
        }),
        { seed: SEED + i, numRuns: RUNS.query },
      );
    },
  );

  it.each(BODY_ROUTES.map(([m, p], i) => [m, p, i] as const))('%s %s: hostile, wrongly typed and broken bodies', { timeout: 120_000 }, async (method, path, i) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    // JSON shaped by the route's own schema, with hostile strings in it.
    await fc.assert(
      fc.asyncProperty(bodyFor(method, path), async ([p, body]) => {
        await check(http, method, p, { headers, body: method === 'DELETE' ? undefined : (body as string) }, body);
      }),
      { seed: SEED + 100 + i, numRuns: RUNS.body },
    );
    if (method === 'DELETE') return;
    // Bodies that are not JSON at all, under any content type.
    const raw = fc.tuple(fc.oneof(hostileString(), fc.constantFrom('{', '[', '{"text":', '{"text":"x"', 'nul', '\uFEFF{"text":"x"}', '{"text":"x"}{"text":"y"}', '{"text":"a\\ud800"}', '{"text":"\\u0000"}')), contentTypes);
    await fc.assert(
      fc.asyncProperty(bodyFor(method, path), raw, async ([p], [body, type]) => {
        await check(http, method, p, { headers: { ...headers, 'content-type': type }, body }, body);
      }),
      { seed: SEED + 200 + i, numRuns: RUNS.rawBody },
    );
    // JSON nested 1,000-20,000 levels deep, as text (JSON.stringify would overflow first).
    const nested = fc.tuple(bodyFor(method, path), fc.integer({ min: 1_000, max: 20_000 }), fc.constantFrom('text', 'turns', 'meta', 'payload', 'patch', 'decision'));
    await fc.assert(
      fc.asyncProperty(nested, async ([[p], depth, key]) => {
        const body = `{"${key}":${'['.repeat(depth)}1${']'.repeat(depth)}}`;
        await check(http, method, p, { headers, body }, key);
      }),
      { seed: SEED + 300 + i, numRuns: RUNS.nested },
    );
  });

  it('refuses a body over the limit with 413 and the error shape, on every body route, storing nothing', { timeout: 120_000 }, async () => {
    const huge = JSON.stringify({ text: 'x'.repeat(2_100_000) });
    for (const [method, path] of BODY_ROUTES) {
      const a = await check(http, method, path.replace(':id', 'k1'), { headers: { 'content-type': 'application/json' }, body: huge }, 'huge');
      // DELETE reads no body, but the limit applies before the route; the answer is 413 either way.
      expect(a.status, `${method} ${path}`).toBe(413);
      expect(JSON.parse(a.text)).toMatchObject({ error: { code: 'too_large' } });
    }
  });

  it('imports all lines or none: a refused credential on a later line stores no earlier line', { timeout: 60_000 }, async () => {
    const body = ['{"text":"import probe one"}', '{"text":"my key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd"}'].join('\n');
    const a = await check(http, 'POST', '/v1/import', { headers: { 'content-type': 'application/x-ndjson' }, body }, body);
    expect(a.status).toBe(422);
    expect(JSON.parse(a.text)).toMatchObject({ error: { code: 'secret_refused', field: 'line 2.text' } });
  });

  it('answers deeply nested JSON that is valid at the schema level (record meta) without crashing', { timeout: 60_000 }, async () => {
    // JSON.parse takes any depth; JSON.stringify (used to store meta) overflows past some thousands of levels.
    for (const depth of [2_000, 200_000]) {
      const body = `{"content":"deep meta","meta":{"a":${'['.repeat(depth)}1${']'.repeat(depth)}}}`;
      const a = await check(http, 'POST', '/v1/ingest', { headers: { 'content-type': 'application/json' }, body }, 'meta');
      expect(a.status, a.text).toBeLessThan(500);
    }
  });

  it('hostile Authorization, Host and Origin headers get 401/403 with the error shape, never a 500', { timeout: 120_000 }, async () => {
    const guarded = createHttpApp({ memory: mem.memory, version: 'test', tokensRequired: true, rateLimitPerMinute: 100_000, mcpServer: (s) => createMcpServer(mem.memory, { session: s }) });
    try {
      const { token } = await createToken(appContextOf(mem.memory), { space: 'default', scope: 'read' });
      // Header values are ByteStrings without CR, LF or NUL: anything else cannot be sent.
      const headerValue = fc.oneof(
        fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
        fc.constantFrom('Bearer', 'Bearer ', `Bearer ${token}x`, `bearer ${token.slice(0, -1)}`, 'Basic Og==', `Bearer ${'a'.repeat(10_000)}`, 'Bearer \t', '[::1]', 'http://[::1', 'null', 'file://', 'http://localhost:99999'),
      );
      const header = fc.tuple(fc.constantFrom('authorization', 'host', 'origin'), headerValue);
      await fc.assert(
        fc.asyncProperty(header, fc.constantFrom('/v1/recall?q=staging', '/v1/timeline', '/mcp', '/v1/export'), async ([name, value], path) => {
          const a = await check(guarded, 'GET', path, { headers: { [name]: value } }, value);
          if (a.status < 400) expect(name, `${name}: ${value} passed`).not.toBe('authorization');
        }),
        { seed: SEED + 400, numRuns: RUNS.headers },
      );
    } finally {
      await guarded.close();
    }
  });
});

describe('REST API over a real socket', () => {
  it('answers broken JSON with 400, a huge body with 413 and a malformed URL without a 500', { timeout: 60_000 }, async () => {
    const server = await startHttpServer(mem.memory, { host: '127.0.0.1', port: 0 });
    try {
      const before = await storeDigest(mem.memory);
      const bad = await fetch(`${server.url}/v1/remember`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text": "unterminated' });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error: { code: 'invalid_input' } });
      const huge = await fetch(`${server.url}/v1/ingest`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: '字'.repeat(1_000_000) }) });
      expect(huge.status).toBe(413);
      expect(await huge.json()).toMatchObject({ error: { code: 'too_large' } });
      const url = await fetch(`${server.url}/v1/recall?q=%ED%A0%80%FF%&limit=%ZZ`);
      expect(url.status).toBeLessThan(500);
      expect(((await url.json()) as { error?: { code: string } }).error?.code ?? 'ok').toMatch(/^(ok|invalid_input)$/);
      expect(await storeDigest(mem.memory)).toBe(before);
    } finally {
      await server.close();
    }
  });
});
