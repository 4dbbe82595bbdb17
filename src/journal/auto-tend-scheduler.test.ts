import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../core/clock.js';
import { copyFixture, dayFiles, put, tempWorkspace } from '../../test/fixtures/journal/fixture-workspace.js';
import { AutoTendScheduler } from './auto-tend-scheduler.js';
import { Journal } from './journal.js';
import {
  MemoryJournalHost,
  emptyJournalHostState,
  type MemoryJournalHostState,
} from './memory-journal-host.js';

const at = (iso: string) => Date.parse(iso);

function boot(state: MemoryJournalHostState, now: number) {
  const host = new MemoryJournalHost(state);
  const clock = new FixedClock(now);
  const journal = new Journal({ host, clock });
  return { host, clock, journal, scheduler: new AutoTendScheduler({ journal, host, clock }) };
}

describe('AutoTendScheduler', () => {
  it('tends each ready workspace once per day, across a restart, skipping the rest with a reason', async () => {
    const state = emptyJournalHostState();
    const ready = fs.realpathSync(copyFixture('tide'));
    const bare = fs.realpathSync(tempWorkspace());
    const optedOut = fs.realpathSync(copyFixture('tide'));
    put(optedOut, 'memory/.tide.json', '{"autoTend": false}\n');
    const gone = path.join(tempWorkspace(), 'removed');
    for (const r of [ready, bare, optedOut, gone]) state.workspaces.add(r);

    const first = boot(state, at('2026-11-05T08:00:00Z'));
    const r1 = await first.scheduler.tick();
    expect(r1.day).toBe('2026-11-05');
    expect(r1.tended).toEqual([{ root: ready, moves: 2, archived: 0, migrated: 1 }]);
    expect(Object.fromEntries(r1.skipped.map((s) => [s.root, s.reason]))).toEqual({
      [bare]: 'no_memory',
      [optedOut]: 'opted_out',
      [gone]: 'missing_root',
    });
    expect(fs.existsSync(path.join(bare, 'memory'))).toBe(false);
    expect(dayFiles(optedOut).legacy).toEqual(['2026-10-20.md']);
    expect((await first.scheduler.tick(at('2026-11-05T08:30:00Z'))).skipped).toContainEqual({
      root: ready,
      reason: 'done_today',
    });

    const restarted = boot(state, at('2026-11-05T23:59:00Z'));
    const r2 = await restarted.scheduler.tick();
    expect(r2.tended).toEqual([]);
    expect(r2.skipped).toContainEqual({ root: ready, reason: 'done_today' });

    const r3 = await restarted.scheduler.tick(at('2026-11-06T00:01:00Z'));
    expect(r3.tended.map((t) => t.root)).toEqual([ready]);
    expect(state.tendState.get(ready)).toBe('2026-11-06');
  });

  it('isolates a failing workspace, and retries it on the next tick', async () => {
    const state = emptyJournalHostState();
    const good = fs.realpathSync(copyFixture('tide'));
    const bad = fs.realpathSync(tempWorkspace());
    fs.symlinkSync(tempWorkspace(), path.join(bad, 'memory'));
    state.workspaces.add(bad);
    state.workspaces.add(good);
    const { scheduler } = boot(state, at('2026-11-05T08:00:00Z'));
    const r = await scheduler.tick();
    expect(r.failed).toEqual([{ root: bad, code: 'forbidden', message: expect.stringContaining('symlink') }]);
    expect(r.tended.map((t) => t.root)).toEqual([good]);
    expect(state.tendState.has(bad)).toBe(false);
    fs.unlinkSync(path.join(bad, 'memory'));
    fs.mkdirSync(path.join(bad, 'memory'));
    expect((await scheduler.tick(at('2026-11-05T08:30:00Z'))).tended.map((t) => t.root)).toEqual([bad]);
  });

  it('returns the running tick to a second caller instead of overlapping', async () => {
    const state = emptyJournalHostState();
    state.workspaces.add(fs.realpathSync(copyFixture('tide')));
    const { scheduler } = boot(state, at('2026-11-05T08:00:00Z'));
    const [a, b] = [scheduler.tick(), scheduler.tick()];
    expect(a).toBe(b);
    expect((await a).tended).toHaveLength(1);
  });

  it('runs on a timer and survives a tick that throws', async () => {
    const state = emptyJournalHostState();
    const host = new MemoryJournalHost(state);
    let calls = 0;
    const flaky = Object.assign(Object.create(host) as MemoryJournalHost, {
      listWorkspaces: async () => {
        calls++;
        if (calls === 1) throw new Error('database unreachable');
        return [];
      },
    });
    const clock = new FixedClock(at('2026-11-05T08:00:00Z'));
    const errors: unknown[] = [];
    const ticks: string[] = [];
    const scheduler = new AutoTendScheduler({
      journal: new Journal({ host: flaky, clock }),
      host: flaky,
      clock,
      intervalMs: 10,
      onError: (e) => errors.push(e),
      onTick: (r) => ticks.push(r.day),
    });
    scheduler.start();
    expect(scheduler.running).toBe(true);
    for (let i = 0; i < 200 && ticks.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    scheduler.stop();
    expect(scheduler.running).toBe(false);
    expect(errors).toHaveLength(1);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
  });
});
