/**
 * Limits that keep one caller from hurting another: MCP sessions are capped per space (one space's many sessions
 * never close another space's), and bad tokens are rate-limited per client address without slowing valid tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../src/app/tokens.js';
import { createHttpApp, type HttpApp } from '../src/surfaces/http/http-app.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';

const INIT = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'limits-test', version: '1' } },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('per-space MCP session cap and bad-token rate limit', () => {
  let mem: TempMemory;
  let http: HttpApp;
  let tok: { a: string; b: string };
  beforeAll(async () => {
    mem = await tempMemory();
    http = createHttpApp({
      memory: mem.memory, version: 'test', tokensRequired: true, rateLimitPerMinute: 20, mcpSessionsPerSpace: 3,
      mcpServer: (session, p) => createMcpServer(p?.memory ?? mem.memory, { session }),
    });
    tok = {
      a: (await createToken(mem.memory.ctx, { space: 'alpha', scope: 'write' })).token,
      b: (await createToken(mem.memory.ctx, { space: 'beta', scope: 'write' })).token,
    };
  });
  afterAll(async () => {
    await http.close();
    await mem.cleanup();
  });

  const open = async (token: string) => {
    const r = await http.app.request('/mcp', { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` }, body: INIT });
    expect(r.status).toBe(200);
    await r.text();
    return r.headers.get('mcp-session-id')!;
  };
  const ping = async (token: string, session: string) => {
    const r = await http.app.request('/mcp', {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${token}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    await r.text();
    return r.status;
  };

  it("closes only the space's own oldest session when it opens more than its cap", async () => {
    const beta = await open(tok.b);
    const alpha = [await open(tok.a), await open(tok.a), await open(tok.a), await open(tok.a), await open(tok.a)];
    expect(await ping(tok.b, beta)).toBe(200);
    // Alpha's two oldest were closed to make room for its fourth and fifth; its three newest live.
    expect(await ping(tok.a, alpha[0]!)).toBe(404);
    expect(await ping(tok.a, alpha[1]!)).toBe(404);
    for (const s of alpha.slice(2)) expect(await ping(tok.a, s)).toBe(200);
  });

  it('answers bad tokens 401 until the address spent its allowance, then 429; a valid token still passes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const r = await http.app.request('/v1/recall?q=x', { headers: { authorization: `Bearer tp_guess${i}` } });
      statuses.push(r.status);
      if (r.status === 429) expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    // Beta has stored nothing yet (404 names the empty space): what matters is that the token is accepted.
    expect([200, 404]).toContain((await http.app.request('/v1/recall?q=x', { headers: { authorization: `Bearer ${tok.b}` } })).status);
  });
});
