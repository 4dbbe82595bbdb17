/**
 * Failures speak (issue #19 item 4): an embedder on 127.0.0.1 that answers 500 or drops the connection, and a JSON
 * column corrupted in a real SQLite file, are warnings in the log and in doctor, while every call still answers.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { openMemory } from '../src/boot/open-memory.js';
import { createEmbedder } from '../src/boot/create-embedder.js';
import { parseConfig } from '../src/core/config.js';
import { parseId } from '../src/core/ids.js';
import { prefetch } from '../src/app/injection/prefetch.js';
import { sleep } from '../src/app/sleep.js';
import { appContextOf } from '../src/app/tidepool.js';
import { embedNew } from '../src/sleep/embed-new.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { runInProcess } from './helpers/cli-in-process.js';
import { tempMemory, T0, type TempMemory } from './helpers/temp-memory.js';
import { recordDay, ResponderModel } from './sleep-fixtures.js';

type Failure = 'ok' | 'status500' | 'hangup';

/** An embedding service (Tideline's protocol) whose answer the test switches: vectors, a 500, or a dropped connection. */
async function startFlakyEmbedder(): Promise<{ url: string; mode: { now: Failure }; close(): Promise<void> }> {
  const mode = { now: 'ok' as Failure };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (mode.now === 'hangup') return void req.socket.destroy();
      if (mode.now === 'status500') return void res.writeHead(500).end('model crashed');
      const { texts } = JSON.parse(body) as { texts: string[] };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ embeddings: texts.map((t) => [t.length % 7, 1, 2, 3]) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/embed_batch`,
    mode,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of open.reverse()) await c();
  open = [];
});

async function memoryWithFlakyEmbedder(): Promise<{ t: TempMemory; mode: { now: Failure } }> {
  const svc = await startFlakyEmbedder();
  open.push(svc.close);
  const t = await tempMemory({ config: { embedder: { provider: 'tideline', url: svc.url, attempts: 1, backoffMs: 1 } } });
  open.push(t.cleanup);
  return { t, mode: svc.mode };
}

describe('failures speak', () => {
  for (const failure of ['status500', 'hangup'] as const) {
    it(`an embedder that fails (${failure}) is a warning in the log and doctor; writes and recall still answer`, async () => {
      const { t, mode } = await memoryWithFlakyEmbedder();
      await t.memory.remember({ text: 'the lighthouse lamp runs on whale oil' });
      mode.now = failure;

      const r = await t.memory.record({ content: 'the harbour master lost the lighthouse key', session: 's' });
      expect(r.ids).toHaveLength(1);
      expect(r.embedded).toBe(0);
      expect(t.warnings.some((w) => /marked for later embedding/.test(w))).toBe(true);

      // Recall falls back to words, as before, and now says so.
      const hits = await t.memory.recall({ query: 'lighthouse key' });
      expect(hits.map((h) => h.text)).toContain('the harbour master lost the lighthouse key');
      expect(t.warnings.some((w) => /recall answered from words only/.test(w))).toBe(true);

      const report = await t.memory.doctor();
      expect(report.embedder.reachable).toBe(false);
      const kinds = Object.fromEntries(report.warnings.map((w) => [w.kind, w]));
      expect(kinds.embed_failed?.count).toBe(1);
      expect(kinds.query_embed_failed?.count).toBeGreaterThanOrEqual(1);
      expect(kinds.embed_failed?.recent.at(-1)).toMatch(/1 episode item\(s\) marked for later embedding/);

      // Back up: the pending row is embedded, and the record of what happened stays for doctor.
      mode.now = 'ok';
      expect((await t.memory.embedPending()).episode).toBe(1);
      expect((await t.memory.doctor()).warnings.find((w) => w.kind === 'embed_failed')?.count).toBe(1);
    });
  }

  it('prefetch (injection) answers lexically when the embedder fails and warns', async () => {
    const { t, mode } = await memoryWithFlakyEmbedder();
    await t.memory.remember({ text: 'the ferry to the island leaves at seven' });
    mode.now = 'status500';
    const out = await prefetch(appContextOf(t.memory), { text: 'when does the ferry leave?', session: 'p' });
    expect(out.text).toContain('ferry');
    expect(t.warnings.some((w) => /injection: no cosine floor/.test(w))).toBe(true);
  });

  it('context_record says embedded from what happened, not from the config', async () => {
    const { t, mode } = await memoryWithFlakyEmbedder();
    const server = await createMcpServer(t.memory, { toolsets: 'all' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'test', version: '1' });
    await server.connect(a);
    await client.connect(b);
    open.push(() => client.close());
    const call = async () => {
      const res = await client.callTool({ name: 'context_record', arguments: { content: 'tide tables for december' } });
      return res.structuredContent as { embedded: boolean; ids: string[] };
    };
    expect((await call()).embedded).toBe(true);
    mode.now = 'hangup';
    const failed = await call();
    expect(failed.embedded).toBe(false);
    expect(await appContextOf(t.memory).store.forSpace('default').vectors.pending('episode', 10)).toEqual([
      expect.objectContaining({ id: parseId(failed.ids[0]!).id }),
    ]);
  });

  it('a night whose embedder fails still sleeps, and says so', async () => {
    const { t, mode } = await memoryWithFlakyEmbedder();
    await recordDay(t.memory, T0);
    mode.now = 'status500';
    t.clock.set(T0 + 86_400_000);
    const r = await sleep(appContextOf(t.memory), { modelInstance: new ResponderModel() });
    expect(r.kind).toBe('slept');
    expect(t.warnings.filter((w) => /unavailable during the night, \d+ item\(s\) marked for later embedding/.test(w)).length).toBeGreaterThan(0);
    expect(t.warnings.some((w) => /unavailable during the night, searched by words only/.test(w))).toBe(true);
    const kinds = (await t.memory.doctor()).warnings.map((w) => w.kind).sort();
    expect(kinds).toEqual(['embed_failed', 'query_embed_failed']);
  });

  it('the one embedding loop reports how many it left and the first error', async () => {
    const svc = await startFlakyEmbedder();
    open.push(svc.close);
    const t = await tempMemory();
    open.push(t.cleanup);
    const { ids } = await t.memory.record({ turns: [{ content: 'one' }, { content: 'two' }] });
    const embedder = createEmbedder(parseConfig({ embedder: { provider: 'tideline', url: svc.url, attempts: 1 } }).embedder)!;
    const rows = ids.map((id, i) => ({ layer: 'episode' as const, id: parseId(id).id, text: String(i) }));
    svc.mode.now = 'status500';
    const out = await embedNew({ store: appContextOf(t.memory).store, embedder, space: 'default', now: () => 1 }, rows);
    expect(out).toMatchObject({ embedded: 0, failed: 2 });
    expect(out.error).toMatch(/500/);
    svc.mode.now = 'ok';
    expect(await embedNew({ store: appContextOf(t.memory).store, embedder, space: 'default', now: () => 1 }, rows)).toEqual({ embedded: 2, failed: 0 });
  });

  it('a corrupt JSON column in a real SQLite file is read as empty and named in doctor (library and CLI)', async () => {
    const t = await tempMemory();
    open.push(async () => rmSync(t.dir, { recursive: true, force: true }));
    const k = await t.memory.remember({ text: 'the pier was rebuilt in oak', tags: ['harbour'] });
    const kid = parseId(k.id).id;
    await t.memory.close();
    const db = new Database(t.path);
    db.prepare('UPDATE knowledge SET tags = ? WHERE id = ?').run('["harbour", oops', kid);
    db.close();

    // The CLI: the read still answers, then doctor (another open of the file) names the place.
    const recalled = await runInProcess(['recall', 'pier oak', '--json'], { db: t.path, cwd: t.dir });
    expect(recalled.code, recalled.stderr).toBe(0);
    expect(recalled.stdout).toContain('the pier was rebuilt in oak');
    expect(recalled.stderr).toContain(`corrupt JSON in knowledge.tags of row ${kid} (space default): not valid JSON (16 characters)`);
    expect(recalled.stderr, 'the stored text stays out of the log').not.toContain('oops');
    const json = await runInProcess(['doctor', '--json'], { db: t.path, cwd: t.dir });
    const report = JSON.parse(json.stdout) as { warnings: Array<{ kind: string; count: number; recent: string[] }> };
    expect(report.warnings).toEqual([
      expect.objectContaining({ kind: 'corrupt_column', count: 1, recent: [expect.stringContaining(`knowledge.tags of row ${kid}`)] }),
    ]);
    const text = await runInProcess(['doctor'], { db: t.path, cwd: t.dir });
    expect(text.stdout).toMatch(/warnings\s+corrupt_column ×1/);

    // The library: the row reads with empty tags, and the count grows.
    const warnings: string[] = [];
    const m = await openMemory({ path: t.path, embedder: 'none', warn: (w) => warnings.push(w) });
    try {
      const hits = await m.recall({ query: 'pier oak' });
      expect(hits[0]!.text).toBe('the pier was rebuilt in oak');
      expect(warnings.some((w) => w.includes('knowledge.tags'))).toBe(true);
      expect((await m.doctor()).warnings[0]).toMatchObject({ kind: 'corrupt_column', count: 2 });
    } finally {
      await m.close();
    }
  });
});
