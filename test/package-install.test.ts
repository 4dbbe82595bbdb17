/**
 * The package as users get it: `npm pack`, installed with `--omit=dev` into an empty project, then the installed
 * `tidepool` binary runs (--version, remember, recall), answers an MCP stdio handshake from the SDK's client, and the
 * library's subpath exports import from that project.
 */
import { isAscii } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const dir = mkdtempSync(join(tmpdir(), 'tidepool-package-'));
const app = join(dir, 'app');
const home = join(dir, 'home');
const BIN = join(app, 'node_modules', '.bin', 'tidepool');
const env = { ...process.env, HOME: home, TIDEPOOL_DB: join(dir, 'p.db'), TIDEPOOL_CONFIG: '/nonexistent/config.json' } as Record<string, string>;
let packed: string[] = [];

function sh(cmd: string, args: string[], cwd: string, timeout = 300_000) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

function tidepool(...args: string[]) {
  return spawnSync(BIN, args, { cwd: app, env, encoding: 'utf8', timeout: 60_000 });
}

describe('the packed package, installed without dev dependencies', () => {
  beforeAll(() => {
    mkdirSync(app, { recursive: true });
    mkdirSync(home, { recursive: true });
    // dist/ is built by the global setup; --ignore-scripts keeps `prepare` from building it a second time.
    const out = JSON.parse(sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)) as Array<{ filename: string; files: Array<{ path: string }> }>;
    packed = out[0]!.files.map((f) => f.path);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'empty-project', version: '1.0.0', private: true, type: 'module' }));
    // Every dependency is in npm's cache after the clone's own install; the registry is asked only for what is not.
    // better-sqlite3's install script would compile SQLite for minutes where no prebuilt binary can be downloaded, so
    // scripts are skipped and the binary the clone built (same pinned version, same machine) is put in its place.
    sh('npm', ['install', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', join(dir, out[0]!.filename)], app);
    const native = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    if (!existsSync(join(app, native))) {
      mkdirSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
      copyFileSync(join(ROOT, native), join(app, native));
    }
  }, 600_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ships the built code, stop-word lists included, without source maps, benchmarks or sources', () => {
    expect(packed).toContain('bin/tidepool.js');
    // The launcher is CommonJS (no ES module loader at start-up): bin/package.json says so, and ships with it.
    expect(packed).toContain('bin/package.json');
    expect(packed).toContain('dist/cli/cli-main.cjs');
    expect(packed).toContain('dist/index.js');
    expect(packed).toContain('dist/web/index.html');
    expect(packed).toContain('dist/script/english-stopwords.js');
    expect(packed.filter((p) => p.endsWith('.map') || p.startsWith('dist/bench/') || p.startsWith('src/') || p.startsWith('test/'))).toEqual([]);
  });

  it('ships a bundle of ASCII alone (read at every start as Latin-1, a byte copy)', () => {
    const bundle = readFileSync(join(app, 'node_modules', pkg.name, 'dist', 'cli', 'cli-main.cjs'));
    expect(isAscii(bundle)).toBe(true);
  });

  it('installs none of the dev dependencies and optional peers', () => {
    const absent = [...Object.keys(pkg.devDependencies), ...Object.keys(pkg.peerDependencies)].filter((n) => !(n in pkg.dependencies));
    expect(absent).toContain('minisearch');
    expect(absent.filter((name) => existsSync(join(app, 'node_modules', name)))).toEqual([]);
  });

  it('runs --version, remember and recall', () => {
    expect(tidepool('--version').stdout.trim()).toBe(pkg.version);
    expect(tidepool('init').status).toBe(0);
    const r = tidepool('remember', 'The staging database moved to port 6543');
    expect(r.status, r.stderr).toBe(0);
    const q = tidepool('recall', 'staging port', '--json');
    expect(q.status, q.stderr).toBe(0);
    expect((JSON.parse(q.stdout) as { results: Array<{ text: string }> }).results[0]?.text).toContain('6543');
  });

  it('reads time expressions in English and Chinese (chrono-node loaded by locale, from the installed package)', () => {
    expect(tidepool('remember', 'On Thursday the deploy key moved to the team vault').status).toBe(0);
    expect(tidepool('remember', '上周三我们把备份挪到了新的服务器').status).toBe(0);
    const en = tidepool('recall', 'where did the deploy key go on thursday', '--json');
    expect(en.status, en.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(en.stdout))).toContain('vault');
    const zh = tidepool('recall', '上周三备份在哪里', '--json');
    expect(zh.status, zh.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(zh.stdout))).toContain('服务器');
  });

  it('runs the bundle through a code cache per command, and a broken cache only costs a re-parse', () => {
    const caches = () => (existsSync(join(home, '.cache', 'tidepool')) ? readdirSync(join(home, '.cache', 'tidepool')) : []);
    // The installed package runs dist/cli/cli-main.cjs (its files' times are npm's, not the build's), so the
    // commands above left their caches in the user's cache folder.
    const recallCache = caches().find((f) => /^cli-recall-[0-9a-f]{8}-[0-9a-f]{16}\.v8cache$/.test(f));
    expect(caches()).toContain(caches().find((f) => f.startsWith('cli-other-')));
    expect(recallCache).toBeDefined();
    const texts = (out: string) => (JSON.parse(out) as { results: Array<{ id: string; text: string }> }).results.map((h) => `${h.id} ${h.text}`);
    const first = tidepool('recall', 'staging port', '--json');
    expect(first.status, first.stderr).toBe(0);
    expect(texts(first.stdout)[0]).toContain('6543');
    writeFileSync(join(home, '.cache', 'tidepool', recallCache!), 'not a V8 cache');
    // An earlier build's cache of the same command and bundle goes when the new one is written; another install's stays.
    const stale = recallCache!.replace(/[0-9a-f]{16}\.v8cache$/, '0123456789abcdef.v8cache');
    const elsewhere = recallCache!.replace(/^cli-recall-[0-9a-f]{8}-/, 'cli-recall-00000000-');
    const oldName = 'cli-recall-0123456789abcdef.v8cache';
    for (const f of [stale, elsewhere, oldName]) writeFileSync(join(home, '.cache', 'tidepool', f), 'an old cache');
    const again = tidepool('recall', 'staging port', '--json');
    expect(again.status, again.stderr).toBe(0);
    expect(texts(again.stdout)).toEqual(texts(first.stdout));
    expect(readFileSync(join(home, '.cache', 'tidepool', recallCache!)).length).toBeGreaterThan(100_000);
    expect(caches()).not.toContain(stale);
    expect(caches()).not.toContain(oldName);
    expect(caches()).toContain(elsewhere);
  });

  it('answers an MCP stdio handshake from the SDK client', async () => {
    const transport = new StdioClientTransport({ command: BIN, args: ['serve', '--stdio'], env, stderr: 'pipe', cwd: app });
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('recall');
      const res = (await client.callTool({ name: 'recall', arguments: { query: 'staging port' } })) as { content: Array<{ text?: string }> };
      expect(res.content.map((c) => c.text ?? '').join('\n')).toContain('6543');
    } finally {
      await client.close();
    }
  });

  it('answers a 2026-07-28 client (no handshake) on stdio as well', async () => {
    const client = new ModernClient({ name: 'package-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new ModernStdio({ command: BIN, args: ['serve', '--stdio'], env, stderr: 'pipe', cwd: app }));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const res = await client.callTool({ name: 'recall', arguments: { query: 'staging port' } });
      expect(JSON.stringify(res.content)).toContain('6543');
    } finally {
      await client.close();
    }
  });

  it('says what to do where a dev dependency or an optional peer would be needed', () => {
    const bench = tidepool('bench');
    expect(bench.status).toBe(7);
    expect(bench.stderr).toMatch(/benchmarks .*clone of the repository/);
    const pg = tidepool('recall', 'x', '--db', 'postgres://127.0.0.1:5432/tidepool_package_test');
    expect(pg.status).toBe(7);
    expect(pg.stderr).toContain('npm install pg');
  });

  it('exports the library, the MCP server factory, the HTTP app and the server runners to an embedding project', () => {
    const script = [
      `const lib = await import('${pkg.name}');`,
      `const mcp = await import('${pkg.name}/mcp');`,
      `const http = await import('${pkg.name}/http');`,
      `const server = await import('${pkg.name}/server');`,
      `const m = await lib.openMemory({ path: ':memory:', embedder: 'none' });`,
      `await m.remember({ text: 'Lunch is at noon' });`,
      `const s = await mcp.createMcpServer(m);`,
      // The LangGraph adapter needs its optional peer: the error names the package to install.
      `const lg = await import('${pkg.name}/langgraph').then(() => 'loaded', (e) => String(e.message).includes('@langchain/langgraph') ? 'names @langchain/langgraph' : String(e));`,
      `console.log(JSON.stringify([typeof s.connect, typeof http.createHttpApp, typeof server.serveStdio, typeof server.startHttpServer, lib.TIDEPOOL_VERSION, lg]));`,
      `await m.close();`,
    ].join('\n');
    writeFileSync(join(app, 'embed.mjs'), script);
    const r = spawnSync(process.execPath, ['embed.mjs'], { cwd: app, env, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(['function', 'function', 'function', 'function', pkg.version, 'names @langchain/langgraph']);
  });
});
