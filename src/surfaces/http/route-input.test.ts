import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appContextOf, type Tidepool } from '../../app/tidepool.js';
import { openMemory } from '../../boot/open-memory.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';
import { createHttpApp, type HttpApp } from './http-app.js';

describe('route input at the HTTP edge', () => {
  let memory: Tidepool;
  let http: HttpApp;
  beforeAll(async () => {
    memory = await openMemory({ path: ':memory:', embedder: 'none', warn: () => undefined });
    http = createHttpApp({ memory, version: 'test', mcpServer: (session) => createMcpServer(memory, { session }) });
  });
  afterAll(async () => {
    await http.close();
    await memory.close();
  });

  const post = (path: string, body: string | Blob, type?: string) =>
    http.app.request(path, { method: 'POST', headers: type ? { 'content-type': type } : {}, body });

  it('reads a JSON body whatever its content type, as the API always has (curl -d, a bare fetch)', async () => {
    const typeless = await post('/v1/remember', new Blob(['{"text":"Ana prefers green tea"}']));
    expect(typeless.status).toBe(201);
    const plain = await post('/v1/remember', '{"text":"Ben runs the CI"}', 'text/plain');
    expect(plain.status).toBe(201);
    const hits = await memory.recall({ query: 'green tea' });
    expect(hits.map((h) => h.text)).toContain('Ana prefers green tea');
  });

  it('refuses a body that is not JSON, and a wrong field, in the API error shape the use case would give', async () => {
    const notJson = await post('/v1/remember', '{oops', 'text/plain');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: { code: 'invalid_input', message: 'the request body must be JSON (content-type: application/json)' } });
    const wrong = await post('/v1/remember', '{"text":5}', 'application/json');
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: { code: 'invalid_input', message: 'text: Invalid input: expected string, received number', field: 'text' } });
    // The same words the use case throws when a library caller passes the same input.
    await expect(memory.remember({ text: 5 } as unknown as { text: string })).rejects.toThrow('text: Invalid input: expected string, received number');
  });

  it('converts query strings for the shared schema: numbers, lists, the first of repeated names', async () => {
    const r = await http.app.request('/v1/recall?q=tea&q=ci&limit=1&layers=knowledge');
    expect(r.status).toBe(200);
    const { hits } = (await r.json()) as { hits: Array<{ text: string }> };
    expect(hits.map((h) => h.text)).toEqual(['Ana prefers green tea']);
    const bad = await http.app.request('/v1/recall?q=tea&limit=ten');
    expect(await bad.json()).toEqual({ error: { code: 'invalid_input', message: 'limit: Invalid input: expected number, received string', field: 'limit' } });
  });

  it('checks the scope before the input: a read token sending a bad body is 403, not 400', async () => {
    const { token } = await memory.createToken({ space: memory.space, scope: 'read' });
    const r = await http.app.request('/v1/remember', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{oops' });
    expect(r.status).toBe(403);
  });

  it('keeps the facade context private: surfaces see methods, app/ reaches the context through appContextOf', () => {
    expect(Object.keys(memory)).not.toContain('ctx');
    expect((memory as unknown as Record<string, unknown>).ctx).toBeUndefined();
    expect(appContextOf(memory.withSpace('other')).space).toBe('other');
  });
});
