/**
 * The MCP endpoint at `/mcp` (Streamable HTTP) for both protocol generations: a 2026-07-28 request (its own
 * `_meta` protocol envelope, no handshake, no session) gets a server of its own for that one request; 2025-era
 * traffic (`initialize`, then `Mcp-Session-Id`) keeps one transport and one server per session.
 */
import { randomUUID } from 'node:crypto';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { Context, Hono } from 'hono';
import { denyUnless, type HttpEnv, type Principal } from './auth.js';

/** Creates the MCP server of a new session (or of one 2026-07-28 request) for the caller's space (boot supplies it: surfaces do not import each other). */
export type McpServerFactory = (session: string, principal?: Principal) => Promise<McpServer>;

// Sessions are held in memory; past this many for one space that space's oldest is closed, so abandoned clients
// cannot exhaust it and one space's clients never close another space's sessions.
export const MAX_SESSIONS_PER_SPACE = 256;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  /** The token that opened the session: no other caller may use it. */
  tokenId: number | null;
  /** The space of that caller: the session cap is counted per space. */
  space: string;
}

function rpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

// The principal rides to the per-request factory in the SDK's pass-through `authInfo`; the SDK never reads it.
const PRINCIPAL_KEY = 'tidepool.principal';

/** Mounts POST/GET/DELETE `/mcp` (at most `perSpace` open 2025-era sessions per space); returns a function that closes every open session. */
export function mountMcpRoute(
  app: Hono<HttpEnv>,
  createServer: McpServerFactory,
  perSpace: number = MAX_SESSIONS_PER_SPACE,
): () => Promise<void> {
  const sessions = new Map<string, Session>();
  // `legacy: 'reject'`: 2025-era traffic never reaches this handler (routed below), so it keeps its sessions.
  const modern = createMcpHandler(
    ({ authInfo }) =>
      createServer(`mcp-${randomUUID()}`, authInfo?.extra?.[PRINCIPAL_KEY] as Principal | undefined),
    { legacy: 'reject' },
  );

  const closeSession = async (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.server.close().catch(() => undefined);
  };

  /** A 2025-era request without a session: it must be `initialize`, which opens one. */
  const openSession = async (c: Context<HttpEnv>): Promise<Response> => {
    if (c.req.method !== 'POST')
      return rpcError(400, 'missing mcp-session-id header: initialize a session with POST first');
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return rpcError(400, 'the request body is not JSON');
    }
    const first = Array.isArray(body) ? body[0] : body;
    if (!isInitializeRequest(first))
      return rpcError(400, 'missing mcp-session-id header: the first request must be initialize');
    const principal = c.var.principal;
    // Map order is opening order: the first of this space's sessions is its oldest.
    const own = [...sessions].filter(([, s]) => s.space === principal.space);
    if (own.length >= perSpace) await closeSession(own[0]![0]);
    const sessionId = randomUUID();
    const server = await createServer(sessionId, principal);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      onsessioninitialized: (sid) =>
        void sessions.set(sid, { transport, server, tokenId: principal.tokenId, space: principal.space }),
      onsessionclosed: (sid) => void closeSession(sid),
    });
    transport.onclose = () => void sessions.delete(sessionId);
    await server.connect(transport);
    return transport.handleRequest(c.req.raw, { parsedBody: body });
  };

  app.all('/mcp', async (c) => {
    const id = c.req.header('mcp-session-id');
    if (id) {
      const s = sessions.get(id);
      if (!s || s.tokenId !== c.var.principal.tokenId)
        return rpcError(404, 'unknown or expired MCP session: initialize a new one');
      return s.transport.handleRequest(c.req.raw);
    }
    // MCP tools write (remember, record): a read-only token can neither open a session nor send a 2026-07-28 request.
    const denied = denyUnless(c, 'write');
    if (denied) return denied;
    if (c.req.method !== 'POST' || (await isLegacyRequest(c.req.raw))) return openSession(c);
    const principal = c.var.principal;
    return modern.fetch(c.req.raw, {
      authInfo: {
        token: '',
        clientId: principal.space,
        scopes: [principal.scope],
        extra: { [PRINCIPAL_KEY]: principal },
      },
    });
  });

  return async () => {
    await modern.close();
    await Promise.all([...sessions.keys()].map(closeSession));
  };
}
