/** The HTTP app (Hono): health, the MCP endpoint and loopback Host/Origin checks; later issues add /v1 and the dashboard. */
import { Hono } from 'hono';
import type { Tidepool } from '../../app/tidepool.js';
import { mountMcpRoute, type McpServerFactory } from './mcp-route.js';

/** What the HTTP app needs. */
export interface HttpAppDeps {
  memory: Tidepool;
  version: string;
  /** Creates the MCP server of a new `/mcp` session. */
  mcpServer: McpServerFactory;
  /** Host names a request may address (DNS-rebinding guard); default the loopback names. */
  allowedHosts?: readonly string[];
}

/** The app and how to close what it holds open. */
export interface HttpApp {
  app: Hono;
  close(): Promise<void>;
}

/** Loopback host names (the server binds 127.0.0.1 by default). */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1', '[::1]'];

function hostname(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.replace(/:\d+$/, '');
}

/**
 * Builds the app. A request whose Host or Origin names another host is refused (403): a web page that re-binds
 * its own name to 127.0.0.1 must not reach the memory (DESIGN §10).
 * @example const { app } = createHttpApp({ memory, version, mcpServer: (s) => createMcpServer(memory, { session: s }) })
 */
export function createHttpApp(deps: HttpAppDeps): HttpApp {
  const allowed = new Set((deps.allowedHosts ?? LOOPBACK_HOSTS).map((h) => h.toLowerCase()));
  const app = new Hono();
  app.use('*', async (c, next) => {
    const host = c.req.header('host');
    if (host && !allowed.has(hostname(host))) return c.json({ error: { code: 'forbidden', message: `host ${host} is not allowed` } }, 403);
    const origin = c.req.header('origin');
    if (origin) {
      let originHost = '';
      try {
        originHost = new URL(origin).hostname.toLowerCase();
      } catch {
        originHost = '';
      }
      if (!allowed.has(originHost) && !allowed.has(`[${originHost}]`)) return c.json({ error: { code: 'forbidden', message: `origin ${origin} is not allowed` } }, 403);
    }
    await next();
  });
  app.get('/v1/health', (c) => c.json({ ok: true, version: deps.version, space: deps.memory.space }));
  const closeMcp = mountMcpRoute(app, deps.mcpServer);
  app.onError((e, c) => c.json({ error: { code: 'internal', message: e.message } }, 500));
  return { app, close: closeMcp };
}
