/** MCP over the SDK's in-memory transport: tool lists per toolset, annotations, every tool, resources, prompt, wake state. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { appContextOf, type Tidepool } from '../src/app/tidepool.js';
import { countTokens } from '../src/core/token-count.js';
import type { SqlDriver } from '../src/store/sql-driver.js';
import { createMcpServer, type CreateMcpServerOptions } from '../src/surfaces/mcp/create-mcp-server.js';
import { TOOLSETS } from '../src/surfaces/mcp/toolsets.js';
import { exerciseAllTools, journalRoot, resultText, TOOL_CASES, TOOL_NAMES } from './mcp-tool-cases.js';

const JOURNAL_ROOT = journalRoot();
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';

let mem: TempMemory | undefined;
const clients: Client[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await mem?.cleanup();
  mem = undefined;
});

async function connect(memory: Tidepool, opts: CreateMcpServerOptions = {}): Promise<Client> {
  const server = await createMcpServer(memory, opts);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(b);
  clients.push(client);
  return client;
}

function driver(memory: Tidepool): SqlDriver {
  return (appContextOf(memory).store as unknown as { db: SqlDriver }).db;
}

describe('MCP toolsets', () => {
  it('registers exactly the pinned tools of each toolset, and core alone by default', async () => {
    mem = await tempMemory();
    for (const t of TOOLSETS) expect([...t.tools].sort(), t.name).toEqual([...TOOL_NAMES[t.name as keyof typeof TOOL_NAMES]].sort());
    const byDefault = await connect(mem.memory);
    expect((await byDefault.listTools()).tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES.core].sort());
    const tideline = await connect(mem.memory, { toolsets: 'tideline' });
    expect((await tideline.listTools()).tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES.tideline].sort());
    const all = await connect(mem.memory, { toolsets: 'all' });
    const names = (await all.listTools()).tools.map((t) => t.name);
    expect(names.sort()).toEqual([...TOOL_NAMES.core, ...TOOL_NAMES.tideline, ...TOOL_NAMES.continuity, ...TOOL_NAMES.journal, ...TOOL_NAMES.sleep].sort());
    expect(TOOL_CASES.map((c) => c.name).sort()).toEqual([...names].sort());
  });

  it('refuses an unknown toolset name, naming the known ones', async () => {
    mem = await tempMemory();
    await expect(createMcpServer(mem.memory, { toolsets: 'core,dreams' })).rejects.toThrow(/unknown toolset "dreams".*core, tideline, continuity, journal, sleep, all/);
  });

  it('describes every tool with a strict input schema and read-only/destructive/idempotent annotations', async () => {
    mem = await tempMemory();
    const client = await connect(mem.memory, { toolsets: 'all' });
    const { tools } = await client.listTools();
    for (const t of tools) {
      expect(t.description?.length ?? 0, t.name).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe('object');
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
      expect(typeof t.annotations?.readOnlyHint, t.name).toBe('boolean');
      expect(typeof t.annotations?.destructiveHint, t.name).toBe('boolean');
      expect(typeof t.annotations?.idempotentHint, t.name).toBe('boolean');
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('recall')?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(byName.get('forget')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(Object.keys(byName.get('recall')!.inputSchema.properties ?? {})).toEqual(['query', 'topic', 'limit', 'layers', 'since', 'until', 'max_tokens']);
    // Advertised defaults are the ones applied (SEEDS T-4 replaced them all with 10).
    expect(byName.get('memory_search')!.inputSchema.properties?.limit).toMatchObject({ default: 5 });
    expect(byName.get('memory_read_snapshot')!.inputSchema.properties?.limit).toMatchObject({ default: 1 });
    expect(byName.get('memory_read_threads')!.inputSchema.properties?.limit).toMatchObject({ default: 20 });
    expect(byName.get('context_timeline')!.inputSchema.properties?.limit).toMatchObject({ default: 20 });
  });

  it('answers every tool of every toolset with text and structured content, and names the bad field of an invalid call', async () => {
    mem = await tempMemory();
    await mem.memory.registerJournalWorkspace(JOURNAL_ROOT);
    const client = await connect(mem.memory, { toolsets: 'all' });
    expect(await exerciseAllTools(client, new Set(TOOL_CASES.map((c) => c.name)), JOURNAL_ROOT)).toBe(TOOL_CASES.length * 2);
  });

  it("journal_tend takes dsh-memory-tide's dryRun as the same flag as dry_run, and refuses the two disagreeing", async () => {
    mem = await tempMemory();
    await mem.memory.registerJournalWorkspace(JOURNAL_ROOT);
    const client = await connect(mem.memory, { toolsets: 'journal' });
    const tend = (args: Record<string, unknown>) => client.callTool({ name: 'journal_tend', arguments: { root: JOURNAL_ROOT, ...args } });
    const dsh = await tend({ dryRun: true });
    expect(dsh.isError).toBeFalsy();
    expect(resultText(dsh)).toMatch(/^Dry run \(nothing changed\)/);
    expect(resultText(await tend({ dryRun: true, dry_run: true }))).toMatch(/^Dry run \(nothing changed\)/);
    const clash = await tend({ dryRun: true, dry_run: false });
    expect(clash.isError).toBe(true);
    expect(resultText(clash)).toMatch(/dry_run and dryRun disagree/);
    expect(resultText(await tend({ dryRun: false }))).toMatch(/^Tended /);
  });

  it('honours the advertised defaults: memory_search returns up to 2×5 as Tideline did, memory_read_snapshot 1', async () => {
    mem = await tempMemory();
    const client = await connect(mem.memory, { toolsets: 'tideline' });
    for (let i = 0; i < 12; i++) {
      await client.callTool({ name: 'memory_write', arguments: { gesture: `Lantern note ${i}: the lantern flickered`, tags: ['lantern'] } });
      await client.callTool({ name: 'memory_write_snapshot', arguments: { content: `state ${i}` } });
    }
    const search = await client.callTool({ name: 'memory_search', arguments: { query: 'lantern' } });
    expect((search.structuredContent as { results: unknown[] }).results).toHaveLength(10);
    const three = await client.callTool({ name: 'memory_search', arguments: { query: 'lantern', limit: 3 } });
    expect((three.structuredContent as { results: unknown[] }).results).toHaveLength(6);
    const snap = await client.callTool({ name: 'memory_read_snapshot', arguments: {} });
    expect((snap.structuredContent as { snapshots: unknown[] }).snapshots).toHaveLength(1);
  });

  it('accepts Tulimoa\'s topic in place of query and tells the agent what to do when a secret is refused', async () => {
    mem = await tempMemory();
    const client = await connect(mem.memory);
    await client.callTool({ name: 'remember', arguments: { text: 'Ana reviews every release note' } });
    const r = await client.callTool({ name: 'recall', arguments: { topic: 'release note' } });
    expect(resultText(r)).toContain('Ana reviews every release note');
    const secret = await client.callTool({ name: 'remember', arguments: { text: 'My old key was 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 but I rotated it' } });
    expect(secret.isError).toBe(true);
    expect(resultText(secret)).toMatch(/secret_refused.*remember where it is kept instead/);
    expect(secret.structuredContent).toMatchObject({ error: { code: 'secret_refused', field: 'text' } });
  });
});

describe('MCP recall budget', () => {
  it('keeps a budgeted recall answer, as the agent reads it, within max_tokens (the budget counts the shown style)', async () => {
    mem = await tempMemory();
    const client = await connect(mem.memory);
    // Turns of one session, so a question brings neighbouring turns along as context lines.
    await client.callTool({
      name: 'record',
      arguments: {
        turns: Array.from({ length: 24 }, (_, i) => ({
          role: i % 2 ? 'assistant' : 'user',
          content: i % 3 === 0 ? `Turn ${i}: the lighthouse keeper logged the storm at sea` : `Turn ${i}: coffee and small talk`,
          session: 's1',
        })),
      },
    });
    await client.callTool({ name: 'remember', arguments: { text: 'The lighthouse keeper is called Ana', importance: 2 } });
    let shown = 0;
    for (let budget = 20; budget <= 400; budget += 20) {
      const text = resultText(await client.callTool({ name: 'recall', arguments: { query: 'what did the lighthouse keeper log?', limit: 20, max_tokens: budget } }));
      if (text === 'Nothing found.') continue;
      shown++;
      expect(countTokens(text), `budget ${budget}`).toBeLessThanOrEqual(budget);
    }
    expect(shown).toBeGreaterThan(10);
  });
});

describe('MCP resources, prompt and wake state', () => {
  it('serves the context block as a resource and a prompt, and explains an empty memory', async () => {
    mem = await tempMemory();
    const client = await connect(mem.memory);
    const empty = await client.readResource({ uri: 'tidepool://context' });
    expect((empty.contents[0] as { text: string }).text).toMatch(/Memory is empty so far/);
    await mem.memory.writeSelfConcept({ field: 'fact', content: 'I am the build agent of the Kestrel project.' });
    const res = await client.readResource({ uri: 'tidepool://context' });
    expect((res.contents[0] as { text: string }).text).toContain('Kestrel');
    const prompt = await client.getPrompt({ name: 'context', arguments: { max_tokens: '500' } });
    expect(prompt.messages[0]?.content).toMatchObject({ type: 'text' });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain('## Who I am');
  });

  it("reads today's briefing as a resource, and says when there is none yet", async () => {
    mem = await tempMemory();
    const client = await connect(mem.memory);
    const none = await client.readResource({ uri: 'tidepool://briefing/today' });
    expect((none.contents[0] as { text: string }).text).toMatch(/no briefing yet/);
    await driver(mem.memory).run('INSERT INTO briefings (space, day, headline, body, created_at) VALUES (?, ?, ?, ?, ?)', [
      'default', '2026-11-01', 'While you were away: 4 new, 2 reinforced, 1 forgotten from 23 episodes.', '# Briefing 2026-11-01\n\n## New knowledge\n\n- fact: x', mem.clock.now(),
    ]);
    const today = await client.readResource({ uri: 'tidepool://briefing/today' });
    expect((today.contents[0] as { text: string }).text).toMatch(/^While you were away: 4 new[\s\S]*## New knowledge/);
    const tool = await client.callTool({ name: 'briefing', arguments: { day: '2026-11-01' } });
    expect(tool.structuredContent).toMatchObject({ briefing: { day: '2026-11-01' }, today: true });
  });

  it('sends the wake state at initialize: identity from the self-concept, the briefing headline, how to use the tools', async () => {
    mem = await tempMemory();
    await mem.memory.writeSelfConcept({ field: 'fact', content: 'I am the build agent of the Kestrel project.' });
    await driver(mem.memory).run('INSERT INTO briefings (space, day, headline, body, created_at) VALUES (?, ?, ?, ?, ?)', [
      'default', '2026-10-31', 'While you were away: 1 new, 0 reinforced, 0 forgotten from 6 episodes.', 'body', mem.clock.now(),
    ]);
    const client = await connect(mem.memory, { toolsets: 'core,continuity' });
    const text = client.getInstructions() ?? '';
    expect(text).toContain('Identity: I am the build agent of the Kestrel project.');
    expect(text).toContain('Latest briefing (2026-10-31): While you were away: 1 new');
    expect(text).toMatch(/core: At the start of a task/);
    expect(text).toMatch(/continuity: Set the one active goal/);
    expect(text).not.toMatch(/tideline:/);
  });
});
