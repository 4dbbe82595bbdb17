/**
 * `tidepool serve` stops on SIGTERM and on Ctrl-C (SIGINT) while an agent-driven night waits for the agent's answer (it
 * used to wait it out), and says where its MCP endpoint and dashboard are.
 */
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { BIN } from './helpers/run-cli.js';
import { tempMemory } from './helpers/temp-memory.js';

describe('tidepool serve --http during an agent-driven night', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) it(`exits cleanly on ${signal} while a sleep packet waits for an answer`, { timeout: 120_000 }, async () => {
    const mem = await tempMemory();
    await mem.memory.record({
      turns: [
        { role: 'user', content: 'Can we freeze the release branch on Thursday evening?', session: 's' },
        { role: 'assistant', content: 'Yes, the release branch freezes Thursday evening and ships Friday.', session: 's' },
        { role: 'user', content: 'Then the integration tests must be green by Thursday noon.', session: 's' },
      ],
    });
    await mem.memory.close();
    const child = spawn(process.execPath, [BIN, 'serve', '--http', '--port', '0', '--db', mem.path, '--toolsets', 'core,sleep'], {
      env: { ...process.env, TIDEPOOL_CONFIG: '/nonexistent/config.json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let err = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => {
          err += d.toString();
          const m = /serving MCP at (http:\/\/127\.0\.0\.1:\d+)\/mcp[\s\S]*dashboard at /.exec(err);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      expect(err).toContain(`dashboard at ${url}/ `);
      const client = new Client({ name: 'agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
      const reply = (await client.callTool({ name: 'sleep_next', arguments: { wait_seconds: 30 } })) as { structuredContent?: Record<string, unknown> };
      // The night now waits for this packet's answer (for up to its answer timeout, many minutes).
      expect(reply.structuredContent).toMatchObject({ packet_id: 'packet-1' });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill(signal);
      // The test's own timeout is the bound: before the fix the process stayed until the packet timed out.
      expect(await exited).toBe(0);
      await client.close().catch(() => undefined);
    } finally {
      child.kill('SIGKILL');
      await mem.cleanup();
    }
  });
});
