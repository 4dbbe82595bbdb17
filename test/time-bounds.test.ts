/**
 * Validation before the engine (issue 22.7): times and numbers no code path can represent are `invalid_input`
 * naming the field, on the library, REST, MCP and the CLI; a poisoned row already stored breaks no read.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_TIME_MS } from '../src/core/clock.js';
import { isTidepoolError } from '../src/core/errors.js';
import type { SqlDriver } from '../src/store/sql-driver.js';
import { createHttpApp } from '../src/surfaces/http/http-app.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { runCli } from './helpers/run-cli.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

let t: TempMemory;
beforeEach(async () => {
  t = await tempMemory();
});
afterEach(async () => t.cleanup());

const PAST_DATE = 8_640_000_000_000_001; // one past the last time a JavaScript Date can hold

async function exportLines(): Promise<string[]> {
  const out: string[] = [];
  for await (const l of t.memory.export()) out.push(l);
  return out;
}

async function mcp(): Promise<Client> {
  const server = await createMcpServer(t.memory, {});
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'time-bounds', version: '1.0.0' });
  await client.connect(b);
  return client;
}

function textOf(r: unknown): string {
  return ((r as { content: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');
}

describe('out-of-range times and numbers are invalid_input naming the field', () => {
  it('in the library', async () => {
    await t.memory.remember({ text: 'baseline' });
    const before = await exportLines();
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => t.memory.record({ content: 'x', at: PAST_DATE }), 'at'],
      [() => t.memory.record({ content: 'x', at: MAX_TIME_MS + 1 }), 'at'],
      [() => t.memory.record({ content: 'x', at: -1 }), 'at'],
      [() => t.memory.record({ content: 'x', at: Number.NaN }), 'at'],
      [() => t.memory.record({ content: 'x', at: Number.POSITIVE_INFINITY }), 'at'],
      [() => t.memory.record({ turns: [{ content: 'x', at: 1.5 }] }), 'turns.0.at'],
      [() => t.memory.timeline({ from: PAST_DATE }), 'from'],
      [() => t.memory.timeline({ to: PAST_DATE }), 'to'],
      [() => t.memory.timeline({ offset: Number.NaN }), 'offset'],
      [() => t.memory.timeline({ limit: 1e12 }), 'limit'],
      [() => t.memory.recall({ query: 'x', since: PAST_DATE }), 'since'],
      [() => t.memory.recall({ query: 'x', until: '99999-01-01' }), 'until'],
      [() => t.memory.recall({ query: 'x', limit: Number.NaN }), 'limit'],
      [() => t.memory.recall({ query: 'x', maxTokens: 1e15 }), 'maxTokens'],
      [() => t.memory.write({ gesture: 'x', at: PAST_DATE }), 'at'],
    ];
    for (const [call, field] of cases) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isTidepoolError(err, 'invalid_input'), `${field}: ${String(err)}`).toBe(true);
      expect((err as { field?: string }).field, String(err)).toBe(field);
    }
    expect(await exportLines()).toEqual(before);
    // The edges themselves are fine.
    await t.memory.record({ content: 'the last representable moment', at: MAX_TIME_MS });
    await t.memory.record({ content: 'the first one', at: 0 });
  });

  it('over REST', async () => {
    const http = createHttpApp({ memory: t.memory, version: 'test', mcpServer: (session) => createMcpServer(t.memory, { session }) });
    try {
      const post = (body: unknown) => http.app.request('/v1/ingest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const r = await post({ content: 'x', at: PAST_DATE });
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ error: { code: 'invalid_input', field: 'at' } });
      for (const [q, field] of [['from=8640000000000001', 'from'], ['to=99999999999999999999', 'to'], ['offset=NaN', 'offset']] as const) {
        const g = await http.app.request(`/v1/timeline?${q}`);
        expect(g.status, q).toBe(400);
        expect(await g.json()).toMatchObject({ error: { code: 'invalid_input', field } });
      }
      const s = await http.app.request('/v1/recall?q=x&since=8640000000000001');
      expect(s.status).toBe(400);
      expect(await s.json()).toMatchObject({ error: { code: 'invalid_input', field: 'since' } });
      expect((await http.app.request('/v1/timeline?offset=0')).status).toBe(200);
    } finally {
      await http.close();
    }
  });

  it('over MCP (an error naming the field, not internal)', async () => {
    const client = await mcp();
    try {
      for (const [name, args, field] of [
        ['record', { content: 'x', at: PAST_DATE }, 'at'],
        ['timeline', { from: PAST_DATE }, 'from'],
        ['recall', { query: 'x', since: PAST_DATE }, 'since'],
      ] as const) {
        const r = await client.callTool({ name, arguments: args });
        expect(r.isError, name).toBe(true);
        expect(textOf(r), name).toMatch(new RegExp(`invalid_input|${field}`));
        expect(textOf(r), name).toContain(field);
        expect(textOf(r), name).not.toMatch(/internal|Invalid time value/);
      }
    } finally {
      await client.close();
    }
  });

  it('on the CLI', async () => {
    const r = await runCli(['record', 'x', '--at', String(PAST_DATE), '--db', t.path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/at: must not be after 9999-12-31/);
    const s = await runCli(['recall', 'x', '--since', '99999-01-01', '--db', t.path]);
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/since/);
  }, 60_000);
});

describe('a poisoned row already in the database', () => {
  it('breaks no read: timeline (any offset), recall, export and MCP show it clamped and warn', async () => {
    await t.memory.record({ turns: [{ content: 'a poisoned turn about lanterns', session: 's' }, { content: 'a healthy turn about lanterns', session: 's' }] });
    const db = (appContextOf(t.memory).store as unknown as { db: SqlDriver }).db;
    // As an old version (or a restored file) could have written it.
    await db.run('UPDATE episodes SET occurred_at = ?, created_at = ? WHERE id = 1', [PAST_DATE, PAST_DATE]);
    const page = await t.memory.timeline({ offset: 0 });
    expect(page.items.map((e) => e.occurredAt)).toContain(MAX_TIME_MS);
    expect(t.warnings.join('\n')).toMatch(/past 9999-12-31/);
    expect((await t.memory.recall({ query: 'lanterns' })).map((h) => h.text)).toEqual(
      expect.arrayContaining(['a poisoned turn about lanterns', 'a healthy turn about lanterns']),
    );
    expect((await exportLines()).length).toBeGreaterThan(2);
    const client = await mcp();
    try {
      const tl = await client.callTool({ name: 'timeline', arguments: {} });
      expect(tl.isError ?? false).toBe(false);
      expect(textOf(tl)).toContain('9999-12-31');
      const rc = await client.callTool({ name: 'recall', arguments: { query: 'lanterns' } });
      expect(rc.isError ?? false).toBe(false);
      expect(textOf(rc)).toContain('poisoned turn');
    } finally {
      await client.close();
    }
  });
});
