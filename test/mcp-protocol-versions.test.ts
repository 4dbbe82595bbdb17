/**
 * Both MCP protocol generations against the same server: a client of the 2025 revisions (`@modelcontextprotocol/sdk`
 * 1.x: `initialize`, then `Mcp-Session-Id`) and a client of revision 2026-07-28 (`@modelcontextprotocol/client` 2.x:
 * no handshake, no session, a protocol envelope in every request), over stdio (the real binary) and Streamable HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client as ModernClient,
  PROTOCOL_VERSION_META_KEY,
  StreamableHTTPClientTransport as ModernHttp,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../src/app/tokens.js';
import { startHttpServer, type HttpHandle } from '../src/boot/serve.js';
import { createHttpApp } from '../src/surfaces/http/http-app.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { BIN } from './helpers/run-cli.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { resultText, TOOL_NAMES } from './mcp-tool-cases.js';
import { appContextOf } from '../src/app/tidepool.js';

const MODERN = '2026-07-28';
const env = { ...process.env, TIDEPOOL_CONFIG: '/nonexistent/config.json' } as Record<string, string>;

/** What either generation's client offers that the test needs. */
interface AnyClient {
  listTools(): Promise<{ tools: Array<{ name: string; inputSchema: unknown; annotations?: unknown }> }>;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

const modernClient = () =>
  new ModernClient(
    { name: 'modern-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
const legacyClient = () => new LegacyClient({ name: 'legacy-test', version: '1.0.0' });

/** Tool name → its input schema and hints, to compare what the two generations are shown. */
async function toolTable(c: AnyClient): Promise<Record<string, unknown>> {
  const { tools } = await c.listTools();
  return Object.fromEntries(tools.map((t) => [t.name, { input: t.inputSchema, hints: t.annotations }]));
}

describe('MCP protocol generations over stdio (tidepool serve --stdio)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidepool-mcp-gen-'));
  const args = [BIN, 'serve', '--stdio', '--toolsets', 'core,tideline', '--db', join(dir, 'memory.db')];
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves a 2025 client and a 2026-07-28 client the same tools over one memory', async () => {
    const legacy = legacyClient();
    await legacy.connect(new LegacyStdio({ command: process.execPath, args, env, stderr: 'pipe' }));
    expect(legacy.getServerVersion()?.name).toBe('tidepool');
    const legacyTools = await toolTable(legacy);
    expect(Object.keys(legacyTools).sort()).toEqual([...TOOL_NAMES.core, ...TOOL_NAMES.tideline].sort());
    const written = await legacy.callTool({
      name: 'remember',
      arguments: { text: 'The staging database moved to port 6543' },
    });
    expect(written.isError).toBeFalsy();
    await legacy.close();

    const modern = modernClient();
    await modern.connect(new ModernStdio({ command: process.execPath, args, env, stderr: 'pipe' }));
    expect(modern.getProtocolEra()).toBe('modern');
    expect(modern.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(modern.getInstructions()).toMatch(/^Tidepool long-term memory/);
    // One tool registry: the same names, input schemas and hints for both generations.
    expect(await toolTable(modern)).toEqual(legacyTools);
    const found = await modern.callTool({ name: 'recall', arguments: { query: 'staging port' } });
    expect(found.isError).toBeFalsy();
    expect(resultText(found)).toContain('6543');
    const bad = await modern.callTool({ name: 'recall', arguments: { query: 42 } });
    expect(bad.isError).toBe(true);
    await modern.callTool({
      name: 'remember',
      arguments: { text: 'Ana prefers short answers', kind: 'preference' },
    });
    await modern.close();

    const again = legacyClient();
    await again.connect(new LegacyStdio({ command: process.execPath, args, env, stderr: 'pipe' }));
    expect(
      resultText(await again.callTool({ name: 'recall', arguments: { query: 'short answers' } })),
    ).toContain('Ana prefers short answers');
    await again.close();
  });
});

