/**
 * The tokenless loopback server cannot be driven by a web page: cross-site GETs and POSTs (with and without an
 * Origin, as an `<img>` or a form sends them), form content types and browser writes without the CSRF token are
 * refused and change nothing; the server's own page (same origin, with the token) still writes; no GET changes
 * anything on disk.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type HttpHandle } from '../src/boot/serve.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';

interface Answer {
  status: number;
  body: string;
}

/** A raw request over the socket, so browser-only headers (Origin, Sec-Fetch-*) go out exactly as given. */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (data += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe('browser-driven requests to the tokenless loopback server', () => {
  let mem: TempMemory;
  let server: HttpHandle;
  let workspace: string;
  let elsewhere: string;
  let self: string;
  beforeAll(async () => {
    mem = await tempMemory();
    workspace = mkdtempSync(join(tmpdir(), 'tidepool-bg-ws-'));
    elsewhere = mkdtempSync(join(tmpdir(), 'tidepool-bg-else-'));
    await mem.memory.registerJournalWorkspace(workspace);
    server = await startHttpServer(mem.memory, { host: '127.0.0.1', port: 0 });
    self = server.url;
  });
  afterAll(async () => {
    await server.close();
    await mem.cleanup();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  const count = async () => (await mem.memory.timeline({})).total;
  const cross = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' };

  it('refuses cross-site GETs with or without an Origin, and a GET of journal settings creates nothing', async () => {
    const paths = ['/v1/recall?q=x', `/v1/journal/config?root=${encodeURIComponent(elsewhere)}`, `/v1/journal/config?root=${encodeURIComponent(workspace)}`, '/v1/export', '/dashboard/csrf'];
    for (const p of paths) {
      expect((await raw(self + p, 'GET', cross)).status, p).toBe(403);
      expect((await raw(self + p, 'GET', { ...cross, 'sec-fetch-site': 'same-site' })).status, p).toBe(403);
      expect((await raw(self + p, 'GET', { origin: 'http://evil.example' })).status, p).toBe(403);
      // Another web app on the same machine is another origin: same host name, another port.
      expect((await raw(self + p, 'GET', { origin: 'http://127.0.0.1:1' })).status, p).toBe(403);
      expect((await raw(self + p, 'GET', { origin: 'http://localhost' + new URL(self).port })).status, p).toBe(403);
      expect((await raw(self + p, 'GET', { origin: 'null' })).status, p).toBe(403);
    }
    // An old browser sending no fetch metadata reaches the GET, which must change nothing.
    const old = await raw(`${self}/v1/journal/config?root=${encodeURIComponent(elsewhere)}`, 'GET', {});
    expect(old.status).toBe(403);
    expect(readdirSync(elsewhere)).toEqual([]);
    const own = await raw(`${self}/v1/journal/config?root=${encodeURIComponent(workspace)}`, 'GET', {});
    expect(own.status).toBe(200);
    expect(existsSync(join(workspace, 'memory'))).toBe(false);
    expect(existsSync(join(workspace, 'AGENTS.md'))).toBe(false);
  });

  it('refuses cross-site and form posts and browser writes without the CSRF token, storing nothing', async () => {
    const before = await count();
    const json = JSON.stringify({ text: 'planted by a web page' });
    const attempts: Array<[string, Record<string, string>, string]> = [
      ['cross-site fetch, JSON', { ...cross, 'sec-fetch-mode': 'cors', origin: 'http://evil.example', 'content-type': 'application/json' }, json],
      ['cross-site, no Origin', { ...cross, 'content-type': 'text/plain' }, json],
      ['form urlencoded, no browser headers', { 'content-type': 'application/x-www-form-urlencoded' }, 'text=planted'],
      ['form multipart', { 'content-type': 'multipart/form-data; boundary=x' }, '--x\r\nContent-Disposition: form-data; name="text"\r\n\r\nplanted\r\n--x--\r\n'],
      ['text/plain form from the same host on another port', { origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-site', 'content-type': 'text/plain' }, json],
      ['same-origin page without the token', { origin: self, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, json],
      ['same-origin text/plain without the token', { origin: self, 'content-type': 'text/plain' }, json],
      ['a wrong token', { origin: self, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json', 'x-tidepool-csrf': 'guess' }, json],
    ];
    for (const [what, headers, body] of attempts) {
      for (const path of ['/v1/remember', '/v1/ingest', '/v1/import']) {
        const a = await raw(self + path, 'POST', headers, path === '/v1/ingest' ? JSON.stringify({ content: 'planted by a web page' }) : body);
        expect(a.status, `${what} ${path}`).toBe(403);
        expect(JSON.parse(a.body), what).toMatchObject({ error: { code: 'forbidden' } });
      }
    }
    const del = await raw(`${self}/v1/spaces/default`, 'DELETE', { origin: self, 'sec-fetch-site': 'same-origin' });
    expect(del.status).toBe(403);
    const put = await raw(`${self}/v1/journal/config`, 'PUT', { origin: self, 'content-type': 'application/json' }, JSON.stringify({ root: workspace, patch: { hotKeepDays: 3 } }));
    expect(put.status).toBe(403);
    const mcp = await raw(`${self}/mcp`, 'POST', { ...cross, origin: 'http://evil.example', 'content-type': 'application/json' }, '{}');
    expect(mcp.status).toBe(403);
    expect(await count()).toBe(before);
    expect(existsSync(join(workspace, 'memory'))).toBe(false);
  });

  it('lets the same-origin dashboard write with the CSRF token, and local programs without browser headers', async () => {
    const page = { origin: self, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' };
    const t = await raw(`${self}/dashboard/csrf`, 'GET', page);
    expect(t.status).toBe(200);
    const csrf = (JSON.parse(t.body) as { csrf: string }).csrf;
    expect(csrf.length).toBeGreaterThan(30);
    const before = await count();
    const ok = await raw(`${self}/v1/remember`, 'POST', { ...page, 'content-type': 'application/json', 'x-tidepool-csrf': csrf }, JSON.stringify({ text: 'written from the dashboard' }));
    expect(ok.status).toBe(201);
    // A program on this machine (curl, an agent hook) sends no browser headers.
    const cli = await raw(`${self}/v1/remember`, 'POST', { 'content-type': 'application/json' }, JSON.stringify({ text: 'written by a local program' }));
    expect(cli.status).toBe(201);
    expect(await count()).toBe(before + 2);
    // Following a link to the dashboard page from another site opens it (it reads nothing by itself).
    const nav = await raw(`${self}/`, 'GET', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' });
    expect(nav.status).not.toBe(403);
  });
});
