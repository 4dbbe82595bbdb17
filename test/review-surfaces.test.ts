/** One review path: approve and reject through the library, the CLI, MCP over HTTP and REST (the dashboard's route) give the same rows. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type HttpHandle } from '../src/boot/serve.js';
import { runInProcess } from './helpers/cli-in-process.js';
import { tempMemory, T0, type TempMemory } from './helpers/temp-memory.js';
import { resultText } from './mcp-tool-cases.js';
import { appContextOf } from '../src/app/tidepool.js';

let tm: TempMemory | undefined;
let http: HttpHandle | undefined;
afterEach(async () => {
  await http?.close();
  http = undefined;
  await tm?.cleanup();
  tm = undefined;
});

/** A quarantined proposal as the night leaves it, waiting for review. */
async function quarantined(m: TempMemory, content: string, meta: Record<string, unknown>): Promise<number> {
  return appContextOf(m.memory).store.forSpace(m.memory.space).knowledge.insert({
    kind: 'fact', key: null, subject: null, content, status: 'quarantined', occurrences: 1, strength: 0.5, importance: 3,
    durable: false, tags: [], evidence: { episodes: [], narratives: [] }, source: 'sleep', validFrom: T0, validTo: null,
    createdAt: T0, meta: { quarantine: meta }, embedPending: false, index: { body: content.toLowerCase(), extra: '', raw: content },
  });
}

/**
 * The same starting state for every surface: a reliable keyed entry contradicted by one quarantined proposal
 * (`conflictsWith`, as the contradiction check records it) and a reliable entry another proposal would replace.
 */
async function seeded(): Promise<TempMemory> {
  const m = await tempMemory();
  await m.memory.remember({ text: 'The office is in Berlin', key: 'office.city' });
  await m.memory.remember({ text: 'We deploy on Tuesdays' });
  await appContextOf(m.memory).store.forSpace(m.memory.space).knowledge.setStatus([1, 2], 'reliable', T0);
  await quarantined(m, 'The office is not in Berlin but in Paris', { conflictsWith: 1, key: 'office.city', reason: 'contradicts (negation)' });
  await quarantined(m, 'We deploy on Fridays', { supersedes: 2, key: null, reason: 'would replace reliable knowledge' });
  return m;
}

/** The knowledge rows a verdict can change, without timestamps (each surface runs at its own time). */
async function rows(m: TempMemory): Promise<unknown[]> {
  const all = await appContextOf(m.memory).store.forSpace(m.memory.space).knowledge.getMany([1, 2, 3, 4]);
  return all.map((k) => ({
    id: k.id, status: k.status, key: k.key, supersededBy: k.supersededBy, occurrences: k.occurrences, content: k.content,
    verdict: (k.meta.review as { verdict?: string } | undefined)?.verdict ?? null,
  }));
}

type Surface = (m: TempMemory, id: string, verdict: 'approve' | 'reject') => Promise<void>;

const SURFACES: Record<string, Surface> = {
  library: async (m, id, verdict) => {
    await m.memory.review({ id, verdict });
  },
  cli: async (m, id, verdict) => {
    const r = await runInProcess(['review', id, `--${verdict}`], { db: m.path, cwd: m.dir });
    expect(r.code, r.stderr).toBe(0);
  },
  mcp: async (m, id, verdict) => {
    http ??= await startHttpServer(m.memory, { host: '127.0.0.1', port: 0, toolsets: 'core,sleep' });
    const client = new Client({ name: 'review-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`)));
    try {
      const r = await client.callTool({ name: 'review', arguments: { id, verdict } });
      expect(r.isError, resultText(r)).toBeFalsy();
    } finally {
      await client.close();
    }
  },
  // The dashboard's buttons send exactly this request (src/surfaces/web/app/pages/knowledge.ts).
  rest: async (m, id, verdict) => {
    http ??= await startHttpServer(m.memory, { host: '127.0.0.1', port: 0 });
    const r = await fetch(`${http.url}/v1/knowledge/${id}/review`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decision: verdict }),
    });
    expect(r.status, await r.clone().text()).toBe(200);
  },
};

describe('one review path', () => {
  it('gives the same rows on every surface: approval makes the entry reliable and supersedes what it contradicted', async () => {
    const results: Record<string, unknown[]> = {};
    for (const [name, run] of Object.entries(SURFACES)) {
      tm = await seeded();
      await run(tm, 'k3', 'approve');
      await run(tm, 'k4', 'reject');
      results[name] = await rows(tm);
      await http?.close();
      http = undefined;
      await tm.cleanup();
      tm = undefined;
    }
    expect(results.library).toEqual([
      { id: 1, status: 'superseded', key: 'office.city', supersededBy: 3, occurrences: 1, content: 'The office is in Berlin', verdict: null },
      { id: 2, status: 'reliable', key: null, supersededBy: null, occurrences: 1, content: 'We deploy on Tuesdays', verdict: null },
      { id: 3, status: 'reliable', key: 'office.city', supersededBy: null, occurrences: 1, content: 'The office is not in Berlin but in Paris', verdict: 'approve' },
      { id: 4, status: 'forgotten', key: null, supersededBy: null, occurrences: 1, content: 'We deploy on Fridays', verdict: 'reject' },
    ]);
    for (const name of ['cli', 'mcp', 'rest']) expect(results[name], name).toEqual(results.library);
  });

  it('approving what would replace a reliable entry supersedes that entry on every surface', async () => {
    for (const [name, run] of Object.entries(SURFACES)) {
      tm = await seeded();
      await run(tm, 'k4', 'approve');
      const [, two, , four] = (await rows(tm)) as Array<{ status: string; supersededBy: number | null }>;
      expect([two?.status, two?.supersededBy, four?.status], name).toEqual(['superseded', 4, 'reliable']);
      await http?.close();
      http = undefined;
      await tm.cleanup();
      tm = undefined;
    }
  });
});
