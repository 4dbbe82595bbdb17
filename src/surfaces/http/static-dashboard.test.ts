/** Dashboard static serving: the built page, hashed assets, refused names and the missing-build message. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { mountDashboard } from './static-dashboard.js';

describe('mountDashboard', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidepool-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><script type="module" src="/assets/index-Ab_c-9.js"></script></html>',
  );
  writeFileSync(join(dir, 'assets', 'index-Ab_c-9.js'), 'export {};');
  writeFileSync(join(dir, 'secret.js'), 'outside assets');
  const app = new Hono();
  mountDashboard(app, `${dir}/`);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the page uncached and hashed assets as immutable, both under a CSP without unsafe-inline', async () => {
    const page = await app.request('/');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    const asset = await app.request('/assets/index-Ab_c-9.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('names only flat files inside assets/', async () => {
    for (const name of [
      '..%2Fsecret.js',
      'secret.js',
      '..%2Findex.html',
      'index.html',
      '.hidden.js',
      'a.b.js',
      'x.map',
    ]) {
      expect((await app.request(`/assets/${name}`)).status, name).toBe(404);
    }
  });

  it('answers 500 naming npm run build when dist/web is missing', async () => {
    const bare = new Hono();
    mountDashboard(bare, join(dir, 'nowhere/'));
    const res = await bare.request('/');
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('npm run build');
  });
});
