import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseId } from '../core/ids.js';
import { appContextOf, type Tidepool } from '../app/tidepool.js';
import { openMemory } from './open-memory.js';
import { startReaderPool, type ReaderPool } from './reader-pool.js';
import { startHttpServer, type HttpHandle } from './serve.js';

describe('recall reader threads on one SQLite file', () => {
  let dir: string;
  let memory: Tidepool;
  let pool: ReaderPool;
  let served: Tidepool;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidepool-readers-'));
    memory = await openMemory({ path: join(dir, 'm.db'), embedder: 'none', warn: () => undefined });
    await memory.remember({ text: 'seed memory so the space exists' });
    pool = startReaderPool({ path: join(dir, 'm.db'), config: appContextOf(memory).config, store: appContextOf(memory).store, count: 2, warn: () => undefined });
    await pool.ready();
    served = memory.withReaders(pool);
  });

  afterEach(async () => {
    await pool.close();
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sees every write acknowledged before the recall, in the readers, while writes and recalls interleave', async () => {
    const rounds = 24;
    const missing: string[] = [];
    await Promise.all(
      Array.from({ length: rounds }, async (_, i) => {
        const word = `zephyr${i}quokka`;
        await served.record({ turns: [{ role: 'user', content: `the ${word} ticket is blocked`, session: `s${i % 3}` }] });
        const hits = await served.recall({ query: word, limit: 5 });
        if (!hits.some((h) => h.text.includes(word))) missing.push(word);
      }),
    );
    expect(missing).toEqual([]);
    // Every recall went through a reader thread, none ran on the main thread.
    expect(pool.answered).toBe(rounds);
  });

  it('drops a forgotten memory from the readers’ answers once forget returns', async () => {
    const kept = await served.remember({ text: 'the staging database listens on port 6543' });
    expect((await served.recall({ query: 'staging database port', limit: 5 })).map((h) => h.id)).toContain(kept.id);
    await served.forget({ id: kept.id });
    const after = await served.recall({ query: 'staging database port', limit: 5 });
    expect(after.map((h) => h.id)).not.toContain(kept.id);
    expect(pool.answered).toBe(2);
  });

  it('reports a corrupt JSON column a reader read: the hit still comes, the warning is kept on the main thread', async () => {
    const k = await served.remember({ text: 'the ferry timetable changes in winter', tags: ['ferry'] });
    const db = new Database(join(dir, 'm.db'));
    db.prepare('UPDATE knowledge SET tags = ? WHERE id = ?').run('["ferry"', parseId(k.id).id);
    db.close();
    const hits = await served.recall({ query: 'ferry timetable winter', limit: 5 });
    expect(hits.map((h) => h.id)).toContain(k.id);
    expect(pool.answered).toBe(1);
    const [w] = (await served.doctor()).warnings;
    expect(w).toMatchObject({ kind: 'corrupt_column', count: 1 });
    expect(w!.recent[0]).toContain(`knowledge.tags of row ${parseId(k.id).id}`);
  });

  it('writes the hits to the attention log on the main thread, the writer', async () => {
    const k = await served.remember({ text: 'the release train leaves on thursdays' });
    await served.recall({ query: 'release train thursdays', limit: 5 });
    const logged = await appContextOf(memory).store.forSpace(memory.space).attention.since(0);
    expect(logged.some((a) => a.layer === 'knowledge' && `k${a.itemId}` === k.id && a.source === 'recall')).toBe(true);
    expect(pool.answered).toBe(1);
  });
});

describe('hybrid recall through reader threads', () => {
  it('embeds the query on the main thread and ranks by the stored vectors in the reader', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidepool-readers-vec-'));
    let embedCalls = 0;
    // Letter counts: texts sharing letters point the same way (a deterministic stand-in for a model).
    const embedder = {
      model: 'letters-26',
      embed: async (texts: readonly string[]) => {
        embedCalls += texts.length;
        return texts.map((t) => Float32Array.from({ length: 26 }, (_, i) => [...t.toLowerCase()].filter((c) => c.charCodeAt(0) - 97 === i).length));
      },
    };
    const memory = await openMemory({ path: join(dir, 'm.db'), embedder, warn: () => undefined });
    const pool = startReaderPool({ path: join(dir, 'm.db'), config: appContextOf(memory).config, store: appContextOf(memory).store, count: 1, warn: () => undefined });
    try {
      await pool.ready();
      const kept = await memory.remember({ text: 'the heron deploy key rotates monthly' });
      const before = embedCalls;
      const hits = await memory.withReaders(pool).recall({ query: 'heron deploy key', limit: 5 });
      expect(embedCalls - before).toBe(1);
      expect(pool.answered).toBe(1);
      expect(hits.find((h) => h.id === kept.id)?.why?.vector).toBe(true);
    } finally {
      await pool.close();
      await memory.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('HTTP recall through reader threads', () => {
  let dir: string;
  let memory: Tidepool;
  let server: HttpHandle;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidepool-readers-http-'));
    memory = await openMemory({ path: join(dir, 'm.db'), embedder: 'none', warn: () => undefined });
    server = await startHttpServer(memory, { host: '127.0.0.1', port: 0, readers: 2 });
    await server.readersReady();
  });

  afterEach(async () => {
    await server.close();
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers GET /v1/recall with what POST /v1/remember acknowledged, and not once it is forgotten', async () => {
    expect(server.readers).toBe(2);
    const post = await fetch(`${server.url}/v1/remember`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'the kestrel cluster runs on arm64' }),
    });
    expect(post.status).toBe(201);
    const { id } = (await post.json()) as { id: string };
    const found = (await (await fetch(`${server.url}/v1/recall?q=kestrel%20cluster&limit=5`)).json()) as { hits: Array<{ id: string }> };
    expect(found.hits.map((h) => h.id)).toContain(id);
    await memory.forget({ id });
    const gone = (await (await fetch(`${server.url}/v1/recall?q=kestrel%20cluster&limit=5`)).json()) as { hits: Array<{ id: string }> };
    expect(gone.hits.map((h) => h.id)).not.toContain(id);
    expect(server.readerAnswers()).toBe(2);
  });

  it('answers the MCP recall tool over HTTP through the readers, before and after the forget tool', async () => {
    const client = new Client({ name: 'readers-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const text = (r: unknown) => ((r as { content: Array<{ text?: string }> }).content.map((c) => c.text ?? '').join('\n'));
    const remembered = text(await client.callTool({ name: 'remember', arguments: { text: 'the heron deploy key rotates monthly' } }));
    const id = /\bk\d+\b/u.exec(remembered)?.[0];
    expect(id).toBeDefined();
    const before = server.readerAnswers();
    expect(text(await client.callTool({ name: 'recall', arguments: { query: 'heron deploy key' } }))).toContain('heron deploy key rotates');
    await client.callTool({ name: 'forget', arguments: { id } });
    expect(text(await client.callTool({ name: 'recall', arguments: { query: 'heron deploy key' } }))).not.toContain('heron deploy key rotates');
    expect(server.readerAnswers() - before).toBe(2);
    await client.close();
  });
});
