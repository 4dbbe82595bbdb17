// The sleep area on SQLite and on PGlite (the PostgreSQL code path): runs, work units, lock, lifecycle marks, state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEpisode, Store } from '../port.js';
import { openSqliteStore } from '../sqlite/open-sqlite.js';
import { openPostgresStore } from '../postgres/open-postgres.js';
import { newEpisodeRow } from '../../../test/helpers/store-rows.js';

const T0 = Date.UTC(2026, 10, 1, 12);
const DAY = 86_400_000;

function episode(content: string, o: Partial<NewEpisode> = {}): NewEpisode {
  return newEpisodeRow(content, T0, { index: { body: content.toLowerCase(), extra: '', raw: content }, ...o });
}

const ENGINES: Array<[string, () => Promise<Store>]> = [
  ['SQLite', () => openSqliteStore(':memory:')],
  ['PGlite', () => openPostgresStore('pglite://memory')],
];

describe.each(ENGINES)('sleep store on %s', (_name, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
    await store.spaces.ensure('a', T0);
    await store.spaces.ensure('b', T0);
  });
  afterAll(async () => store?.close());

  it('keeps runs and their units, and finds the open run to resume', async () => {
    const id = await store.forSpace('a').sleepRuns.createRun({
      night: '2026-11-01',
      model: 'none',
      startedAt: T0,
      log: { plan: 2 },
    });
    expect((await store.forSpace('a').sleepRuns.openRun())?.id).toBe(id);
    expect(await store.forSpace('b').sleepRuns.openRun()).toBeUndefined();
    await store.forSpace('a').sleepRuns.planWork(
      id,
      [
        { step: 'b-lib', unit: 'g0002', payload: { ids: [2] } },
        { step: 'a-sol', unit: 'g0001', payload: { ids: [1] } },
      ],
      T0,
    );
    await store.forSpace('a').sleepRuns.setWork(id, {
      step: 'a-sol',
      unit: 'g0001',
      status: 'asked',
      result: { answer: 'x' },
      at: T0,
    });
    // Planning again keeps what was already recorded (a resumed night never loses progress).
    await store.forSpace('a').sleepRuns.planWork(id, [{ step: 'a-sol', unit: 'g0001', payload: { ids: [9] } }], T0);
    const work = await store.forSpace('a').sleepRuns.work(id);
    expect(work.map((w) => [w.step, w.unit, w.status])).toEqual([
      ['a-sol', 'g0001', 'asked'],
      ['b-lib', 'g0002', 'planned'],
    ]);
    expect(work[0]).toMatchObject({ payload: { ids: [1] }, result: { answer: 'x' } });
    expect(await store.forSpace('b').sleepRuns.work(id)).toEqual([]);
    await store.forSpace('a').sleepRuns.finishRun(id, {
      finishedAt: T0 + 5,
      tokensIn: 10,
      tokensOut: 3,
      log: { episodes: 4 },
    });
    expect(await store.forSpace('a').sleepRuns.openRun()).toBeUndefined();
    const [run] = await store.forSpace('a').sleepRuns.runs({ night: '2026-11-01', status: 'done', limit: 5 });
    expect(run).toMatchObject({
      id,
      status: 'done',
      tokensIn: 10,
      tokensOut: 3,
      finishedAt: T0 + 5,
      log: { episodes: 4 },
    });
  });

  it('lets one owner hold the lock until it expires or is released', async () => {
    expect(await store.forSpace('a').sleepRuns.acquireLock('one', T0, 1000)).toBe(true);
    expect(await store.forSpace('a').sleepRuns.acquireLock('two', T0 + 999, 1000)).toBe(false);
    expect(await store.forSpace('b').sleepRuns.acquireLock('two', T0, 1000)).toBe(true);
    expect(await store.forSpace('a').sleepRuns.renewLock('one', T0 + 500, 1000)).toBe(true);
    expect(await store.forSpace('a').sleepRuns.acquireLock('two', T0 + 1200, 1000)).toBe(false);
    expect(await store.forSpace('a').sleepRuns.lockOwner()).toBe('one');
    expect(await store.forSpace('a').sleepRuns.acquireLock('two', T0 + 1500, 1000)).toBe(true);
    expect(await store.forSpace('a').sleepRuns.renewLock('one', T0 + 1600, 1000)).toBe(false);
    expect(await store.forSpace('a').sleepRuns.lockOwner()).toBe('two');
    await store.forSpace('a').sleepRuns.releaseLock('two');
    expect(await store.forSpace('a').sleepRuns.lockOwner()).toBeUndefined();
    expect(await store.forSpace('a').sleepRuns.acquireLock('three', T0 + 1600, 1000)).toBe(true);
    await store.forSpace('a').sleepRuns.releaseLock('three');
    await store.forSpace('b').sleepRuns.releaseLock('two');
  });

  it('counts the wait of imported history from when the turn happened, not from its insertion', async () => {
    await store.spaces.ensure('imp', T0);
    const { ids } = await store.forSpace('imp').episodes.insertMany([
      episode('a week-old imported turn', { occurredAt: T0 - 7 * DAY, createdAt: T0 }),
      episode('a live turn', { occurredAt: T0, createdAt: T0 }),
      episode('stamped in the future', { occurredAt: T0 + DAY, createdAt: T0 - 1000 }),
    ]);
    const [imported, live, future] = ids as [number, number, number];
    expect(await store.forSpace('imp').episodes.pendingTimes(10)).toEqual([T0 - 7 * DAY, T0 - 1000, T0]);
    // Thirty minutes before now: only what happened (or arrived) before then is eligible.
    expect((await store.forSpace('imp').episodes.pending({ createdBefore: T0 - 30 * 60_000, limit: 10 })).map((e) => e.id)).toEqual([imported]);
    expect((await store.forSpace('imp').episodes.pending({ createdBefore: T0, limit: 10 })).map((e) => e.id)).toEqual([imported, future, live]);
  });

  it('lists pending episodes, marks them consolidated and archived, and finds retention candidates', async () => {
    const { ids } = await store.forSpace('a').episodes.insertMany([
      episode('old turn', { createdAt: T0 - 40 * DAY }),
      episode('durable memory', { createdAt: T0 - 40 * DAY, durable: true }),
      episode('recent turn', { createdAt: T0 - DAY }),
      episode('fresh turn', { createdAt: T0 }),
    ]);
    const [old, durable, recent, fresh] = ids as [number, number, number, number];
    expect(
      (await store.forSpace('a').episodes.pending({ createdBefore: T0 - 1, limit: 10 })).map((e) => e.id),
    ).toEqual([old, durable, recent]);
    expect(await store.forSpace('a').episodes.pendingTimes(10)).toEqual([T0 - 40 * DAY, T0 - 40 * DAY, T0 - DAY, T0]);
    expect(await store.forSpace('a').episodes.markConsolidated([recent, fresh], T0 - 20 * DAY)).toBe(2);
    expect(await store.forSpace('b').episodes.markConsolidated([old], T0)).toBe(0);
    expect(
      (await store.forSpace('a').episodes.pending({ createdBefore: T0, limit: 10 })).map((e) => e.id),
    ).toEqual([old, durable]);
    const cands = await store.forSpace('a').episodes.retentionCandidates({
      consolidatedBefore: T0 - 14 * DAY,
      createdBefore: T0 - 30 * DAY,
      limit: 100,
    });
    expect(cands.map((c) => c.id)).toEqual([old, recent, fresh]);
    expect(cands.find((c) => c.id === recent)).toEqual({
      id: recent,
      createdAt: T0 - DAY,
      consolidatedAt: T0 - 20 * DAY,
      durable: false,
    });
    expect(await store.forSpace('a').episodes.markArchived([old, recent], T0)).toBe(2);
    expect(
      (await store.forSpace('a').episodes.pending({ createdBefore: T0, limit: 10 })).map((e) => e.id),
    ).toEqual([durable]);
    expect((await store.forSpace('a').episodes.get(old))?.archivedAt).toBe(T0);
    expect(await store.forSpace('a').sleepRuns.memorySize()).toBe(2);
  });

  it('lists successful and failed tool calls and results with their sessions, a call with its input', async () => {
    await store.forSpace('a').episodes.insertMany([
      episode('ran tests', {
        kind: 'tool_result',
        role: 'tool',
        tool: 'test',
        ok: true,
        session: 's9',
        occurredAt: T0 + 2,
      }),
      episode('built', {
        kind: 'tool_result',
        role: 'tool',
        tool: 'build',
        ok: false,
        session: 's9',
        occurredAt: T0 + 1,
      }),
      episode('no session', { kind: 'tool_result', role: 'tool', tool: 'build', ok: true, session: null }),
      episode(`Bash {"command":"npm publish"}${'x'.repeat(2_000)}`, { kind: 'tool_call', role: 'tool', tool: 'Bash', ok: true, session: 's9', occurredAt: T0 + 3 }),
      episode('Bash {"command":"git push"}', { kind: 'tool_call', role: 'tool', tool: 'Bash', ok: null, session: 's9', occurredAt: T0 + 4 }),
    ]);
    const rows = await store.forSpace('a').episodes.toolResults(T0);
    expect(rows.map((r) => [r.kind, r.tool, r.ok, r.session, r.input?.slice(0, 28) ?? null])).toEqual([
      ['tool_result', 'build', false, 's9', null],
      ['tool_result', 'test', true, 's9', null],
      // A call carries its text (at most 1,000 characters); one without an outcome is not listed.
      ['tool_call', 'Bash', true, 's9', 'Bash {"command":"npm publish'],
    ]);
    expect(rows[2]!.input).toHaveLength(1_000);
  });

  it('rewrites episode and narrative text and re-indexes it', async () => {
    const { ids } = await store.forSpace('a').episodes.insertMany([episode('Erika called about the invoice')]);
    const id = ids[0]!;
    await store.forSpace('a').episodes.rewrite(id, '[person_1] called about the invoice', {
      body: 'person_1 called about the invoice',
      extra: '',
      raw: '[person_1] called about the invoice',
    });
    expect((await store.forSpace('a').episodes.get(id))?.content).toBe('[person_1] called about the invoice');
    expect(await store.forSpace('a').search.lexical('episode', ['erika'], { limit: 5 })).toEqual([]);
    expect(
      (await store.forSpace('a').search.lexical('episode', ['invoice'], { limit: 5 })).map((h) => h.id),
    ).toContain(id);
    expect(
      (await store.forSpace('a').search.substring('episode', 'Erika', { limit: 5, includeArchived: true })).map(
        (h) => h.id,
      ),
    ).not.toContain(id);
    const n = await store.forSpace('a').narratives.insert({
      kind: 'narrative',
      ntype: 'general',
      content: 'Erika was upset',
      gesture: 'Erika was upset',
      context: null,
      moment: null,
      cognitionDirection: null,
      tags: ['Erika', 'billing'],
      entitiesRole: null,
      relatedEntities: [],
      sourceLinks: [id],
      importance: 3,
      emotional: 3,
      recurrence: 1,
      unresolved: 3,
      weight: 0.5,
      createdAt: T0,
      embedPending: false,
      index: { body: 'erika was upset', extra: 'erika billing', raw: 'Erika was upset' },
    });
    await store.forSpace('a').narratives.rewrite(
      n,
      {
        content: '[person_1] was upset',
        gesture: '[person_1] was upset',
        context: null,
        moment: null,
        cognitionDirection: null,
      },
      ['[person_1]', 'billing'],
      { body: 'person_1 was upset', extra: 'person_1 billing', raw: '[person_1] was upset' },
    );
    expect(await store.forSpace('a').narratives.get(n)).toMatchObject({
      content: '[person_1] was upset',
      tags: ['[person_1]', 'billing'],
    });
    expect(await store.forSpace('a').narratives.withAnyTag(['Erika'])).toEqual([]);
    expect(await store.forSpace('a').search.lexical('narrative', ['erika'], { limit: 5 })).toEqual([]);
    await store.forSpace('a').narratives.writeScores(
      [{ id: n, importance: 5, emotional: 1, recurrence: 2, unresolved: 4, weight: 0.7 }],
      T0 + 1,
    );
    expect(await store.forSpace('a').narratives.get(n)).toMatchObject({
      importance: 5,
      emotional: 1,
      recurrence: 2,
      unresolved: 4,
      weight: 0.7,
      updatedAt: T0 + 1,
    });
  });

  it('keeps JSON state per space and writes one briefing per day', async () => {
    expect(await store.forSpace('a').state.get('sleep:pii')).toBeUndefined();
    await store.forSpace('a').state.put(
      'sleep:pii',
      { entries: [{ placeholder: '[person_1]', kind: 'person', value: 'Ana' }] },
      T0,
    );
    await store.forSpace('a').state.put('sleep:pii', { entries: [], watched: ['Ana'] }, T0 + 1);
    expect(await store.forSpace('a').state.get('sleep:pii')).toEqual({ entries: [], watched: ['Ana'] });
    expect(await store.forSpace('b').state.get('sleep:pii')).toBeUndefined();
    await store.forSpace('a').derived.putBriefing({ day: '2026-11-02', headline: 'h1', body: 'b1', createdAt: T0 });
    await store.forSpace('a').derived.putBriefing({ day: '2026-11-02', headline: 'h2', body: 'b2', createdAt: T0 + 1 });
    expect(await store.forSpace('a').derived.briefing('2026-11-02')).toEqual({
      day: '2026-11-02',
      headline: 'h2',
      body: 'b2',
      createdAt: T0 + 1,
    });
    expect(await store.forSpace('b').derived.briefing('2026-11-02')).toBeUndefined();
  });
});
