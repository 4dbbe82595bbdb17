/**
 * Closing a server or a memory while work is in flight: `serve --http` stops taking connections but answers the
 * requests it is answering (their writes commit and are acknowledged), and a memory writes the recall notes it was
 * given before it closes its store.
 */
import { request } from 'node:http';
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { noteHits } from '../src/app/recall.js';
import { appContextOf } from '../src/app/tidepool.js';
import { openMemory } from '../src/boot/open-memory.js';
import { startHttpServer } from '../src/boot/serve.js';
import { tempMemory } from './helpers/temp-memory.js';

// Each test closes its memory itself (that is what it checks); only the folders are left to remove.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const opened = async () => {
  const m = await tempMemory({ embedder: 'none' });
  dirs.push(m.dir);
  return m;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('closing with work in flight', () => {
  it('answers a request being sent when the server closes, commits its write, and takes no new connection', async () => {
    const { memory, path } = await opened();
    const server = await startHttpServer(memory, { host: '127.0.0.1', port: 0, readers: 0 });
    const body = JSON.stringify({ content: 'the lantern turn sent while the server closes', session: 'closing' });
    // Headers and the first bytes of the body now, the rest after close has begun: the handler is waiting for it.
    // `Expect: 100-continue` makes the server say when it has read the headers (the request is then in flight).
    let finish!: () => void;
    let received!: () => void;
    const inFlight = new Promise<void>((resolve) => (received = resolve));
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        new URL('/v1/ingest', server.url),
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.once('continue', () => {
        req.write(body.slice(0, 12));
        received();
      });
      finish = () => req.end(body.slice(12));
    });
    await inFlight;
    await sleep(50);
    const closing = server.close();
    await expect(fetch(`${server.url}/v1/health`)).rejects.toThrow();
    finish();
    const r = await answer;
    await closing;
    await memory.close();
    expect(r.status).toBe(201);
    const again = await openMemory({ path, embedder: 'none', warn: () => {} });
    try {
      const hits = await again.recall({ query: 'lantern' }, { sideEffects: false });
      expect(hits.map((h) => h.text)).toContain('the lantern turn sent while the server closes');
    } finally {
      await again.close();
    }
  });

  it('writes the recall notes it was given before it closes its store', async () => {
    const { memory, path } = await opened();
    const { id } = await memory.remember({ text: 'the kestrel hovers over the verge' });
    const ctx = appContextOf(memory);
    const before = (await ctx.store.forSpace(ctx.space).knowledge.get(Number(id.slice(1))))!;
    // Not awaited: the note is queued for the next group commit when close is called.
    const noted = noteHits(ctx, [{ id, score: 1 }], 'recall', null, before.lastReinforcedAt + 1000);
    await memory.close();
    await expect(noted).resolves.toBeUndefined();
    const again = await openMemory({ path, embedder: 'none', warn: () => {} });
    try {
      const c = appContextOf(again);
      expect((await c.store.forSpace(c.space).knowledge.get(Number(id.slice(1))))?.lastReinforcedAt).toBe(before.lastReinforcedAt + 1000);
    } finally {
      await again.close();
    }
  });
});
