/** Embedders through real HTTP on 127.0.0.1: each wire protocol, retries with backoff, and a down embedder. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbedder } from '../src/boot/create-embedder.js';
import { parseConfig } from '../src/core/config.js';
import { tempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

interface Mock {
  url: string;
  requests: Array<{ path: string; body: unknown; auth: string | undefined }>;
  failNext: number;
  close(): Promise<void>;
}

function vec(text: string): number[] {
  // A tiny deterministic "model": letter counts, so similar texts get similar vectors.
  const v = new Array(8).fill(0) as number[];
  for (const ch of text.toLowerCase()) v[ch.charCodeAt(0) % 8]! += 1;
  return v;
}

async function body(req: IncomingMessage): Promise<unknown> {
  let s = '';
  for await (const c of req) s += String(c);
  return JSON.parse(s);
}

async function startMock(): Promise<Mock> {
  const mock: Mock = { url: '', requests: [], failNext: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    void body(req).then((b) => {
      mock.requests.push({ path: req.url ?? '', body: b, auth: req.headers.authorization });
      if (mock.failNext > 0) {
        mock.failNext--;
        res.writeHead(503).end('busy');
        return;
      }
      const r = b as { input?: string[]; texts?: string[] };
      const texts = r.input ?? r.texts ?? [];
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/embeddings') res.end(JSON.stringify({ data: texts.map((t, index) => ({ index, embedding: vec(t) })) }));
      else res.end(JSON.stringify({ embeddings: texts.map(vec) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mock.close = () => new Promise((r) => server.close(() => r()));
  return mock;
}

let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('embedders', () => {
  it('speaks the OpenAI-compatible, Ollama and Tideline protocols', async () => {
    mock = await startMock();
    const cases = [
      { provider: 'openai', url: `${mock.url}/v1/embeddings`, model: 'm1', apiKey: 'k' },
      { provider: 'ollama', url: `${mock.url}/api/embed`, model: 'nomic' },
      { provider: 'tideline', url: `${mock.url}/embed_batch` },
    ] as const;
    for (const c of cases) {
      const e = createEmbedder(parseConfig({ embedder: c }).embedder)!;
      const [a, b] = await e.embed(['hello', 'world']);
      expect(Array.from(a!)).toEqual(vec('hello'));
      expect(Array.from(b!)).toEqual(vec('world'));
    }
    expect(mock.requests.map((r) => r.body)).toEqual([
      { model: 'm1', input: ['hello', 'world'] },
      { model: 'nomic', input: ['hello', 'world'] },
      { texts: ['hello', 'world'] },
    ]);
    expect(mock.requests[0]!.auth).toBe('Bearer k');
  });

  it('retries a failing endpoint with backoff, then succeeds', async () => {
    mock = await startMock();
    mock.failNext = 2;
    const e = createEmbedder(parseConfig({ embedder: { provider: 'ollama', url: `${mock.url}/api/embed`, model: 'x', attempts: 3, backoffMs: 10 } }).embedder)!;
    const t0 = Date.now();
    expect(await e.embed(['x'])).toHaveLength(1);
    expect(mock.requests).toHaveLength(3);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(30); // 10 ms, then 20 ms
  });

  it('stores vectors with their model, and a down embedder never fails a write', async () => {
    mock = await startMock();
    const config = { embedder: { provider: 'tideline' as const, url: `${mock.url}/embed_batch`, attempts: 2, backoffMs: 1 } };
    const t = await tempMemory({ config });
    try {
      await t.memory.remember({ text: 'the harbour wifi password is in the vault' });
      expect(await appContextOf(t.memory).store.forSpace('default').vectors.count('tideline-local')).toBe(1);
      mock.failNext = 1000;
      const r = await t.memory.record({ content: 'the lighthouse needs a new lamp', session: 's' });
      expect(r.ids).toHaveLength(1);
      expect(t.warnings.some((w) => w.includes('marked for later embedding'))).toBe(true);
      expect(await appContextOf(t.memory).store.forSpace('default').vectors.pending('episode', 10)).toHaveLength(1);
      mock.failNext = 0;
      expect((await t.memory.embedPending()).episode).toBe(1);
      expect(await appContextOf(t.memory).store.forSpace('default').vectors.pending('episode', 10)).toHaveLength(0);
      // The backfilled episode is searchable like any other.
      const hits = await t.memory.recall({ query: 'lighthouse lamp' });
      expect(hits[0]!.text).toBe('the lighthouse needs a new lamp');
    } finally {
      await t.cleanup();
    }
  });
});
