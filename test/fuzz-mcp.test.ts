/**
 * Property tests over every MCP tool (issue #6): wrong types, hostile strings and deep nesting get a clear answer
 * through the real SDK client, never a transport error, a hang, a stack trace or a changed store on error.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSleep } from '../src/app/agent-sleep.js';
import { appContextOf, Tidepool } from '../src/app/tidepool.js';
import { FixedClock } from '../src/core/clock.js';
import { parseConfig } from '../src/core/config.js';
import { isTidepoolError } from '../src/core/errors.js';
import { parseId } from '../src/core/ids.js';
import { openPostgresStore } from '../src/store/postgres/open-postgres.js';
import { openSqliteStore } from '../src/store/sqlite/open-sqlite.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import {
  asStored, deepNest, describeInput, fromSchema, HOSTILE_STRINGS, hostileString, keepInside, storeDigest, treeDigest, unclearMessage, within, wrongTypes,
  type JsonSchema,
} from './helpers/hostile.js';
import { T0, tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { resultText, TOOL_CASES } from './mcp-tool-cases.js';

/** Runs per tool and property: small, so 39 tools stay well under a minute on a loaded 2-core machine. */
const RUNS = { oneField: 20, schema: 16, wrongTypes: 10 } as const;
/** Base seed; each tool adds its index so one tool's failure replays alone (`seed` and `path` are in the report). */
const SEED = 20_260_601;
const CALL_MS = 30_000;

let base: string;
let cwd: string;
let workspace: string;
let previousCwd: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-fuzz-mcp-')));
  cwd = join(base, 'cwd');
  workspace = join(base, 'workspace');
  mkdirSync(cwd);
  mkdirSync(workspace);
  // The journal tools default to the server's working directory: keep their files out of the repository.
  previousCwd = process.cwd();
  process.chdir(cwd);
});

afterAll(() => {
  if (process.env.FUZZ_VERBOSE) for (const [n, o] of outcomes) console.log(n, o.ok, o.error, [...o.codes].join(','));
  process.chdir(previousCwd);
  rmSync(base, { recursive: true, force: true });
});

interface Session {
  mem: TempMemory;
  client: Client;
  tools: Map<string, JsonSchema>;
  close(): Promise<void>;
}

/** A fresh memory with a little of everything in it, served with every toolset to a real SDK client. */
async function open(): Promise<Session> {
  const mem = await tempMemory();
  const m = mem.memory;
  await m.remember({ text: 'The staging database listens on port 6543', key: 'staging.port', tags: ['infra'] });
  await m.record({ turns: [{ role: 'user', content: 'Can you check staging?', session: 's1' }, { role: 'assistant', content: 'It is on 6543.', session: 's1' }] });
  await m.write({ gesture: 'I fixed the sync race at dawn', tags: ['sync'], entities_role: 'Ana=judge; Ben=review' });
  await m.registerJournalWorkspace(workspace);
  const server = await createMcpServer(m, { toolsets: 'all' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'fuzz', version: '1.0.0' });
  await client.connect(b);
  // Lay out the workspace once, so a later refused call that touches files is a real change.
  await client.callTool({ name: 'journal_stats', arguments: { root: workspace } });
  await client.callTool({ name: 'journal_stats', arguments: {} });
  const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t.inputSchema as JsonSchema]));
  return {
    mem, client, tools,
    async close() {
      await client.close();
      await mem.cleanup();
    },
  };
}

/** Per-property arbitraries that keep calls useful: mostly the registered workspace, short sleep waits. */
const overrides = () => ({
  root: fc.oneof({ weight: 3, arbitrary: fc.constant(workspace) }, { weight: 1, arbitrary: hostileString({ huge: false }).map((p) => keepInside(base, cwd, p)) }),
  // A valid wait is 0 (the property must not sit out the default 30 s); the others are out of range.
  wait_seconds: fc.constantFrom(0, -1, 121, 0.5),
});

