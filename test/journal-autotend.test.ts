/** The journal auto-tend over the real store: the day's state survives a restart, so a day is neither repeated nor skipped. */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appContextOf, type Tidepool } from '../src/app/tidepool.js';
import { openMemory } from '../src/boot/open-memory.js';
import { DAY_MS, FixedClock } from '../src/core/clock.js';
import { T0 } from './helpers/temp-memory.js';

const dirs: string[] = [];
const open: Tidepool[] = [];
afterEach(async () => {
  for (const m of open.splice(0)) await m.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(path: string, at: number): Promise<Tidepool> {
  const m = await openMemory({ path, clock: new FixedClock(at), embedder: 'none', warn: () => undefined });
  open.push(m);
  return m;
}

describe('journal auto-tend', () => {
  it('tends each ready workspace once per day across a restart, skipping opted-out and vanished ones', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-autotend-')));
    dirs.push(dir);
    const db = join(dir, 'memory.db');
    const [ws, off, gone] = [join(dir, 'ws'), join(dir, 'off'), join(dir, 'gone')] as const;
    for (const w of [ws, off, gone]) mkdirSync(join(w, 'memory'), { recursive: true });
    // A legacy day of 2026-10-01, 31 days before T0: the first tend moves it straight to cold.
    writeFileSync(join(ws, 'memory/2026-10-01.md'), '# 2026-10-01\n\n## 【09:00 old work】\ndone\n');

    const first = await start(db, T0);
    for (const w of [ws, off, gone]) await first.registerJournalWorkspace(w);
    await first.journal().config({ root: off, patch: { autoTend: false } });
    rmSync(gone, { recursive: true });
    const r1 = await first.startJournalAutoTend({ start: false }).tick();
    expect(r1.tended).toEqual([{ root: ws, moves: 1, archived: 0, migrated: 1 }]);
    expect(r1.skipped).toEqual([
      { root: gone, reason: 'missing_root' },
      { root: off, reason: 'opted_out' },
    ]);
    expect(existsSync(join(ws, 'memory/archive/cold/2026-10-01.md'))).toBe(true);
    await first.close();
    open.splice(0);

    // Restarted the same day: the stored state says done.
    const second = await start(db, T0 + 3 * 3_600_000);
    const r2 = await second.startJournalAutoTend({ start: false }).tick();
    expect(r2.tended).toEqual([]);
    expect(r2.skipped).toContainEqual({ root: ws, reason: 'done_today' });

    // The next day the workspace is tended again, and the state moves with it.
    const third = await start(db, T0 + DAY_MS);
    const r3 = await third.startJournalAutoTend({ start: false }).tick();
    expect(r3.tended.map((t) => t.root)).toEqual([ws]);
    expect(await appContextOf(third).store.forSpace(third.space).journal.workspace(ws)).toMatchObject({
      lastTendedDay: '2026-11-02',
    });
  });

  it('starts with a tick at once and stops its timer', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tidepool-autotend-')));
    dirs.push(dir);
    const ws = join(dir, 'ws');
    mkdirSync(join(ws, 'memory'), { recursive: true });
    const m = await start(join(dir, 'memory.db'), T0);
    await m.registerJournalWorkspace(ws);
    const ticks: number[] = [];
    const handle = m.startJournalAutoTend({ onTick: (r) => ticks.push(r.tended.length) });
    await expect.poll(() => ticks, { timeout: 20_000 }).toEqual([1]);
    handle.stop();
    expect(await appContextOf(m).store.forSpace(m.space).journal.workspace(ws)).toMatchObject({ lastTendedDay: '2026-11-01' });
  });
});
