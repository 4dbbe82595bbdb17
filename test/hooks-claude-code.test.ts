/** Claude Code integration through the real binary: install into existing settings, the installed hooks themselves, mcp-config. */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPending } from '../src/app/continuity.js';
import { openMemory } from '../src/boot/open-memory.js';
import { runCli, type CliRun } from './helpers/run-cli.js';
import { appContextOf } from '../src/app/tidepool.js';

const FIX = join(import.meta.dirname, 'fixtures', 'claude-code');
const SESSION = '5f1c9a2e-7d44-4b8e-9a51-3c2f8e6d1a90';
let dir: string;
let project: string;
let db: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tidepool-hooks-'));
  project = join(dir, 'kestrel');
  db = join(dir, 'memory.db');
  mkdirSync(join(project, '.claude'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Settings = { hooks?: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string }> }>>; [k: string]: unknown };
const settingsPath = () => join(project, '.claude', 'settings.json');
const readSettings = () => JSON.parse(readFileSync(settingsPath(), 'utf8')) as Settings;

/** The command the settings file says Claude Code should run for `event` (ours is the last group). */
function installedCommand(event: string): string {
  const groups = readSettings().hooks![event]!;
  return groups[groups.length - 1]!.hooks[0]!.command;
}

/** Runs an installed hook command the way Claude Code does: through a shell, hook JSON on stdin. */
function runHook(command: string, input: unknown): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd: project, env: { ...process.env, TIDEPOOL_CONFIG: '/nonexistent/config.json' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(typeof input === 'string' ? input : JSON.stringify(input));
  });
}

async function episodes(): Promise<string[]> {
  const m = await openMemory({ path: db, embedder: 'none', warn: () => undefined });
  try {
    return (await m.timeline({ session: SESSION, order: 'asc', limit: 100 })).items.map((e) => e.content);
  } finally {
    await m.close();
  }
}

