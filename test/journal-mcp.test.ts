/** The `journal` MCP toolset through the real binary (`tidepool serve --stdio`): default root, confinement, auto-tend. */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from './helpers/run-cli.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-journal-mcp-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function text(r: unknown): string {
  return ((r as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');
}

describe('journal toolset over stdio', () => {
  it(
    'writes to the server directory by default, refuses unregistered roots, and auto-tends registered workspaces',
    { timeout: 120_000 },
    async () => {
      const env = {
        ...process.env,
        TIDEPOOL_CONFIG: '/nonexistent/config.json',
        TIDEPOOL_DB: join(dir, 'memory.db'),
      } as Record<string, string>;
      const [cwd, registered, other] = [join(dir, 'cwd'), join(dir, 'registered'), join(dir, 'other')];
      for (const d of [cwd, other]) mkdirSync(d);
      mkdirSync(join(registered, 'memory'), { recursive: true });
      const old = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
      writeFileSync(
        join(registered, 'memory', `${old}.md`),
        `# ${old}\n\n## 【09:00 kestrel kickoff】\nMet the kestrel team.\n`,
      );
      const reg = await runCli(['journal', 'workspaces', '--root', registered], { env });
      expect(reg.code, reg.stderr).toBe(0);

      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', '--stdio', '--toolsets', 'journal'],
        env,
        cwd,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'journal-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
          'journal_add',
          'journal_index',
          'journal_lint',
          'journal_read',
          'journal_search',
          'journal_stats',
          'journal_tend',
        ]);
        // The serve command's auto-tend ticks at start: the registered workspace's old legacy day sinks to cold.
        await expect
          .poll(() => existsSync(join(registered, 'memory/archive/cold', `${old}.md`)), { timeout: 60_000 })
          .toBe(true);

        const add = await client.callTool({
          name: 'journal_add',
          arguments: { heading: 'started the heron plan', content: 'Drafted the outline.' },
        });
        expect(add.isError, text(add)).toBeFalsy();
        expect(existsSync(join(cwd, 'memory/archive/hot'))).toBe(true);

        const found = await client.callTool({
          name: 'journal_search',
          arguments: { root: registered, query: 'kestrel', scope: 'all' },
        });
        expect(text(found)).toContain('Met the kestrel team.');

        const refused = await client.callTool({ name: 'journal_stats', arguments: { root: other } });
        expect(refused.isError).toBe(true);
        expect(refused.structuredContent).toMatchObject({ error: { code: 'forbidden', field: 'root' } });
        const escape = await client.callTool({
          name: 'journal_read',
          arguments: { root: join(cwd, '..', 'other') },
        });
        expect(escape.structuredContent).toMatchObject({ error: { code: 'forbidden' } });
        expect(existsSync(join(other, 'memory'))).toBe(false);
      } finally {
        await client.close();
      }
    },
  );
});
