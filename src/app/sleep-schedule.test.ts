// The nightly schedule: the next 02:17 UTC, and one night per space and UTC day however many servers schedule it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openMemory } from '../boot/open-memory.js';
import { FixedClock } from '../core/clock.js';
import { appContextOf, type Tidepool } from './tidepool.js';
import { nextRunAt, scheduleNightlySleep, type NightlySchedule } from './sleep-schedule.js';

const T0 = Date.UTC(2026, 10, 1, 12);
const open: Array<{ m: Tidepool; dir: string }> = [];
const schedules: NightlySchedule[] = [];
afterEach(async () => {
  for (const s of schedules.splice(0)) s.stop();
  for (const { m, dir } of open.splice(0)) {
    await m.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function memory(clock: FixedClock, model = 'none'): Promise<Tidepool> {
  const dir = mkdtempSync(join(tmpdir(), 'tidepool-schedule-'));
  const m = await openMemory({
    path: join(dir, 'm.db'),
    clock,
    config: { sleep: { model } },
    embedder: 'none',
    warn: () => {},
  });
  open.push({ m, dir });
  return m;
}

describe('nextRunAt', () => {
  it.each([
    ['2026-11-01T01:00:00Z', '02:17', '2026-11-01T02:17:00.000Z'],
    ['2026-11-01T02:17:00Z', '02:17', '2026-11-02T02:17:00.000Z'],
    ['2026-11-01T02:16:59Z', '02:17', '2026-11-01T02:17:00.000Z'],
    ['2026-12-31T23:59:00Z', '00:00', '2027-01-01T00:00:00.000Z'],
  ])('after %s the %s run is at %s', (now, at, next) => {
    expect(new Date(nextRunAt(Date.parse(now), at)).toISOString()).toBe(next);
  });
});

describe('scheduleNightlySleep', () => {
  it('arms the next run and sleeps every space once per UTC day, even with two servers on one memory', async () => {
    const clock = new FixedClock(T0);
    const a = await memory(clock);
    for (const space of ['default', 'team']) {
      await a
        .withSpace(space)
        .record({ turns: [1, 2, 3, 4, 5].map((i) => ({ content: `${space} turn ${i}` })) });
    }
    // Two schedules on one store stand for two servers sharing a memory: each has its own lease owner.
    const first = scheduleNightlySleep(appContextOf(a));
    const second = scheduleNightlySleep(appContextOf(a));
    schedules.push(first, second);
    expect(new Date(first.nextAt).toISOString()).toBe('2026-11-02T02:17:00.000Z');
    clock.set(first.nextAt);
    const ran = await first.runDue();
    expect(ran.map((n) => [n.space, n.outcome])).toEqual([
      ['default', 'slept'],
      ['team', 'slept'],
    ]);
    expect(ran[0]?.message).toMatch(/from 5 episodes/);
    // The script layer ran before each night, every job ok.
    expect(ran.map((n) => n.script && { ok: n.script.ok, failed: n.script.failed })).toEqual([
      { ok: true, failed: [] },
      { ok: true, failed: [] },
    ]);
    expect(await second.runDue()).toEqual([]);
    clock.advance(86_400_000);
    const next = await second.runDue();
    expect(next.map((n) => n.outcome)).toEqual(['awake', 'awake']);
    expect(next.every((n) => n.script?.ok === true)).toBe(true);
  });

  it('leaves nights driven by an agent to the agent', async () => {
    const m = await memory(new FixedClock(T0), 'agent');
    await m.record({ turns: [{ content: 'hello' }] });
    const s = scheduleNightlySleep(appContextOf(m));
    schedules.push(s);
    // The script layer needs no model, so it still runs; only the night waits for the agent.
    expect(await s.runDue()).toEqual([
      {
        space: 'default',
        outcome: 'skipped',
        message: expect.stringContaining('sleep_next'),
        script: { ok: true, failed: [], ms: expect.any(Number) },
      },
    ]);
  });
});
