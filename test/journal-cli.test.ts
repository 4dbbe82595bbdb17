/** `tidepool journal …` end to end through the built binary, on real files and a real SQLite memory. */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

// Each run starts a Node process (about 1 s, much more on a loaded machine); a test makes up to ten.
const SLOW = { timeout: 240_000 };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A temp dir holding a workspace and the memory file. */
function setup(): { ws: string; env: Record<string, string> } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-journal-cli-')));
  dirs.push(dir);
  const ws = join(dir, 'ws');
  mkdirSync(join(ws, 'memory'), { recursive: true });
  return { ws, env: { TIDEPOOL_DB: join(dir, 'memory.db') } };
}

/** The UTC day `n` days before now (the binary runs on the system clock). */
function daysAgo(n: number): string {
  return new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
}

describe('tidepool journal', () => {
  it(
    'migrates legacy days, sinks an old unused day to cold byte for byte, keeps today hot, and a dry run changes nothing',
    SLOW,
    async () => {
      const { ws, env } = setup();
      const old = daysAgo(30);
      const today = daysAgo(0);
      writeFileSync(
        join(ws, 'memory', `${old}.md`),
        `# ${old}\n\n## 【09:10 修好了同步】\n调试了一上午，终于找到竞态。\n`,
      );
      writeFileSync(
        join(ws, 'memory', `${today}.md`),
        `# ${today}\n\n## 【14:30 wrote the tide tests】\nAll green.\n`,
      );
      const oldBytes = readFileSync(join(ws, 'memory', `${old}.md`));

      const dry = await runCli(['journal', 'tend', '--root', ws, '--dry-run', '--json'], { env });
      expect(dry.code, dry.stderr).toBe(0);
      expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, migrated: [old, today].sort() });
      expect(existsSync(join(ws, 'memory', `${old}.md`))).toBe(true);
      expect(existsSync(join(ws, 'memory', 'MEMORY.md'))).toBe(false);

      const tend = await runCli(['journal', 'tend', '--root', ws], { env });
      expect(tend.code, tend.stderr).toBe(0);
      expect(tend.stdout).toContain(`Tended ${ws}`);
      expect(readFileSync(join(ws, 'memory/archive/cold', `${old}.md`)).equals(oldBytes)).toBe(true);
      expect(existsSync(join(ws, 'memory/archive/hot', `${today}.md`))).toBe(true);
      for (const f of ['MEMORY.md', 'TODO.md', '.tide.json', 'archive/hot/INDEX.md', 'archive/cold/INDEX.md'])
        expect(existsSync(join(ws, 'memory', f)), f).toBe(true);
      expect(readFileSync(join(ws, 'AGENTS.md'), 'utf8')).toContain('<!-- tidepool:begin -->');

      const all = await runCli(['journal', 'search', '竞态', '--root', ws, '--scope', 'all', '--json'], {
        env,
      });
      expect(JSON.parse(all.stdout)).toMatchObject({
        scope: 'all',
        total: 1,
        results: [{ file: `archive/cold/${old}.md`, tier: 'cold' }],
      });
      const hot = await runCli(['journal', 'search', '竞态', '--root', ws, '--json'], { env });
      expect(hot.code).toBe(0);
      expect(hot.stdout).not.toContain('竞态');
      expect(JSON.parse(hot.stdout)).toMatchObject({ scope: 'hot', total: 0 });
      const badScope = await runCli(['journal', 'search', '竞态', '--root', ws, '--scope', 'cold'], { env });
      expect(badScope.code).toBe(2);
      expect(badScope.stderr).toContain('--scope must be one of hot, all');

      // The journal's sections reach core recall through the same memory file.
      const recall = await runCli(['recall', '竞态', '--json'], { env });
      expect(JSON.parse(recall.stdout).results[0].text).toContain('终于找到竞态');

      const escape = await runCli(['journal', 'read', '--root', ws, '--date', '../../etc/passwd'], { env });
      expect(escape.code).toBe(2);
      expect(escape.stdout).toBe('');
    },
  );

  it(
    'archives cold overflow to the database and restore-day brings the day back pinned, keeping the archived copy',
    SLOW,
    async () => {
      const { ws, env } = setup();
      const [d1, d2] = [daysAgo(40), daysAgo(39)];
      const set = await runCli(['journal', 'config', '--root', ws, '--set', 'coldMaxFiles=1', '--json'], {
        env,
      });
      expect(JSON.parse(set.stdout)).toMatchObject({ changed: true, config: { coldMaxFiles: 1 } });
      for (const d of [d1, d2]) {
        const add = await runCli(
          ['journal', 'add', 'kestrel notes', '--root', ws, '--date', d, '--time', '08:00'],
          { env, stdin: `Notes of ${d}.\n` },
        );
        expect(add.code, add.stderr).toBe(0);
      }
      const bytes = readFileSync(join(ws, 'memory/archive/hot', `${d1}.md`));
      const tend = await runCli(['journal', 'tend', '--root', ws, '--json'], { env });
      expect(JSON.parse(tend.stdout).archived).toMatchObject([{ date: d1 }]);
      expect(existsSync(join(ws, 'memory/archive/cold', `${d1}.md`))).toBe(false);

      const stats = await runCli(['journal', 'stats', '--root', ws, '--json'], { env });
      expect(JSON.parse(stats.stdout)).toMatchObject({ archived: 1, tiers: { hot: 0, cold: 1 } });

      const restore = await runCli(['journal', 'restore-day', d1, '--root', ws], { env });
      expect(restore.code, restore.stderr).toBe(0);
      expect(restore.stdout).toMatch(/^Restored .* pinned\.\n$/);
      expect(readFileSync(join(ws, 'memory/archive/hot', `${d1}.md`)).equals(bytes)).toBe(true);
      const read = await runCli(['journal', 'read', '--root', ws, '--date', d1], { env });
      expect(read.stdout).toBe(bytes.toString('utf8'));

      // The archive kept its copy: the day can come back again after the file is lost.
      unlinkSync(join(ws, 'memory/archive/hot', `${d1}.md`));
      const again = await runCli(['journal', 'restore-day', '--date', d1, '--root', ws, '--json'], { env });
      expect(JSON.parse(again.stdout)).toMatchObject({ kind: 'restored', date: d1 });
      const unknown = await runCli(['journal', 'restore-day', daysAgo(400), '--root', ws], { env });
      expect(unknown.code).toBe(3);
    },
  );

  it(
    'registers a named root, lists it, lints with an exit code, refuses credentials, and tends every workspace once a day',
    SLOW,
    async () => {
      const { ws, env } = setup();
      const reg = await runCli(['journal', 'workspaces', '--root', ws, '--json'], { env });
      expect(JSON.parse(reg.stdout).workspaces).toEqual([{ root: ws, state: 'ready', auto_tend: true }]);

      const secret = await runCli(
        ['journal', 'add', 'deploy', 'token ghp_a8Xk2LmQ9vT4wR7nB3cD6fH1jK5pS0uY8eZq', '--root', ws],
        { env },
      );
      expect(secret.code).toBe(4);
      expect(existsSync(join(ws, 'memory/archive/hot', `${daysAgo(0)}.md`))).toBe(false);

      writeFileSync(join(ws, 'memory', `${daysAgo(2)}.md`), `# ${daysAgo(2)}\n\n## no time here\nbody\n`);
      const lint = await runCli(['journal', 'lint', '--root', ws], { env });
      expect(lint.code).toBe(1);
      expect(lint.stdout).toContain('untimed_heading');

      const first = await runCli(['journal', 'tend', '--all', '--json'], { env });
      expect(JSON.parse(first.stdout)).toMatchObject({ tended: [{ root: ws, migrated: 1 }], failed: [] });
      const second = await runCli(['journal', 'tend', '--all'], { env });
      expect(second.stdout).toContain(`skipped ${ws}: done_today`);
    },
  );
});
