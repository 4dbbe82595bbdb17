/** Serves the dashboard: hand-written static files from `src/surfaces/web/static/` (no build step, no network). */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';

/** The static folder; the same relative path from `src/surfaces/http` and from `dist/surfaces/http`. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../../src/surfaces/web/static/', import.meta.url));

const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', html: 'text/html; charset=utf-8', svg: 'image/svg+xml' };
// Only flat, plain names: nothing outside the folder can be named.
const SAFE = /^[a-z0-9][a-z0-9-]*\.(js|css|svg|html)$/;
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/** Mounts `GET /` (the page) and `GET /assets/<file>`; the page's own routes live in the URL hash. */
export function mountDashboard(app: Hono, dir: string = DASHBOARD_DIR): void {
  const send = async (name: string) => {
    const ext = name.slice(name.lastIndexOf('.') + 1);
    try {
      const data = await readFile(dir + name);
      return new Response(data, { headers: { 'content-type': TYPES[ext]!, 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' } });
    } catch {
      return undefined;
    }
  };
  app.get('/', async (c) => (await send('index.html')) ?? c.text('dashboard files are missing', 500));
  app.get('/assets/:name', async (c) => {
    const name = c.req.param('name');
    const res = SAFE.test(name) ? await send(name) : undefined;
    return res ?? c.json({ error: { code: 'not_found', message: 'no such asset' } }, 404);
  });
}