describe('tidepool hooks install claude-code', () => {
  const original = {
    permissions: { allow: ['Bash(npm test)'], deny: [] },
    env: { FOO: 'bar' },
    hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo other-stop-hook' }] }], Notification: [{ matcher: '', hooks: [{ type: 'command', command: 'notify-send hi' }] }] },
    model: 'opus',
  };

  it('adds the four hooks and the skill to an existing settings file, keeping every other key and hook', async () => {
    writeFileSync(settingsPath(), JSON.stringify(original, null, 2));
    const r = await runCli(['hooks', 'install', 'claude-code', '--project', project, '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^installed: hooks in .*settings\.json, skill in .*SKILL\.md/);
    const s = readSettings();
    expect(s.permissions).toEqual(original.permissions);
    expect(s.env).toEqual(original.env);
    expect(s.model).toBe('opus');
    expect(s.hooks!.Notification).toEqual(original.hooks.Notification);
    expect(s.hooks!.Stop![0]).toEqual(original.hooks.Stop[0]);
    for (const [event, name] of [['SessionStart', 'session-start'], ['UserPromptSubmit', 'user-prompt-submit'], ['Stop', 'stop'], ['PreCompact', 'pre-compact']]) {
      expect(installedCommand(event!)).toMatch(new RegExp(`tidepool\\.js hook ${name} --db ${db.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`));
    }
    const skill = readFileSync(join(project, '.claude', 'skills', 'tidepool', 'SKILL.md'), 'utf8');
    expect(skill).toMatch(/^---\nname: tidepool\ndescription: /);
    expect(skill).toContain('## When to look back');
    expect(skill).toContain('## Correcting memory');
  });

  it('reinstalls without duplicating, and uninstalls back to the original settings', async () => {
    const before = readFileSync(settingsPath(), 'utf8');
    const again = await runCli(['hooks', 'install', 'claude-code', '--project', project, '--db', db]);
    expect(again.stdout).toMatch(/^already installed/);
    expect(readFileSync(settingsPath(), 'utf8')).toBe(before);
    const un = await runCli(['hooks', 'uninstall', 'claude-code', '--project', project]);
    expect(un.code, un.stderr).toBe(0);
    expect(readSettings()).toEqual(original);
    await runCli(['hooks', 'install', 'claude-code', '--project', project, '--db', db]);
  });

  it('refuses to touch a settings file that is not JSON', async () => {
    const other = join(dir, 'broken');
    mkdirSync(join(other, '.claude'), { recursive: true });
    writeFileSync(join(other, '.claude', 'settings.json'), '{ "hooks": ');
    const r = await runCli(['hooks', 'install', 'claude-code', '--project', other]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a JSON object; fix it first \(nothing was changed\)/);
    expect(readFileSync(join(other, '.claude', 'settings.json'), 'utf8')).toBe('{ "hooks": ');
    expect(existsSync(join(other, '.claude', 'skills'))).toBe(false);
  });
});

describe('the installed hooks', () => {
  const transcript = () => join(dir, `${SESSION}.jsonl`);
  // The fixture's turns are moved to the last hour, so the session-start bridge (24 h window) sees them.
  const recentHour = new Date(Date.now() - 3_600_000).toISOString().slice(0, 13);
  const fixture = (name: string) => readFileSync(join(FIX, name), 'utf8').replaceAll('2026-11-01T10', recentHour);

  it('Stop records the transcript turns, and a replay of the same transcript records each turn once', async () => {
    writeFileSync(transcript(), fixture('session-part1.jsonl'));
    const input = { session_id: SESSION, transcript_path: transcript(), cwd: project, hook_event_name: 'Stop', stop_hook_active: false };
    const first = await runHook(installedCommand('Stop'), input);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('');
    const once = await episodes();
    expect(once).toHaveLength(5);
    expect(once[0]).toBe('The sync test hangs on slow disks. Can you look at the lock?');
    expect(once.some((t) => t.startsWith('Read '))).toBe(true);
    await runHook(installedCommand('Stop'), input);
    expect(await episodes()).toEqual(once);
  });

  it('PreCompact records only what the grown transcript added and leaves a compaction event', async () => {
    appendFileSync(transcript(), fixture('session-part2.jsonl'));
    const r = await runHook(installedCommand('PreCompact'), { session_id: SESSION, transcript_path: transcript(), cwd: project, hook_event_name: 'PreCompact', trigger: 'auto' });
    expect(r.code, r.stderr).toBe(0);
    const all = await episodes();
    expect(all).toHaveLength(7);
    expect(all.slice(5)).toEqual(['Good catch. Reset the owner in release() and in the timeout path.', 'Done: release() and the timeout both clear the owner, and a test covers the slow-disk case.']);
    const m = await openMemory({ path: db, embedder: 'none', warn: () => undefined });
    const pending = await getPending(appContextOf(m), { session: SESSION });
    await m.close();
    expect(pending.events.map((e) => [e.kind, e.payload])).toEqual([['compaction', { trigger: 'auto' }]]);
  });

  it('SessionStart prints the context block, with the recorded conversation as the bridge', async () => {
    writeFileSync(join(project, 'SOUL.md'), 'I am the Kestrel build agent. I fix root causes.');
    const r = await runHook(installedCommand('SessionStart'), { session_id: SESSION, transcript_path: transcript(), cwd: project, hook_event_name: 'SessionStart', source: 'compact' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^# Memory \(Tidepool\)\n\n## Who I am\nI am the Kestrel build agent\. I fix root causes\./);
    expect(r.stdout).toContain(`## Last conversation (session ${SESSION}`);
    expect(r.stdout).toContain('Done: release() and the timeout both clear the owner');
  });

  it('UserPromptSubmit prints related memories for the prompt', async () => {
    const remember = await runCli(['remember', 'The Kestrel CI runners have 8 GB of memory', '--db', db]);
    expect(remember.code, remember.stderr).toBe(0);
    const r = await runHook(installedCommand('UserPromptSubmit'), { session_id: SESSION, transcript_path: transcript(), cwd: project, hook_event_name: 'UserPromptSubmit', prompt: 'How much memory do the CI runners have?' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^## Related memories \(auto-recalled\)\n- The Kestrel CI runners have 8 GB of memory \(fact, today\)/);
  });

  it('never fails the agent: bad hook input is reported on stderr with exit code 0', async () => {
    const r = await runHook(installedCommand('Stop'), '{ not json');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^tidepool hook stop: /);
  });
});

describe('tidepool mcp-config', () => {
  it.each([
    ['claude-code', 'mcpServers'],
    ['claude-desktop', 'mcpServers'],
    ['cursor', 'mcpServers'],
    ['vscode', 'servers'],
  ])('prints a %s snippet (under "%s") that starts `serve --stdio` with the given options', async (client, key) => {
    const r = await runCli(['mcp-config', client, '--toolsets', 'core,tideline', '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    const entry = (JSON.parse(r.stdout) as Record<string, Record<string, { command: string; args: string[] }>>)[key]!.tidepool!;
    expect(entry.command).toBe(process.execPath);
    expect(entry.args.slice(1)).toEqual(['serve', '--stdio', '--toolsets', 'core,tideline', '--db', db]);
    expect(entry.args[0]).toMatch(/bin\/tidepool\.js$/);
  });

  it('prints TOML for codex, and refuses an unknown client naming the known ones', async () => {
    const r = await runCli(['mcp-config', 'codex', '--launcher', 'npx --no-install tidepool']);
    expect(r.stdout).toBe('[mcp_servers.tidepool]\ncommand = "npx"\nargs = ["--no-install", "tidepool", "serve", "--stdio"]\n');
    const bad = await runCli(['mcp-config', 'emacs']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown client "emacs"; known: claude-code, claude-desktop, cursor, vscode, codex/);
  });
});
