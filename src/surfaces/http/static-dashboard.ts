/** Serves the dashboard that Vite builds from `src/surfaces/web/app/` into `dist/web/` (bundled, no network). */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Env, Hono } from 'hono';

/** The built dashboard; the same relative path from `src/surfaces/http` and from `dist/surfaces/http`. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../../dist/web/', import.meta.url));

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
};
// Only flat names as Vite writes them (`<name>-<hash>.<ext>`, the hash in base64url): no dot but the extension's,
// no slash, no percent sign, so nothing outside `assets/` can be named.
const SAFE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}\.(js|css|svg|png|woff2)$/;
// No 'unsafe-inline' anywhere: Vite emits no inline script, Chart.js and Cytoscape style through the CSSOM, and
// Cytoscape's one injected <style> is pre-empted by index.html (its rule is in style.css).
const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";
const MISSING = 'dashboard files are missing: run `npm run build` (it builds dist/web with Vite)';

/** Mounts `GET /` (the page) and `GET /assets/<file>`; the page's own routes live in the URL hash. */
export function mountDashboard<E extends Env>(app: Hono<E>, dir: string = DASHBOARD_DIR): void {
  const send = async (path: string, cache: string) => {
    const ext = path.slice(path.lastIndexOf('.') + 1);
    try {
      const data = await readFile(dir + path);
      return new Response(data, {
        headers: {
          'content-type': TYPES[ext]!,
          'content-security-policy': CSP,
          'x-content-type-options': 'nosniff',
          'cache-control': cache,
        },
      });
    } catch {
      return undefined;
    }
  };
  // The page is always revalidated; its assets are named by content hash, so a browser may keep them.
  app.get('/', async (c) => (await send('index.html', 'no-cache')) ?? c.text(MISSING, 500));
  app.get('/assets/:name', async (c) => {
    const name = c.req.param('name');
    const res = SAFE.test(name)
      ? await send(`assets/${name}`, 'public, max-age=31536000, immutable')
      : undefined;
    return res ?? c.json({ error: { code: 'not_found', message: 'no such asset' } }, 404);
  });
}
