/** MCP over stdio against the real binary (`tidepool serve --stdio`), driven by the SDK's own client. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from './helpers/run-cli.js';
import { exerciseAllTools, journalRoot, resultText, TOOL_CASES, TOOL_NAMES } from './mcp-tool-cases.js';

const JOURNAL_ROOT = journalRoot();

const dir = mkdtempSync(join(tmpdir(), 'tidepool-mcp-stdio-'));
const env = { ...process.env, TIDEPOOL_CONFIG: '/nonexistent/config.json' } as Record<string, string>;

function spawnClient(args: string[]): { client: Client; transport: StdioClientTransport } {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--stdio', ...args], env, stderr: 'pipe', cwd: JOURNAL_ROOT });
  return { client: new Client({ name: 'stdio-test', version: '1.0.0' }), transport };
}

describe('tidepool serve --stdio', () => {
  let client: Client;
  beforeAll(async () => {
    const s = spawnClient(['--toolsets', 'all', '--db', join(dir, 'all.db')]);
    client = s.client;
    await client.connect(s.transport);
  });
  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists every tool of every implemented toolset and sends the wake state', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual([...TOOL_NAMES.core, ...TOOL_NAMES.tideline, ...TOOL_NAMES.continuity, ...TOOL_NAMES.journal, ...TOOL_NAMES.sleep].sort());
    expect(client.getInstructions()).toMatch(/^Tidepool long-term memory \(space "default"\)/);
  });

  it('answers every tool with valid arguments and names the field of invalid ones', async () => {
    expect(await exerciseAllTools(client, new Set(TOOL_CASES.map((c) => c.name)), JOURNAL_ROOT)).toBe(TOOL_CASES.length * 2);
  });

  it('keeps what it was told across server processes (same --db)', async () => {
    const db = join(dir, 'persist.db');
    const first = spawnClient(['--db', db]);
    await first.client.connect(first.transport);
    await first.client.callTool({ name: 'remember', arguments: { text: 'Melanie painted a sunrise over the lake in 2022' } });
    await first.client.close();
    const second = spawnClient(['--db', db]);
    await second.client.connect(second.transport);
    const r = await second.client.callTool({ name: 'recall', arguments: { query: 'sunrise painting' } });
    expect(resultText(r)).toContain('Melanie painted a sunrise');
    await second.client.close();
  });

  it('exits with a usage error naming the known toolsets when --toolsets has an unknown name', async () => {
    const r = await runCli(['serve', '--stdio', '--toolsets', 'core,nope', '--db', join(dir, 'bad.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown toolset "nope"; known: core, tideline, continuity, journal, sleep, all/);
    expect(r.stdout).toBe('');
  });
});
