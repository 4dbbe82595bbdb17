import { afterEach, describe, expect, it } from 'vitest';
import { tempMemory, type TempMemory } from '../../test/helpers/temp-memory.js';
import { describeWake, sleep, sleepStatus } from './sleep.js';
import { appContextOf } from './tidepool.js';

const MIN = 60_000;
let t: TempMemory | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

async function twoOldTurns(m: TempMemory): Promise<void> {
  const at = m.clock.now() - 40 * MIN;
  await m.memory.record({ turns: [{ role: 'user', content: 'the kiln cracked again', at }, { role: 'assistant', content: 'noted the kiln crack', at }] });
}

describe('the wake rule from config (sleep.wake)', () => {
  it('stays awake by default with 2 eligible episodes (SEEDS §3.3: 5)', async () => {
    t = await tempMemory();
    await twoOldTurns(t);
    const s = await sleepStatus(appContextOf(t.memory));
    expect(s.decision).toMatchObject({ sleep: false, reason: 'too_few', eligible: 2 });
    expect(describeWake(s.decision, appContextOf(t.memory).config.sleep.wake)).toMatch(/sleeps at 5, or when the oldest has waited over 3 days/);
    expect((await sleep(appContextOf(t.memory))).kind).toBe('awake');
  });

  it('sleeps at the configured count, and describes the configured rule', async () => {
    t = await tempMemory({ config: { sleep: { wake: { minEpisodes: 2, maxWaitDays: 1, minAgeMinutes: 60 } } } });
    await twoOldTurns(t);
    // 40 minutes old: not eligible under minAgeMinutes 60.
    const early = await sleepStatus(appContextOf(t.memory));
    expect(early.decision).toMatchObject({ sleep: false, reason: 'nothing_eligible' });
    expect(describeWake(early.decision, appContextOf(t.memory).config.sleep.wake)).toMatch(/older than 60 minutes/);
    t.clock.advance(30 * MIN);
    expect((await sleepStatus(appContextOf(t.memory))).decision).toMatchObject({ sleep: true, reason: 'enough_episodes', eligible: 2 });
    expect((await sleep(appContextOf(t.memory))).kind).toBe('slept');
  });
});
