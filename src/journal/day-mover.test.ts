import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clockAt, copyFixture, dayFiles, put } from '../../test/fixtures/journal/fixture-workspace.js';
import { Journal } from './journal.js';
import { MemoryJournalHost } from './memory-journal-host.js';

const hashes = (root: string) => {
  const out: Record<string, string> = {};
  const files = dayFiles(root);
  for (const [place, names] of Object.entries(files)) {
    for (const n of names) {
      const p =
        place === 'legacy' ? path.join(root, 'memory', n) : path.join(root, 'memory/archive', place, n);
      out[n] = createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    }
  }
  return out;
};
const allNames = (root: string) => Object.values(dayFiles(root)).flat().sort();

describe('crash safety of tier moves', () => {
  it('a crash between copy and delete leaves identical twins; the next tend keeps one and finishes the move', async () => {
    const root = copyFixture('tide');
    const before = hashes(root);
    const host = new MemoryJournalHost();
    const crashing = new Journal({
      host,
      clock: clockAt('2026-11-05'),
      onMoveStep: (step, date) => {
        if (step === 'copied' && date === '2026-10-28') throw new Error('simulated crash');
      },
    });
    await expect(crashing.tend({ root })).rejects.toThrow('simulated crash');
    const hot = path.join(root, 'memory/archive/hot/2026-10-28.md');
    const cold = path.join(root, 'memory/archive/cold/2026-10-28.md');
    expect(fs.readFileSync(hot).equals(fs.readFileSync(cold))).toBe(true);
    expect(fs.existsSync(path.join(root, 'memory/.tide.lock'))).toBe(false);

    const lint = await new Journal({ host, clock: clockAt('2026-11-05') }).lint({ root });
    expect(lint.issues.find((i) => i.kind === 'duplicate_day')).toMatchObject({
      severity: 'warning',
      details: { identical: true },
    });

    const r = await new Journal({ host, clock: clockAt('2026-11-05') }).tend({ root });
    expect(r.repaired).toEqual([{ date: '2026-10-28', kept: 'hot', removed: ['cold'] }]);
    expect(r.moves).toEqual([
      { date: '2026-10-28', from: 'hot', to: 'cold', reason: 'unused', outcome: 'moved' },
    ]);
    expect(dayFiles(root).cold).toContain('2026-10-28.md');
    expect(dayFiles(root).hot).not.toContain('2026-10-28.md');
    expect(allNames(root)).toEqual(Object.keys(before).sort());
    expect(hashes(root)).toEqual(before);
  });

  it('a crash after the archive database took a day but before the folder let go repeats the hand-over', async () => {
    const root = copyFixture('tide');
    const host = new MemoryJournalHost();
    let crash = true;
    const flaky = Object.assign(Object.create(host) as MemoryJournalHost, {
      archiveDay: async (r: string, date: string, content: string) => {
        await host.archiveDay(r, date, content);
        if (crash) throw new Error('simulated crash after commit');
      },
    });
    const journal = new Journal({ host: flaky, clock: clockAt('2026-11-05') });
    await journal.config({ root, patch: { coldMaxFiles: 3 } });
    await expect(journal.tend({ root })).rejects.toThrow('simulated crash after commit');
    expect(dayFiles(root).cold).toContain('2026-08-15.md');
    crash = false;
    const r = await journal.tend({ root });
    expect(r.archived).toEqual([{ date: '2026-08-15', from: 'cold' }]);
    expect(dayFiles(root).cold).toEqual(['2026-09-30.md', '2026-10-20.md', '2026-10-28.md']);
    expect(await host.listArchivedDays(fs.realpathSync(root))).toEqual(['2026-08-15']);
  });

  it('never deletes either of two different copies of one day', async () => {
    const root = copyFixture('tide');
    put(
      root,
      'memory/archive/cold/2026-10-28.md',
      '# 2026-10-28\n\n## 【08:00 edited by hand】\nA different copy.\n',
    );
    const journal = new Journal({ host: new MemoryJournalHost(), clock: clockAt('2026-11-05') });
    const r = await journal.tend({ root });
    expect(r.conflicts).toEqual([{ date: '2026-10-28', locations: ['hot', 'cold'] }]);
    expect(r.moves.map((m) => m.date)).toEqual(['2026-10-20']);
    expect(fs.readFileSync(path.join(root, 'memory/archive/cold/2026-10-28.md'), 'utf8')).toContain(
      'A different copy.',
    );
    expect(fs.readFileSync(path.join(root, 'memory/archive/hot/2026-10-28.md'), 'utf8')).toContain(
      '重试策略',
    );
  });

  it('removes temp files left by an interrupted atomic write', async () => {
    const root = copyFixture('tide');
    put(root, 'memory/archive/hot/.INDEX.md.99999.0badc0de.tmp', 'half-written');
    await new Journal({ host: new MemoryJournalHost(), clock: clockAt('2026-11-05') }).tend({ root });
    expect(fs.readdirSync(path.join(root, 'memory/archive/hot')).filter((n) => n.endsWith('.tmp'))).toEqual(
      [],
    );
  });
});
