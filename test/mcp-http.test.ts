/** MCP over Streamable HTTP at /mcp (in-process server and the real binary), health, and the loopback guards. */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type HttpHandle } from '../src/boot/serve.js';
import { BIN } from './helpers/run-cli.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { exerciseAllTools, journalRoot, resultText, TOOL_CASES, TOOL_NAMES } from './mcp-tool-cases.js';

const JOURNAL_ROOT = journalRoot();

/** A raw GET with a chosen Host header (fetch does not let a caller set Host). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('MCP over Streamable HTTP', () => {
  let mem: TempMemory;
  let http: HttpHandle;
  beforeAll(async () => {
    mem = await tempMemory();
    await mem.memory.registerJournalWorkspace(JOURNAL_ROOT);
    http = await startHttpServer(mem.memory, { host: '127.0.0.1', port: 0, toolsets: 'all' });
  });
  afterAll(async () => {
    await http.close();
    await mem.cleanup();
  });

  it('answers every tool of every toolset with valid arguments and names the field of invalid ones', async () => {
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`)));
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual([...TOOL_NAMES.core, ...TOOL_NAMES.tideline, ...TOOL_NAMES.continuity, ...TOOL_NAMES.journal, ...TOOL_NAMES.sleep].sort());
    expect(await exerciseAllTools(client, new Set(names), JOURNAL_ROOT)).toBe(TOOL_CASES.length * 2);
    await client.close();
  });

  it('keeps sessions apart and forgets a session once the client ends it', async () => {
    const a = new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`));
    const client = new Client({ name: 'http-session', version: '1.0.0' });
    await client.connect(a);
    const id = a.sessionId!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await a.terminateSession();
    await client.close();
    const res = await fetch(`${http.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
    const noSession = await fetch(`${http.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
  });

  it('reports health and refuses a request addressed to another host (DNS rebinding)', async () => {
    const health = await fetch(`${http.url}/v1/health`);
    expect(await health.json()).toMatchObject({ ok: true, space: 'default' });
    expect(await getWithHost(`${http.url}/v1/health`, 'evil.example:80')).toBe(403);
    expect(await getWithHost(`${http.url}/v1/health`, `localhost:${new URL(http.url).port}`)).toBe(200);
    const cross = await fetch(`${http.url}/v1/health`, { headers: { origin: 'https://evil.example' } });
    expect(cross.status).toBe(403);
  });

  it('refuses to listen on a non-loopback host without tokens, saying why', async () => {
    await expect(startHttpServer(mem.memory, { host: '0.0.0.0', port: 0 })).rejects.toThrow(/refusing to listen on 0\.0\.0\.0.*tokens/);
  });
});

describe('tidepool serve --http (the real binary)', () => {
  it('serves MCP at /mcp on 127.0.0.1 until it is told to stop', async () => {
    const mem = await tempMemory();
    await mem.memory.close();
    const child = spawn(process.execPath, [BIN, 'serve', '--http', '--port', '0', '--db', mem.path], {
      env: { ...process.env, TIDEPOOL_CONFIG: '/nonexistent/config.json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        child.stderr.on('data', (d: Buffer) => {
          err += d.toString();
          const m = /serving MCP at (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(err);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      const client = new Client({ name: 'bin-http', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES.core].sort());
      await client.callTool({ name: 'remember', arguments: { text: 'The kiln runs at 1240 degrees' } });
      expect(resultText(await client.callTool({ name: 'recall', arguments: { query: 'kiln' } }))).toContain('1240 degrees');
      await client.close();
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await mem.cleanup();
    }
  });
});