describe('MCP protocol generations over Streamable HTTP (/mcp)', () => {
  let mem: TempMemory;
  let http: HttpHandle;
  beforeAll(async () => {
    mem = await tempMemory();
    http = await startHttpServer(mem.memory, { host: '127.0.0.1', port: 0, toolsets: 'core,sleep' });
  });
  afterAll(async () => {
    await http.close();
    await mem.cleanup();
  });

  it('gives a 2025 client a session and answers a 2026-07-28 client per request, with no handshake and no session', async () => {
    const legacyTransport = new LegacyHttp(new URL(`${http.url}/mcp`));
    const legacy = legacyClient();
    await legacy.connect(legacyTransport);
    expect(legacyTransport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const legacyTools = await toolTable(legacy);
    expect(Object.keys(legacyTools).sort()).toEqual([...TOOL_NAMES.core, ...TOOL_NAMES.sleep].sort());
    await legacy.callTool({
      name: 'remember',
      arguments: { text: 'Melanie painted a sunrise over the lake in 2022' },
    });

    // Every exchange of the modern client, as sent and as answered.
    const seen: Array<{ body: string; session: string | null; status: number }> = [];
    const recording = async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const res = await fetch(url, init);
      seen.push({
        body: typeof init?.body === 'string' ? init.body : '',
        session: res.headers.get('mcp-session-id'),
        status: res.status,
      });
      return res;
    };
    const modern = modernClient();
    await modern.connect(new ModernHttp(new URL(`${http.url}/mcp`), { fetch: recording }));
    expect(modern.getProtocolEra()).toBe('modern');
    expect(await toolTable(modern)).toEqual(legacyTools);
    const found = await modern.callTool({ name: 'recall', arguments: { query: 'sunrise painting' } });
    expect(resultText(found)).toContain('Melanie painted a sunrise');
    await modern.callTool({ name: 'remember', arguments: { text: 'The nightly backup runs at 03:00 UTC' } });
    // Sampling is a server-to-client request, which revision 2026-07-28 does not have: refused with the way out.
    const sampling = await modern.callTool({
      name: 'sleep_next',
      arguments: { model: 'sampling', force: true },
    });
    expect(sampling.isError).toBe(true);
    expect(resultText(sampling)).toMatch(
      /model: sampling needs a client on a protocol revision before 2026-07-28.*use model "agent"/,
    );
    await modern.close();

    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen.every((e) => e.status === 200 && e.session === null)).toBe(true);
    expect(seen.some((e) => e.body.includes('"initialize"'))).toBe(false);
    expect(seen.filter((e) => e.body.includes('"tools/call"')).every((e) => e.body.includes(MODERN))).toBe(
      true,
    );

    // The 2025 session still works beside them and sees what the modern client wrote.
    expect(
      resultText(await legacy.callTool({ name: 'recall', arguments: { query: 'nightly backup' } })),
    ).toContain('03:00 UTC');
    await legacy.close();
  });

  it('answers a bare 2026-07-28 request with no session, and refuses it to a read-only token as it refuses a 2025 session', async () => {
    const { token: readToken } = await createToken(appContextOf(mem.memory), {
      space: mem.memory.space,
      scope: 'read',
    });
    const { token: writeToken } = await createToken(appContextOf(mem.memory), {
      space: mem.memory.space,
      scope: 'write',
    });
    const app = createHttpApp({
      memory: mem.memory,
      version: 'test',
      tokensRequired: true,
      mcpServer: (s, p) => createMcpServer(p?.memory ?? mem.memory, { session: s }),
    }).app;
    const listTools = (token: string) =>
      app.request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          host: '127.0.0.1',
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: {
            _meta: {
              [PROTOCOL_VERSION_META_KEY]: MODERN,
              [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' },
              [CLIENT_CAPABILITIES_META_KEY]: {},
            },
          },
        }),
      });
    expect((await listTools(readToken)).status).toBe(403);
    const ok = await listTools(writeToken);
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(ok.headers.get('mcp-session-id')).toBeNull();
    const body = (await ok.json()) as { result?: { tools?: Array<{ name: string }> } };
    expect(body.result?.tools?.map((t) => t.name).sort()).toEqual([...TOOL_NAMES.core].sort());
  });
});
