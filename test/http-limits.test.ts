/**
 * Limits that keep one caller from hurting another: MCP sessions are capped per space (one space's many sessions
 * never close another space's), bad tokens are rate-limited per client address without slowing valid tokens, and
 * a body over the limit gets a 413 the client reads even when it sends the whole body before reading.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer } from '../src/boot/serve.js';
import { createToken } from '../src/app/tokens.js';
import { createHttpApp, type HttpApp } from '../src/surfaces/http/http-app.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

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
      a: (await createToken(appContextOf(mem.memory), { space: 'alpha', scope: 'write' })).token,
      b: (await createToken(appContextOf(mem.memory), { space: 'beta', scope: 'write' })).token,
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

/**
 * Sends a chunked POST over a raw socket the way a client that writes its whole body before it reads does: `chunks`
 * chunks of `size` bytes, one every `everyMs`, then reads whatever the server answered. Resolves with what was read.
 */
function slowChunkedPost(port: number, headers: Record<string, string>, o: { chunks: number; size: number; everyMs: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    // Nothing is read until the body is sent: a reset from the server would drop the answer from the receive buffer.
    s.pause();
    let got = '';
    s.on('error', (e) => reject(new Error(`${(e as NodeJS.ErrnoException).code ?? e.message} after ${got.length} bytes read`)));
    const head = Object.entries({ host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers });
    s.write(`POST /v1/remember HTTP/1.1\r\n${head.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
    const chunk = `{"text":"${'a'.repeat(o.size)}`.slice(0, o.size);
    let sent = 0;
    const tick = () => {
      if (sent++ < o.chunks) {
        s.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
        setTimeout(tick, o.everyMs);
        return;
      }
      s.write('0\r\n\r\n');
      s.on('data', (d: Buffer) => {
        got += d.toString();
        if (/\r\n\r\n[\s\S]*\}$/u.test(got)) {
          s.end();
          resolve(got);
        }
      });
      s.resume();
    };
    tick();
  });
}

describe('over-limit chunked bodies on a real server', () => {
  // The token server's body outlasts @hono/node-server's 500 ms drain, after which it used to destroy the socket
  // mid-body; the loopback one's (1.6 MB over 6.5 s) outlasts Node's 5 s keep-alive timeout, which fired once the
  // app's unread body stream had paused the request.
  const SENDS = { token: { chunks: 400, size: 1_000, everyMs: 3 }, 'tokenless loopback': { chunks: 100, size: 16_000, everyMs: 65 } };
  for (const mode of ['tokenless loopback', 'token'] as const) {
    it(`answers a slowly sent chunked body over the limit with a 413 the client reads (${mode} server)`, { timeout: 60_000 }, async () => {
      const mem = await tempMemory({ config: { http: { bodyLimitBytes: 10_000 } } });
      const token = mode === 'token' ? (await createToken(appContextOf(mem.memory), { space: 'default', scope: 'write' })).token : undefined;
      const server = await startHttpServer(mem.memory, { host: token ? '0.0.0.0' : '127.0.0.1', port: 0 });
      try {
        const port = Number(new URL(server.url).port);
        const answer = await slowChunkedPost(port, token ? { authorization: `Bearer ${token}` } : {}, SENDS[mode]);
        expect(answer).toMatch(/^HTTP\/1\.1 413 /u);
        expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
          error: { code: 'too_large', message: 'request body over 10000 bytes' },
        });
        // Nothing of the refused body was stored.
        expect(await mem.memory.timeline()).toMatchObject({ items: [] });
      } finally {
        await server.close();
        await mem.cleanup();
      }
    });
  }
});
