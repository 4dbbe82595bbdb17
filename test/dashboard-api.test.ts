/**
 * The routes behind the dashboard's new pages over a real socket, sent as the page sends them (same origin, the CSRF
 * token on writes): Needs review with a personal-data flag, edit and forget through the one path, a hit's
 * conversation, and the journal confined to registered workspaces.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type HttpHandle } from '../src/boot/serve.js';
import { PII_REVIEW_KEY } from '../src/sleep/pii-flags.js';
import { tempMemory, T0, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

describe('dashboard routes', () => {
  let mem: TempMemory;
  let server: HttpHandle;
  let ws: string;
  let stray: string;
  let csrf: string;
  const page = () => ({ origin: server.url, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { ...page(), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(method === 'GET' ? {} : { 'x-tidepool-csrf': csrf }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    mem = await tempMemory();
    ws = mkdtempSync(join(tmpdir(), 'tidepool-dapi-ws-'));
    stray = mkdtempSync(join(tmpdir(), 'tidepool-dapi-stray-'));
    await mem.memory.registerJournalWorkspace(ws);
    await mem.memory.journal().add({ root: ws, heading: 'Release prep', content: 'Checked the **changelog**.', date: '2026-11-01', time: '09:00' });
    server = await startHttpServer(mem.memory, { host: '127.0.0.1', port: 0 });
    csrf = ((await (await fetch(`${server.url}/dashboard/csrf`, { headers: page() })).json()) as { csrf: string }).csrf;
  });
  afterAll(async () => {
    await server?.close();
    await mem?.cleanup();
    rmSync(ws, { recursive: true, force: true });
    rmSync(stray, { recursive: true, force: true });
  });

  it('opens any hit in its conversation: an episode, and a knowledge entry at its evidence', async () => {
    const turns = Array.from({ length: 12 }, (_, i) => ({ role: 'user' as const, speaker: 'Ana', content: `step ${i} of the harbour deploy`, session: 'deploy', at: T0 - (12 - i) * 60_000 }));
    const { ids } = (await mem.memory.record({ turns })) as { ids: string[] };
    const c = await call('GET', `/v1/items/${ids[6]}/conversation?turns=2`);
    expect(c.status).toBe(200);
    expect(c.json).toMatchObject({ session: 'deploy', focus: { content: 'step 6 of the harbour deploy' } });
    expect((c.json.items as Array<{ content: string }>).map((e) => e.content)).toEqual([4, 5, 6, 7, 8].map((i) => `step ${i} of the harbour deploy`));
    const k = await mem.memory.remember({ text: 'Deploys go through the harbour pipeline' });
    expect((await call('GET', `/v1/items/${k.id}/conversation`)).json).toMatchObject({ session: null, focus: { content: 'Deploys go through the harbour pipeline' } });
    expect((await call('GET', '/v1/items/e999999/conversation')).status).toBe(404);
  });

  it('edits a live entry through remember (the old version superseded, its key kept) and forgets another', async () => {
    const a = await mem.memory.remember({ text: 'The export runs at 02:00', key: 'export.time' });
    const edited = await call('PUT', `/v1/knowledge/${a.id}`, { text: 'The export runs at 03:00' });
    expect(edited).toMatchObject({ status: 200, json: { kind: 'superseded', supersedes: a.id } });
    const store = appContextOf(mem.memory).store;
    expect((await store.forSpace('default').knowledge.get(Number(a.id.slice(1))))?.status).toBe('superseded');
    expect((await store.forSpace('default').knowledge.getLiveByKey('export.time'))?.content).toBe('The export runs at 03:00');
    // A superseded entry is history: not edited again.
    expect((await call('PUT', `/v1/knowledge/${a.id}`, { text: 'x' })).status).toBe(409);
    expect((await call('PUT', `/v1/knowledge/${String(edited.json.id)}`, { text: '' })).status).toBe(400);
    // Without the CSRF token a page cannot edit.
    expect((await call('PUT', `/v1/knowledge/${String(edited.json.id)}`, { text: 'y' }, { 'x-tidepool-csrf': 'guess' })).status).toBe(403);
    const b = await mem.memory.remember({ text: 'The old wiki lives on the intranet' });
    expect(await call('DELETE', `/v1/items/${b.id}`)).toMatchObject({ status: 200, json: { kind: 'item', id: b.id } });
    expect(await store.forSpace('default').knowledge.get(Number(b.id.slice(1)))).toBeUndefined();
    expect((await call('DELETE', `/v1/items/${b.id}`)).status).toBe(404);
  });

  it('lists a personal-data flag in Needs review; Keep (approve) leaves the row and clears the flag', async () => {
    const { ids } = (await mem.memory.record({ content: 'Mail the invoices to ana.berg@example.com', session: 'mail' })) as { ids: string[] };
    await appContextOf(mem.memory).store.forSpace('default').state.put(PII_REVIEW_KEY, [{ ref: ids[0], kinds: ['email'], at: T0 }], T0);
    const list = await call('GET', '/v1/review');
    expect(list.json.items).toEqual([
      expect.objectContaining({ id: ids[0], kind: 'episode', content: 'Mail the invoices to ana.berg@example.com', personalData: ['email'] }),
    ]);
    expect(await call('POST', `/v1/knowledge/${ids[0]}/review`, { decision: 'approve' })).toMatchObject({ status: 200, json: { kind: 'approved', status: 'kept' } });
    expect((await call('GET', '/v1/review')).json.items).toEqual([]);
    expect(await appContextOf(mem.memory).store.forSpace('default').episodes.get(Number(ids[0]!.slice(1)))).toBeDefined();
  });

  it('reads a registered journal: its days and one day, and refuses a workspace that is not registered', async () => {
    const stats = await call('GET', `/v1/journal/stats?root=${encodeURIComponent(ws)}`);
    expect((stats.json.files as Array<{ date?: string }>).map((f) => f.date)).toContain('2026-11-01');
    const day = await call('GET', `/v1/journal/day?root=${encodeURIComponent(ws)}&date=2026-11-01`);
    expect(day.json).toMatchObject({ kind: 'found', date: '2026-11-01' });
    expect(String(day.json.content)).toContain('Checked the **changelog**.');
    expect((await call('GET', `/v1/journal/day?root=${encodeURIComponent(stray)}&date=2026-11-01`)).status).toBe(403);
  });
});
