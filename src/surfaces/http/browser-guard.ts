/**
 * Keeps web pages from driving the server through a visitor's browser (CSRF, DNS rebinding): Host and Origin must
 * name this server, fetch metadata must not say cross-site, and a tokenless write from a browser needs the
 * server's CSRF token, which only a page of this origin can read.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { errorJson } from './error-handler.js';

/** The header a browser page sends the CSRF token in (a custom header also forces a CORS preflight). */
export const CSRF_HEADER = 'x-tidepool-csrf';
/** Where the dashboard reads the CSRF token (same-origin only: no CORS headers are ever sent). */
export const CSRF_PATH = '/dashboard/csrf';

/** What the guard needs to know about the server. */
export interface BrowserGuardOptions {
  /** Host names a request may address (DNS-rebinding guard). */
  allowedHosts: readonly string[];
  /** A public server (tokens required) answers to any name it is reached by. */
  tokensRequired: boolean;
}

/** The guard middleware and the CSRF token it checks (random per server process). */
export interface BrowserGuard {
  middleware: MiddlewareHandler;
  csrfToken: string;
}

// Content types a cross-site HTML form can send without a CORS preflight; no API client of this server uses them
// for a write, so a tokenless write in one of them is refused outright.
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function hostname(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.replace(/:\d+$/, '');
}

/** `host[:port]` as a URL writes it (default port dropped), or '' when it cannot be parsed. */
function authority(scheme: string, hostPort: string): string {
  try {
    return new URL(`${scheme}//${hostPort}`).host;
  } catch {
    return '';
  }
}

function sameSecret(a: string | undefined, b: string): boolean {
  if (a === undefined || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * True when the request carries a header browsers add to every such request: it may come from a page the user
 * visits. (Node's fetch sends `Sec-Fetch-Mode` too, but never `Sec-Fetch-Site` or, unasked, `Origin`.)
 */
function fromBrowser(c: Context): boolean {
  return c.req.header('origin') !== undefined || c.req.header('sec-fetch-site') !== undefined;
}

/**
 * Builds the guard. Rules, in order: Host must be allowed; `Sec-Fetch-Site: cross-site|same-site` is refused (a
 * top-level navigation to the dashboard page `/` excepted, which reads nothing); an Origin must be this server's
 * own `host[:port]`; a tokenless write (no Authorization) in a form content type is refused, and one sent by a
 * browser needs the `x-tidepool-csrf` header. A request with none of the browser headers comes from a local program,
 * which could open the database itself.
 * @example app.use('*', browserGuard({ allowedHosts: LOOPBACK_HOSTS, tokensRequired: false }).middleware)
 */
export function browserGuard(o: BrowserGuardOptions): BrowserGuard {
  const allowed = new Set(o.allowedHosts.map((h) => h.toLowerCase()));
  const csrfToken = randomBytes(32).toString('base64url');
  const middleware: MiddlewareHandler = async (c, next) => {
    const url = new URL(c.req.url);
    const host = c.req.header('host');
    // A public server (tokens required) answers to any name it is reached by; a loopback one only to loopback names.
    const own = o.tokensRequired && host ? hostname(host) : undefined;
    const ok = (h: string) => allowed.has(h) || h === own;
    if (host && !ok(hostname(host))) return errorJson(c, 'forbidden', `host ${host} is not allowed`);
    const site = c.req.header('sec-fetch-site')?.toLowerCase();
    if (site === 'cross-site' || site === 'same-site') {
      const navigation = c.req.method === 'GET' && url.pathname === '/' && c.req.header('sec-fetch-mode') === 'navigate';
      if (!navigation) return errorJson(c, 'forbidden', `a ${site} request is not allowed: open the dashboard from this server`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = undefined;
      }
      const originHost = parsed?.hostname.toLowerCase() ?? '';
      const hostOk = ok(originHost) || ok(`[${originHost}]`);
      // The same host name on another port is another site (another local web app): the whole authority must match.
      const selfAuthority = authority(parsed?.protocol ?? 'http:', host ?? url.host);
      if (!parsed || !hostOk || parsed.host !== selfAuthority) return errorJson(c, 'forbidden', `origin ${origin} is not allowed`);
    }
    if (!SAFE_METHODS.has(c.req.method) && c.req.header('authorization') === undefined) {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (FORM_TYPES.has(type)) return errorJson(c, 'forbidden', `a form post (${type}) is not accepted: send JSON`);
      if (fromBrowser(c) && !sameSecret(c.req.header(CSRF_HEADER), csrfToken)) {
        return errorJson(c, 'forbidden', `a write from a browser needs the ${CSRF_HEADER} header (the dashboard reads it from ${CSRF_PATH})`);
      }
    }
    await next();
  };
  return { middleware, csrfToken };
}