/** Success oracles beyond "it answered": what a write stored, what a read returned. */
async function checkSuccess(s: Session, name: string, args: Record<string, unknown>, data: Record<string, unknown>): Promise<void> {
  if (name === 'remember') {
    expect(String(data.id)).toMatch(/^k\d+$/);
    const row = await appContextOf(s.mem.memory).store.forSpace('default').knowledge.get(parseId(String(data.id)).id);
    expect(row?.content).toBe(asStored(String(args.text).trim()));
  }
  if (name === 'recall' || name === 'memory_search' || name === 'context_search') {
    const results = data.results as unknown[];
    expect(Array.isArray(results)).toBe(true);
    expect(results.length).toBeLessThanOrEqual(typeof args.limit === 'number' ? args.limit : 200);
  }
  if (name === 'record') {
    const turns = Array.isArray(args.turns) ? args.turns.length : 1;
    expect((data.ids as unknown[]).length + Number(data.skipped ?? 0)).toBe(turns);
  }
  if (name === 'timeline') {
    expect((data.items as unknown[]).length).toBeLessThanOrEqual(typeof args.limit === 'number' ? args.limit : 20);
  }
}

/** Successes and errors per tool: the generators must reach the use cases, not only the schema checks. */
const outcomes = new Map<string, { ok: number; error: number; codes: Set<string> }>();

/**
 * Waits until a night that sleep_next started in the background waits for the agent (or ended), so its own writes
 * are not taken for those of the next, refused call.
 */
async function nightAtRest(s: Session): Promise<void> {
  const hub = agentSleep(appContextOf(s.mem.memory));
  for (let i = 0; i < 500 && hub.running && hub.model.pendingCount() === 0; i++) await new Promise((r) => setTimeout(r, 10));
}

/** One call: it settles, and is either a success with content or a clear error that changed nothing. */
async function callAndCheck(s: Session, name: string, args: unknown): Promise<void> {
  const journal = name.startsWith('journal_');
  if (name.startsWith('sleep_')) await nightAtRest(s);
  const before = await storeDigest(s.mem.memory);
  const files = journal ? [treeDigest(workspace), treeDigest(cwd)] : [];
  const r = await within(CALL_MS + 5_000, `${name} call`, s.client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, { timeout: CALL_MS }));
  const text = resultText(r);
  const where = `${name}(${describeInput(args)}) → ${text.slice(0, 300)}`;
  const o = outcomes.get(name) ?? { ok: 0, error: 0, codes: new Set<string>() };
  outcomes.set(name, o);
  if (r.isError) {
    o.error++;
    o.codes.add(/^Error \(([a-z_]+)\)/.exec(text)?.[1] ?? 'schema');
    expect(unclearMessage(text, args), where).toBeUndefined();
    // Tool errors carry a code (never "internal", which is an unexpected exception); the SDK's schema refusals (a
    // JSON-RPC -32602 from SDK 1.x, an isError result "Input validation error: …" from 2.x) name the field.
    expect(text, where).toMatch(/^(Error \((?!internal\))[a-z_]+\): \S|MCP error -32602: |Input validation error: Invalid arguments for tool )/);
    expect(await storeDigest(s.mem.memory), `store changed by a refused call: ${where}`).toBe(before);
    if (journal) expect([treeDigest(workspace), treeDigest(cwd)], `files changed by a refused call: ${where}`).toEqual(files);
  } else {
    o.ok++;
    expect(text.length, where).toBeGreaterThan(0);
    expect(typeof r.structuredContent, where).toBe('object');
    await checkSuccess(s, name, args as Record<string, unknown>, r.structuredContent as Record<string, unknown>);
  }
}

const names = TOOL_CASES.map((c) => c.name);

