import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clockAt, tempWorkspace } from '../../test/fixtures/journal/fixture-workspace.js';
import { parseDayFile } from './day-file.js';
import { Journal } from './journal.js';
import { MemoryJournalHost } from './memory-journal-host.js';
import { LOCK_FILE, WorkspaceLocks } from './workspace-lock.js';

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

  it('releases the lock when the work fails', async () => {
    const dir = tempWorkspace();
    const locks = new WorkspaceLocks();
    await expect(locks.run(dir, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    expect(await locks.run(dir, async () => 1)).toBe(1);
  });
});
