/** The HTTP app (Hono): Host/Origin checks, access control, health, the MCP endpoint, the REST API and the dashboard. */
import { Hono } from 'hono';
import type { Tidepool } from '../../app/tidepool.js';
import { accessControl, sizeLimit } from './auth.js';
import { mountDashboardApi } from './dashboard-api.js';
import { onHttpError } from './error-handler.js';
import { mountMcpRoute, type McpServerFactory } from './mcp-route.js';
import { openApiDocument } from './openapi.js';
import { mountRestRoutes } from './rest-routes.js';
import { mountDashboard } from './static-dashboard.js';

/** What the HTTP app needs. */
export interface HttpAppDeps {
  memory: Tidepool;
  version: string;
  /** Creates the MCP server of a new `/mcp` session. */
  mcpServer: McpServerFactory;
  /** Host names a request may address (DNS-rebinding guard); default the loopback names. */
  allowedHosts?: readonly string[];
  /** Every request needs a bearer token (a non-loopback bind); default false. */
  tokensRequired?: boolean;
  /** Requests a minute per token (config http.rateLimitPerMinute); default 600. */
  rateLimitPerMinute?: number;
  /** Largest request body (config http.bodyLimitBytes); default 2 MB. */
  bodyLimitBytes?: number;
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
    // A public server (tokens required) answers to any name it is reached by; a browser page may still only call
    // it from its own origin. A loopback server answers only to loopback names (DNS rebinding).
    const own = deps.tokensRequired && host ? hostname(host) : undefined;
    const ok = (h: string) => allowed.has(h) || h === own;
    if (host && !ok(hostname(host))) return c.json({ error: { code: 'forbidden', message: `host ${host} is not allowed` } }, 403);
    const origin = c.req.header('origin');
    if (origin) {
      let originHost = '';
      try {
        originHost = new URL(origin).hostname.toLowerCase();
      } catch {
        originHost = '';
      }
      if (!ok(originHost) && !ok(`[${originHost}]`)) return c.json({ error: { code: 'forbidden', message: `origin ${origin} is not allowed` } }, 403);
    }
    await next();
  });
  app.get('/v1/health', (c) => c.json({ ok: true, version: deps.version, ...(deps.tokensRequired ? {} : { space: deps.memory.space }) }));
  app.get('/v1/openapi.json', (c) => c.json(openApiDocument(deps.version)));
  mountDashboard(app);
  app.use('*', sizeLimit({ bodyLimitBytes: deps.bodyLimitBytes ?? 2_000_000 }));
  const guard = accessControl({
    memory: deps.memory, tokensRequired: deps.tokensRequired ?? false,
    rateLimitPerMinute: deps.rateLimitPerMinute ?? 600, bodyLimitBytes: deps.bodyLimitBytes ?? 2_000_000,
  });
  app.use('/v1/*', guard);
  app.use('/mcp', guard);
  const closeMcp = mountMcpRoute(app, deps.mcpServer);
  mountRestRoutes(app);
  mountDashboardApi(app);
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` } }, 404));
  app.onError(onHttpError);
  return { app, close: closeMcp };
}
