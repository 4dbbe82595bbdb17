/** The HTTP app (Hono): Host/Origin checks, access control, health, the MCP endpoint, the REST API and the dashboard. */
import { Hono } from 'hono';
import type { Tidepool } from '../../app/tidepool.js';
import { accessControl, sizeLimit, type HttpEnv } from './auth.js';
import { browserGuard, CSRF_PATH } from './browser-guard.js';
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
  /** Open MCP sessions per space before that space's oldest is closed; default 256. */
  mcpSessionsPerSpace?: number;
}

/** The app and how to close what it holds open. */
export interface HttpApp {
  app: Hono<HttpEnv>;
  close(): Promise<void>;
}

/** Loopback host names (the server binds 127.0.0.1 by default). */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1', '[::1]'];

/**
 * Builds the app. `browserGuard` runs first: a request whose Host or Origin names another site, a cross-site
 * request and a tokenless browser write without the CSRF token are refused (403), so neither a web page that
 * re-binds its own name to 127.0.0.1 nor one that posts to it can reach the memory (DESIGN §10).
 * @example const { app } = createHttpApp({ memory, version, mcpServer: (s) => createMcpServer(memory, { session: s }) })
 */
export function createHttpApp(deps: HttpAppDeps): HttpApp {
  const app = new Hono<HttpEnv>();
  const guard = browserGuard({ allowedHosts: deps.allowedHosts ?? LOOPBACK_HOSTS, tokensRequired: deps.tokensRequired ?? false });
  app.use('*', guard.middleware);
  // Only a page of this origin can read it (no CORS headers; the guard refuses cross-site and foreign origins).
  app.get(CSRF_PATH, (c) => {
    c.header('cache-control', 'no-store');
    return c.json({ csrf: guard.csrfToken });
  });
  app.get('/v1/health', (c) => c.json({ ok: true, version: deps.version, ...(deps.tokensRequired ? {} : { space: deps.memory.space }) }));
  app.get('/v1/openapi.json', (c) => c.json(openApiDocument(deps.version)));
  mountDashboard(app);
  app.use('*', sizeLimit({ bodyLimitBytes: deps.bodyLimitBytes ?? 2_000_000 }));
  const access = accessControl({
    memory: deps.memory, tokensRequired: deps.tokensRequired ?? false,
    rateLimitPerMinute: deps.rateLimitPerMinute ?? 600, bodyLimitBytes: deps.bodyLimitBytes ?? 2_000_000,
  });
  app.use('/v1/*', access);
  app.use('/mcp', access);
  const closeMcp = mountMcpRoute(app, deps.mcpServer, deps.mcpSessionsPerSpace);
  mountRestRoutes(app);
  mountDashboardApi(app);
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` } }, 404));
  app.onError(onHttpError);
  return { app, close: closeMcp };
}
