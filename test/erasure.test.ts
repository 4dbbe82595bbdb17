/**
 * Erasure to the byte (issues 22.4, 16.7), through the real binary: after forget by id, by key and of the whole
 * space, the forgotten text is nowhere in the SQLite file or its WAL, also while a server holds the file open.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from './helpers/run-cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tidepool-erasure-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Which of `markers` still occur, byte for byte, in the database file or its WAL. */
function leftOnDisk(db: string, markers: readonly string[]): string[] {
  const files = [db, `${db}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f));
  return markers.filter((m) => files.some((b) => b.includes(Buffer.from(m))));
}

const marker = (what: string) => `qz${Math.random().toString(36).slice(2, 10)}${what}`;

function jsonOf(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('forget leaves no byte of the text on disk (SQLite, the real CLI)', () => {
  it('by id, by key (every version and the episodes remember wrote) and of the whole space', async () => {
    const db = join(dir, 'cli.db');
    const tp = (...args: string[]) => runCli([...args, '--db', db]);
    const m = { rec: marker('rec'), one: marker('one'), two: marker('two'), kid: marker('kid'), turn: marker('turn') };
    const rec = await tp('record', `the courier code for today is ${m.rec}`, '--json');
    expect(rec.code).toBe(0);
    // A turn in a session: the next turn is indexed with it as context, so its index row quotes it too.
    const turns = [
      { role: 'user', content: `we meet at the gate named ${m.turn}`, session: 's1' },
      { role: 'assistant', content: 'noted, I will keep that in mind', session: 's1' },
      { role: 'user', content: 'and the weather looks fine today', session: 's1' },
    ].map((t) => JSON.stringify(t)).join('\n');
    const batch = await runCli(['record', '--db', db, '--json'], { stdin: turns });
    expect(batch.code).toBe(0);
    expect((await tp('remember', `the locker combination is ${m.one}`, '--key', 'locker')).code).toBe(0);
    expect((await tp('remember', `the locker combination is ${m.two}`, '--key', 'locker')).code).toBe(0);
    const kid = await tp('remember', `the bike lock code is ${m.kid}`, '--json');
    expect(kid.code).toBe(0);
    const all = Object.values(m);
    // Sanity: before forgetting, the texts are in the file or the WAL (the check can fail).
    expect(leftOnDisk(db, all).sort()).toEqual([...all].sort());

    const recId = (jsonOf(rec.stdout).ids as string[])[0]!;
    const turnId = (jsonOf(batch.stdout).ids as string[])[0]!;
    expect((await tp('forget', recId)).code).toBe(0);
    expect((await tp('forget', turnId)).code).toBe(0);
    expect((await tp('forget', jsonOf(kid.stdout).id as string)).code).toBe(0);
    expect((await tp('forget', '--key', 'locker')).code).toBe(0);
    expect(leftOnDisk(db, all)).toEqual([]);

    // What stays is still found: the follower of the forgotten turn keeps its own words in the index.
    const found = jsonOf((await tp('recall', 'weather', '--json')).stdout).results as Array<{ text: string }>;
    expect(found.map((r) => r.text)).toContain('and the weather looks fine today');
    const timeline = (await tp('timeline', '--json')).stdout;
    for (const x of all) expect(timeline).not.toContain(x);

    const whole = marker('all');
    expect((await tp('record', `the whole space goes: ${whole}`)).code).toBe(0);
    expect((await tp('forget', '--all', '--yes')).code).toBe(0);
    expect(leftOnDisk(db, [whole])).toEqual([]);
  }, 300_000);
});

describe('forget while a server holds the database open', () => {
  let child: ChildProcess;
  let url: string;
  let db: string;
  beforeAll(async () => {
    db = join(dir, 'served.db');
    expect((await runCli(['remember', 'warm up the file', '--db', db])).code).toBe(0);
    child = spawn(process.execPath, [BIN, 'serve', '--http', '--port', '0', '--db', db], {
      env: { ...process.env, TIDEPOOL_CONFIG: '/nonexistent/config.json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const found = /serving MCP at (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(err);
        if (found) resolve(found[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
  }, 120_000);
  afterAll(() => {
    child.kill('SIGKILL');
  });

  it('the CLI, MCP forget and DELETE /v1/spaces leave nothing in the file or the WAL', async () => {
    const client = new Client({ name: 'erasure', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    const viaCli = marker('cli');
    const viaMcp = marker('mcp');
    await client.callTool({ name: 'remember', arguments: { text: `the alarm code is ${viaCli}`, key: 'alarm' } });
    await client.callTool({ name: 'remember', arguments: { text: `the safe code is ${viaMcp}`, key: 'safe' } });
    expect(leftOnDisk(db, [viaCli, viaMcp]).sort()).toEqual([viaCli, viaMcp].sort());

    // Another process forgets while the server keeps its connection open.
    expect((await runCli(['forget', '--key', 'alarm', '--db', db])).code).toBe(0);
    expect(leftOnDisk(db, [viaCli])).toEqual([]);

    const r = await client.callTool({ name: 'forget', arguments: { key: 'safe' } });
    expect(r.isError ?? false).toBe(false);
    expect(leftOnDisk(db, [viaMcp])).toEqual([]);

    const viaRest = marker('rest');
    await client.callTool({ name: 'remember', arguments: { text: `the door code is ${viaRest}` } });
    await client.close();
    const erased = await fetch(`${url}/v1/spaces/default`, { method: 'DELETE' });
    expect(erased.status).toBe(200);
    expect(leftOnDisk(db, [viaRest])).toEqual([]);
  }, 120_000);
});