describe('MCP tools under hostile input', () => {
  it('the fuzzed tool list is the server\'s whole tool list', { timeout: 60_000 }, async () => {
    const s = await open();
    try {
      expect([...s.tools.keys()].sort()).toEqual([...names].sort());
    } finally {
      await s.close();
    }
  });

  it('prompts and resources answer hostile arguments and URIs with a result or a clean protocol error', { timeout: 120_000 }, async () => {
    const s = await open();
    try {
      const prompts = (await s.client.listPrompts()).prompts.map((p) => p.name);
      const uris = (await s.client.listResources()).resources.map((r) => r.uri);
      expect(prompts).toContain('context');
      const promptArgs = fc.dictionary(fc.oneof(fc.constant('max_tokens'), hostileString({ huge: false })), hostileString(), { maxKeys: 3 });
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...prompts), promptArgs, async (name, args) => {
          const before = await storeDigest(s.mem.memory);
          const r = await within(CALL_MS, `prompt ${name}`, s.client.getPrompt({ name, arguments: args }, { timeout: CALL_MS })).then(
            (x) => ({ ok: true, text: JSON.stringify(x) }),
            (e: unknown) => ({ ok: false, text: (e as Error).message }),
          );
          expect(unclearMessage(r.text, args), `${name} ${describeInput(args)}: ${r.text.slice(0, 300)}`).toBeUndefined();
          if (!r.ok) expect(await storeDigest(s.mem.memory)).toBe(before);
        }),
        { seed: SEED + 400, numRuns: 20 },
      );
      const uri = fc.oneof(fc.constantFrom(...uris), hostileString({ huge: false }), fc.constantFrom('tidepool://context/../../etc/passwd', 'file:///etc/passwd', 'tidepool://briefing/1970-01-01', 'tidepool://', ''));
      await fc.assert(
        fc.asyncProperty(uri, async (u) => {
          const r = await within(CALL_MS, `resource ${u.slice(0, 50)}`, s.client.readResource({ uri: u }, { timeout: CALL_MS })).then(
            (x) => ({ ok: true, text: JSON.stringify(x) }),
            (e: unknown) => ({ ok: false, text: (e as Error).message }),
          );
          expect(r.ok, u).toBe(uris.includes(u));
          expect(unclearMessage(r.text, u), `${u}: ${r.text.slice(0, 300)}`).toBeUndefined();
        }),
        { seed: SEED + 401, numRuns: 20 },
      );
    } finally {
      await s.close();
    }
  });

  it('refuses free JSON nested past 100 levels (metadata, answers) instead of failing inside JSON.stringify', { timeout: 60_000 }, async () => {
    // Found by fuzz-http: ingest meta nested 200,000 deep answered 500 (RangeError when the row was written).
    const s = await open();
    try {
      for (const [name, args] of [
        ['context_record', { content: 'deep metadata', metadata: deepNest(200_000) as Record<string, unknown> }],
        ['sleep_submit', { packet_id: 'packet-1', answer: deepNest(200_000) as Record<string, unknown> }],
      ] as const) {
        const before = await storeDigest(s.mem.memory);
        const r = await s.client.callTool({ name, arguments: args });
        expect(r.isError, name).toBe(true);
        expect(resultText(r)).toMatch(/must be nested at most 100 levels deep/);
        expect(await storeDigest(s.mem.memory)).toBe(before);
      }
      const ok = await s.client.callTool({ name: 'context_record', arguments: { content: 'shallow metadata', metadata: deepNest(99) as Record<string, unknown> } });
      expect(ok.isError, resultText(ok)).toBeFalsy();
    } finally {
      await s.close();
    }
  });

  it.each(names.map((n, i) => [n, i] as const))('%s: wrong types, hostile strings and deep nesting', { timeout: 120_000 }, async (name, i) => {
    const s = await open();
    try {
      const schema = s.tools.get(name)!;
      const props = Object.keys(schema.properties ?? {});
      const valid = { ...TOOL_CASES.find((c) => c.name === name)!.valid, ...(name.startsWith('journal_') ? { root: workspace } : {}) };
      // (b1) a valid call with one field replaced by a hostile value (FTS5 syntax, SQL, control characters, lone
      // surrogates, 100k chars): most of these reach the use case and must succeed or be refused cleanly.
      if (props.length > 0) {
        const oneField = fc.constantFrom(...props).chain((k) => fromSchema(schema.properties![k]!, {}, 1).map((v) => ({ ...valid, [k]: v })));
        await fc.assert(fc.asyncProperty(oneField, (args) => callAndCheck(s, name, args)), { seed: SEED + 300 + i, numRuns: RUNS.oneField });
      }
      // (b2) the tool's whole shape generated from its input schema, hostile strings in every string field.
      await fc.assert(
        fc.asyncProperty(fromSchema(schema, { override: overrides() }), (args) => callAndCheck(s, name, args)),
        { seed: SEED + i, numRuns: RUNS.schema },
      );
      // (a) the tool's keys (and a stray one) holding arbitrary JSON of the wrong type; and arguments that are no object.
      await fc.assert(
        fc.asyncProperty(wrongTypes(schema), (args) => callAndCheck(s, name, args)),
        { seed: SEED + 100 + i, numRuns: RUNS.wrongTypes },
      );
      for (const args of [[], 'text', 42, null, [{ text: 'x' }]]) {
        const r = await s.client.callTool({ name, arguments: args as never }, undefined, { timeout: CALL_MS }).then(
          (x) => ({ isError: x.isError, text: resultText(x) }),
          (e: unknown) => ({ isError: true, text: (e as Error).message }),
        );
        expect(r.isError, `${name} accepted arguments ${JSON.stringify(args)}`).toBe(true);
        expect(unclearMessage(r.text, args)).toBeUndefined();
      }
      // (c) every field (or a stray one when the tool takes none) holding a value nested 1,000, 5,000 or 200,000 levels
      // deep: exhaustive, since the one field that takes free JSON is the one that matters.
      for (const key of props.length > 0 ? props : ['deep']) {
        for (const [depth, kind] of [[1_000, 'array'], [5_000, 'mixed'], [200_000, 'object']] as const) {
          await callAndCheck(s, name, { ...valid, [key]: deepNest(depth, kind) });
        }
      }
      // The generators reach the use case (some calls succeed) and its refusals (some fail): neither side is vacuous.
      const o = outcomes.get(name)!;
      expect(o.ok, `${name}: no generated call succeeded`).toBeGreaterThan(0);
      expect(o.error, `${name}: no generated call was refused`).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });
});

