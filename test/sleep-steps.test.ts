/** The model steps after the librarian, each through a night with scripted answers: comb, drift, dream, ideas, gaps. */
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../src/app/sleep.js';
import { mayHoldPersonalData } from '../src/sleep/phases/pii-watch-phase.js';
import { ScriptedModel } from '../src/sleep/llm/scripted-model.js';
import type { NightResult } from '../src/sleep/night-types.js';
import { tempMemory, T0, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

const DAY = 86_400_000;
let tm: TempMemory;
afterEach(async () => tm?.cleanup());

const store = () => appContextOf(tm.memory).store;
const space = () => tm.memory.space;
const json = (v: unknown) => JSON.stringify(v);

async function night(model: ScriptedModel): Promise<Extract<NightResult, { kind: 'slept' }>> {
  tm.clock.set(T0 + DAY);
  const r = await sleep(appContextOf(tm.memory), { modelInstance: model, force: true });
  if (r.kind !== 'slept') throw new Error(r.kind);
  return r;
}

const DREAM = json({
  symbols: ['key', 'door', 'rain'],
  sources: [],
  dream: 'A key opened a door of rain',
  reflection: 'I look for ways in',
  emotional: 3,
  unresolved: 3,
});

describe('comb', () => {
  it('re-scores today, rewrites profiles and the self-concept, notes conflicts and moves threads, never raising a dream', async () => {
    tm = await tempMemory();
    await tm.memory.write({
      gesture: 'Mara pushed the release to Friday',
      tags: ['release', 'Mara'],
      importance: 2,
      emotional: 4,
      at: T0,
    });
    await tm.memory.write({ gesture: 'I dreamt of a lighthouse', tags: ['dream'], kind: 'dream', at: T0 });
    await tm.memory.writeThread({ content: 'why do releases slip?' });
    await tm.memory.writeProfile({ entity: 'Mara', profile_type: 'impression', content: 'careful planner' });
    const model = new ScriptedModel({
      comb: [
        json({
          rescore: [
            { id: 'n1', importance: 5, unresolved: 4 },
            { id: 'n2', importance: 5 },
            { id: 'n99', importance: 1 },
          ],
          profiles: [{ entity: 'Mara', type: 'impression', content: 'Decides fast under deadlines' }],
          self: [{ field: 'reflection', content: 'I defer to deadlines too easily' }],
          conflicts: [{ ids: ['n1'], note: 'observed tension between haste and earlier care' }],
          threads: [{ content: 'what makes Friday special?', importance: 2, emotional: 2, unresolved: 4 }],
          thread_status: [{ id: 't1', status: 'explored' }],
        }),
      ],
      dream: [DREAM],
      pii_watch: ['{"names":[]}'],
    });
    const r = await night(model);
    const [n1, n2] = await store().forSpace(space()).narratives.getMany([1, 2]);
    expect([n1?.importance, n1?.unresolved, n2?.importance]).toEqual([5, 4, 1]);
    expect(r.log.droppedItems).toBe(1);
    expect((await tm.memory.profiles('Mara'))[0]?.content).toBe('Decides fast under deadlines');
    expect((await tm.memory.selfConcept()).find((s) => s.field === 'self_reflection')?.content).toBe(
      'I defer to deadlines too easily',
    );
    const conflicts = await store().forSpace(space()).narratives.list({ tags: ['conflict'], limit: 5 });
    expect(conflicts.map((c) => [c.kind, c.gesture])).toEqual([
      ['self_reflection', 'observed tension between haste and earlier care'],
    ]);
    const threads = await tm.memory.threads('all', 10);
    expect(threads.map((t) => [t.content, t.status]).sort()).toEqual([
      ['what makes Friday special?', 'open'],
      ['why do releases slip?', 'explored'],
    ]);
    const shown = JSON.parse(model.calls.find((c) => c.step === 'comb')!.request.messages[0]!.content) as {
      memories: Array<{ id: string }>;
    };
    expect(shown.memories.map((m) => m.id).sort()).toEqual(['n1', 'n2']);
    expect(r.log.steps.find((x) => x.step === 'comb')).toMatchObject({ ran: true, reason: '1 of 2 new memories score 4+' });
  });

  it('asks no model for comb, dream or PII watch on a quiet night, and the night log says why', async () => {
    tm = await tempMemory();
    await tm.memory.write({ gesture: 'we went over the weekly numbers', tags: ['numbers'], importance: 2, emotional: 1, unresolved: 1, at: T0 });
    const model = new ScriptedModel({ comb: ['{}'], dream: [DREAM], pii_watch: ['{"names":[]}'] });
    const r = await night(model);
    expect(model.calls.map((c) => c.step)).toEqual([]);
    expect(r.log.steps).toEqual([
      { step: 'comb', ran: false, reason: 'quiet night: 1 routine memories (< 4, none scoring 4+)' },
      { step: 'dream', ran: false, reason: 'quiet night: 1 calm, settled memories (emotional and unresolved < 3)' },
      { step: 'pii_watch', ran: false, reason: 'no new texts' },
    ]);
  });

  it('sends the PII watch only texts that could hold a name or contact data', () => {
    expect(mayHoldPersonalData('Topics discussed: painting, support, group')).toBe(false);
    expect(mayHoldPersonalData('I noticed the [person_1] plan. It slipped again.')).toBe(false);
    expect(mayHoldPersonalData('Talked with Erika about the trip')).toBe(true);
    expect(mayHoldPersonalData('write to erika@example.org')).toBe(true);
    expect(mayHoldPersonalData('call 0176 555 0199 tomorrow')).toBe(true);
    expect(mayHoldPersonalData('和王芳讨论了旅行')).toBe(true);
  });
});

describe('drift and dream', () => {
  it('drifts from a heavy memory of today to older, unrelated ones, and dreams with importance 1', async () => {
    tm = await tempMemory();
    await tm.memory.write({
      gesture: 'Tide tables for the sailing trip',
      tags: ['sailing'],
      importance: 3,
      at: T0 - 20 * DAY,
    });
    await tm.memory.write({
      gesture: 'Sourdough starter died again',
      tags: ['baking'],
      importance: 3,
      at: T0 - 10 * DAY,
    });
    await tm.memory.write({
      gesture: 'Shipped the migration after three failed tries',
      tags: ['release'],
      importance: 5,
      emotional: 5,
      unresolved: 4,
      at: T0 + 1,
    });
    const model = new ScriptedModel({
      comb: ['{}'],
      drift: [
        json({
          connection: { to: 'n2', insight: 'both needed patience with a living process' },
          thread: {
            content: 'where else do I rush living things?',
            importance: 2,
            emotional: 3,
            unresolved: 4,
          },
        }),
      ],
      dream: [
        json({
          symbols: ['tide', 'bread', 'ship'],
          sources: ['n3', 'n77'],
          dream: 'A ship made of bread rode the tide',
          reflection: 'I want things to rise on time',
          emotional: 3,
          unresolved: 2,
        }),
      ],
      pii_watch: ['{"names":[]}'],
    });
    const r = await night(model);
    const drift = JSON.parse(model.calls.find((c) => c.step === 'drift')!.request.messages[0]!.content) as {
      seed: { id: string };
      far: Array<{ id: string; via: string }>;
    };
    expect(drift.seed.id).toBe('n3');
    expect(drift.far.map((f) => f.id).sort()).toEqual(['n1', 'n2']);
    expect(drift.far.every((f) => f.via === 'topic')).toBe(true);
    const insight = (await store().forSpace(space()).narratives.list({ tags: ['drift'], limit: 5 }))[0];
    expect(insight).toMatchObject({
      kind: 'self_reflection',
      gesture: 'both needed patience with a living process',
      context: 'drift from n3 to n2',
    });
    expect((await tm.memory.threads('open', 5)).map((t) => t.content)).toContain(
      'where else do I rush living things?',
    );
    const dream = (await store().forSpace(space()).narratives.list({ kind: 'dream', limit: 5 }))[0]!;
    expect(dream).toMatchObject({
      importance: 1,
      emotional: 3,
      tags: ['dream'],
      gesture: 'A ship made of bread rode the tide',
      context: "mapped from today's tide, bread, ship",
    });
    expect(r.log.counts.dreams).toBe(1);
    const lit = await store().forSpace(space()).attention.since(T0);
    expect(lit.filter((a) => a.source === 'dream').map((a) => a.itemId)).toEqual([3]);
  });
});

describe('ideas and gaps', () => {
  it('puts ideas for open problems into the briefing only, and lists barely linked topics as worth exploring', async () => {
    tm = await tempMemory();
    await tm.memory.remember({ text: 'Login tests fail about once in ten runs', kind: 'open_problem' });
    for (const text of ['Billing runs nightly', 'Billing exports CSV', 'Billing owns invoices'])
      await tm.memory.remember({ text, subject: 'billing' });
    const before = await store().forSpace(space()).knowledge.count();
    const model = new ScriptedModel({
      ideas: [json({ ideas: [{ problem: 'k1', next_step: 'Run the login test 50 times with tracing on' }] })],
    });
    const r = await night(model);
    expect(r.log.openProblems.map((p) => p.content)).toEqual(['Login tests fail about once in ten runs']);
    expect(r.briefing.agent.ideas).toEqual([
      'Login tests fail about once in ten runs → Run the login test 50 times with tracing on',
    ]);
    expect(await store().forSpace(space()).knowledge.count()).toBe(before);
    expect(r.log.gaps).toEqual([{ topic: 'billing', mentions: 3, degree: 0 }]);
    expect(r.briefing.human.worthExploring).toEqual(['billing (mentioned 3 times, 0 links)']);
    expect(r.briefing.markdown).toContain('## Worth exploring');
  });
});
