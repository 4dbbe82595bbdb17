import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clockAt, tempWorkspace } from '../../test/fixtures/journal/fixture-workspace.js';
import { parseDayFile } from './day-file.js';
import { Journal } from './journal.js';
import { MemoryJournalHost } from './memory-journal-host.js';
import { LOCK_FILE, WorkspaceLocks } from './workspace-lock.js';
import { pause, spawnChild } from '../../test/helpers/killable-child.js';

const LOOPER = fileURLToPath(new URL('../../test/fixtures/journal/lock/lock-looper.mjs', import.meta.url));
const RACER = fileURLToPath(new URL('../../test/fixtures/journal/lock/stale-racer.mjs', import.meta.url));

describe('workspace lock', () => {
  it('loses no section when two journals (two lock queues, one lock file) add at once', async () => {
    const root = tempWorkspace();
    const a = new Journal({ host: new MemoryJournalHost(), clock: clockAt('2026-11-05') });
    const b = new Journal({ host: new MemoryJournalHost(), clock: clockAt('2026-11-05') });
    await a.stats({ root });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 === 0 ? a : b).add({ root, time: '10:00', heading: `note ${i}`, content: `body ${i}` }),
      ),
    );
    const text = fs.readFileSync(path.join(root, 'memory/archive/hot/2026-11-05.md'), 'utf8');
    expect(
      parseDayFile(text)
        .sections.map((s) => s.title)
        .sort(),
    ).toEqual(Array.from({ length: 12 }, (_, i) => `note ${i}`).sort());
    expect(fs.existsSync(path.join(root, 'memory', LOCK_FILE))).toBe(false);
  });

  it('takes over a lock left by a process that died', async () => {
    const dir = tempWorkspace();
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345, at: Date.now() }));
    expect(await new WorkspaceLocks().run(dir, async () => 'ran')).toBe('ran');
  });

  it('names its holder from the moment it exists, and leaves no file behind', async () => {
    const dir = tempWorkspace();
    const held = await new WorkspaceLocks().run(dir, async () => JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as { pid: number });
    expect(held.pid).toBe(process.pid);
    expect(fs.readdirSync(dir).filter((f) => f.includes(LOCK_FILE))).toEqual([]);
  });

  it('is free at once after its holder is killed at any moment (no lock left empty to age out)', { timeout: 120_000 }, async () => {
    // Created and then written, a lock killed between the two stayed empty: nobody could tell its holder was dead, and
    // every writer waited out its minute of age (a tend after a killed one failed with `locked` after 15 s).
    const dir = tempWorkspace();
    let seed = 7;
    const rng = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 25; round++) {
      const child = spawnChild([LOOPER, dir]);
      await child.waitForLine((l) => l === 'ready');
      await pause(Math.floor(rng() * 20));
      const end = await child.kill();
      expect(end.stderr).toBe('');
      const started = performance.now();
      await new WorkspaceLocks().run(dir, async () => undefined);
      // A dead holder's lock is taken over at the first look (a live one would be waited for, up to 15 s).
      expect(performance.now() - started, `round ${round}`).toBeLessThan(5_000);
    }
    // What a kill may leave: only temp files of the kind a tend sweeps (`MemoryDir.removeStrayTemps`).
    expect(fs.readdirSync(dir).filter((f) => f.includes(LOCK_FILE) && !/^\.\.tide\.lock\.\d+\.[0-9a-f]{8}\.tmp$/.test(f))).toEqual([]);
  });

  it('gives a dead holder\'s lock to one of the processes that find it at once, never to two', { timeout: 120_000 }, async () => {
    // Each waiter judged the lock dead and removed it: one that judged before another had taken it over and removed
    // after removed the new holder's lock, and both held it.
    for (let round = 0; round < 8; round++) {
      const dir = tempWorkspace();
      fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345, at: Date.now() }));
      const go = path.join(dir, 'go');
      const children = Array.from({ length: 6 }, () => spawnChild([RACER, dir, go]));
      await Promise.all(children.map((c) => c.waitForLine((l) => l === 'ready')));
      fs.writeFileSync(go, '');
      const ends = await Promise.all(children.map((c) => c.ended));
      expect(ends.map((e) => [e.code, e.stderr, e.lines.join(' ')]), `round ${round}`).toEqual(ends.map(() => [0, '', 'ready done']));
      expect(fs.readdirSync(dir).filter((f) => f.includes(LOCK_FILE) || f === 'holder')).toEqual([]);
    }
  });

  it('keeps the lock of a holder that works longer than the lock\'s age limit: it refreshes it while it works', async () => {
    // Not refreshed, a lock held longer than its age limit (a minute by default) was taken over by a waiter while its
    // holder still worked, and two writers ran at once.
    const dir = tempWorkspace();
    const spans: Array<[string, number, number]> = [];
    const work = (who: string, ms: number) => async () => {
      const start = performance.now();
      await new Promise((r) => setTimeout(r, ms));
      spans.push([who, start, performance.now()]);
    };
    const long = new WorkspaceLocks({ staleMs: 200 }).run(dir, work('long', 900));
    await new Promise((r) => setTimeout(r, 50));
    await new WorkspaceLocks({ staleMs: 200 }).run(dir, work('next', 10));
    await long;
    const [first, second] = spans;
    expect([first![0], second![0]]).toEqual(['long', 'next']);
    expect(second![1]).toBeGreaterThanOrEqual(first![2]);
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('leaves a lock taken over from it to its new holder when it ends', async () => {
    // Taken over from a hung holder (its lock past the age limit), the lock is the new holder's: the old one's end
    // removed it, and a third writer could take it beside the second.
    const dir = tempWorkspace();
    const file = path.join(dir, LOCK_FILE);
    const theirs = JSON.stringify({ pid: process.pid, at: Date.now(), id: 'another holder' });
    await new WorkspaceLocks().run(dir, async () => {
      fs.rmSync(file);
      fs.writeFileSync(file, theirs);
    });
    expect(fs.readFileSync(file, 'utf8')).toBe(theirs);
  });

  it('releases the lock when the work fails', async () => {
    const dir = tempWorkspace();
    const locks = new WorkspaceLocks();
    await expect(locks.run(dir, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    expect(await locks.run(dir, async () => 1)).toBe(1);
  });
});