describe('hostile text on both engines', () => {
  it('SQLite and PGlite accept and refuse the same hostile text, store the same rows and search it without errors', { timeout: 120_000 }, async () => {
    const clock = new FixedClock(T0);
    const engines = await Promise.all([openSqliteStore(':memory:'), openPostgresStore('pglite://memory')]);
    const memories = engines.map((store) => new Tidepool({ store, config: parseConfig({}), clock, embedder: undefined, space: 'default', warn: () => undefined }, () => store.close()));
    const outcome = (m: Tidepool, f: (m: Tidepool) => Promise<unknown>) =>
      f(m).then(
        () => 'ok',
        (e: unknown) => (isTidepoolError(e) ? e.code : `crash: ${(e as Error).message}`),
      );
    const same = async (text: string, f: (m: Tidepool) => Promise<unknown>) => {
      const [a, b] = [await outcome(memories[0]!, f), await outcome(memories[1]!, f)];
      expect(a, `${JSON.stringify(text)}: ${f.toString()}`).not.toMatch(/^crash/);
      expect(b, `${JSON.stringify(text)} on PGlite: ${f.toString()}`).toBe(a);
    };
    const exported = (m: Tidepool) => collectLines(m.export());
    try {
      // Found by this test before the fix: PGlite refused any text with NUL (`invalid byte sequence for encoding "UTF8": 0x00`).
      for (const text of HOSTILE_STRINGS) {
        await same(text, (m) => m.remember({ text, key: text.trim() ? text.slice(0, 200) : undefined }));
        await same(text, (m) => m.record({ content: `${text} said`, session: text.trim() ? text.slice(0, 200) : undefined, speaker: 'Ana' }));
      }
      // PGlite decodes text with a TextDecoder, which drops a leading U+FEFF (BOM): that one difference is not ours.
      const [onSqlite, onPglite] = await Promise.all(memories.map(exported));
      expect(onPglite).toEqual(onSqlite!.map((l) => l.replace(/"content":"\ufeff/g, '"content":"')));
      // Reads rank differently (BM25 vs tsvector), so only their outcome is compared.
      for (const text of HOSTILE_STRINGS) {
        await same(text, (m) => m.recall({ query: text }));
        await same(text, (m) => m.recall({ query: `${text} said`, layers: ['episode'] }));
        await same(text, (m) => m.timeline({ session: text }));
      }
    } finally {
      for (const m of memories) await m.close();
    }
  });
});

async function collectLines(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const l of lines) out.push(l);
  return out;
}
