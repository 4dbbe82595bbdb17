/** The deterministic lifecycle through real nights (model none, fake clock): every threshold at its boundary. */
import { afterEach, describe, expect, it } from 'vitest';
import { know } from '../src/app/know.js';
import { prefetch } from '../src/app/injection/prefetch.js';
import { listReview, review } from '../src/app/review.js';
import { sleep } from '../src/app/sleep.js';
import { timeline } from '../src/app/timeline.js';
import type { NightResult } from '../src/sleep/night-types.js';
import { tempMemory, T0, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

const DAY = 86_400_000;
const MIN = 60_000;
let tm: TempMemory;
afterEach(async () => tm?.cleanup());

const store = () => appContextOf(tm.memory).store;
const space = () => tm.memory.space;

/** A night with model none at `at` (forced: the lifecycle must run whether episodes wait or not). */
async function nightAt(at: number, force = true): Promise<NightResult> {
  tm.clock.set(at);
  return sleep(appContextOf(tm.memory), { model: 'none', force });
}

async function slept(at: number): Promise<Extract<NightResult, { kind: 'slept' }>> {
  const r = await nightAt(at);
  if (r.kind !== 'slept') throw new Error(r.kind);
  return r;
}

describe('when a space sleeps', () => {
  it('stays awake below 5 eligible episodes until the oldest has waited more than 3 days', async () => {
    tm = await tempMemory();
    await tm.memory.record({ turns: [{ content: 'one' }, { content: 'two' }, { content: 'three' }] });
    expect(await nightAt(T0 + 29 * MIN, false)).toMatchObject({
      kind: 'awake',
      decision: { reason: 'nothing_eligible' },
    });
    expect(await nightAt(T0 + 3 * DAY, false)).toMatchObject({
      kind: 'awake',
      decision: { reason: 'too_few', eligible: 3 },
    });
    const r = await nightAt(T0 + 3 * DAY + 1, false);
    expect(r).toMatchObject({ kind: 'slept', decision: { reason: 'oldest_waited' } });
  });

  it('sleeps at 5 eligible episodes (30 minutes old), and a consumed episode does not wake it again', async () => {
    tm = await tempMemory();
    await tm.memory.record({ turns: [1, 2, 3, 4, 5].map((i) => ({ content: `turn ${i}` })) });
    expect(await nightAt(T0 + 30 * MIN - 1, false)).toMatchObject({
      kind: 'awake',
      decision: { reason: 'nothing_eligible' },
    });
    const r = await nightAt(T0 + 30 * MIN, false);
    expect(r).toMatchObject({ kind: 'slept', decision: { reason: 'enough_episodes', eligible: 5 } });
    if (r.kind === 'slept')
      expect(r.briefing.headline).toBe(
        'While you were away: 0 new, 0 reinforced, 0 forgotten from 5 episodes.',
      );
    expect(await nightAt(T0 + 2 * DAY, false)).toMatchObject({
      kind: 'awake',
      decision: { reason: 'nothing_eligible' },
    });
  });
});

describe('when things happened', () => {
  it('consolidates imported history at once: the wait counts from when each turn was said', async () => {
    tm = await tempMemory();
    const weekAgo = T0 - 7 * DAY;
    await tm.memory.record(
      { turns: [1, 2, 3].map((i) => ({ content: `an old imported turn ${i}`, session: 'old', at: weekAgo + i * MIN })) },
      { durable: true, source: 'import', kind: 'import' },
    );
    // Stored a second ago, said a week ago: three turns that have waited more than 3 days.
    const r = await nightAt(T0 + 1000, false);
    expect(r).toMatchObject({ kind: 'slept', decision: { reason: 'oldest_waited', eligible: 3 } });
    if (r.kind === 'slept') expect(r.log.episodes).toBe(3);
  });
});

describe('knowledge lifecycle', () => {
  it('makes provisional knowledge reliable at 3 occurrences and 7 days, not a millisecond earlier', async () => {
    tm = await tempMemory();
    for (let i = 0; i < 3; i++) await tm.memory.remember({ text: 'CI runs on Node 20', key: 'ci.node' });
    await tm.memory.remember({ text: 'Twice seen only', key: 'twice' });
    await tm.memory.remember({ text: 'Twice seen only', key: 'twice' });
    expect((await store().forSpace(space()).knowledge.getLiveByKey('ci.node'))?.occurrences).toBe(3);
    await slept(T0 + 7 * DAY - 1);
    expect((await store().forSpace(space()).knowledge.getLiveByKey('ci.node'))?.status).toBe('provisional');
    const r = await slept(T0 + 7 * DAY);
    expect((await store().forSpace(space()).knowledge.getLiveByKey('ci.node'))?.status).toBe('reliable');
    expect((await store().forSpace(space()).knowledge.getLiveByKey('twice'))?.status).toBe('provisional');
    expect(r.log.promoted.map((p) => p.content)).toEqual(['CI runs on Node 20']);
    expect(r.briefing.agent.newKnowledge).toContain('now reliable: CI runs on Node 20');
  });

  it('forgets provisional knowledge seen once after 21 days (exactly 21 days is kept), never durable knowledge', async () => {
    tm = await tempMemory();
    await tm.memory.remember({ text: 'A passing remark', durable: false });
    await tm.memory.remember({ text: 'A durable note', durable: true });
    await tm.memory.remember({ text: 'Seen twice', durable: false, key: 'two' });
    await tm.memory.remember({ text: 'Seen twice', durable: false, key: 'two' });
    await slept(T0 + 21 * DAY);
    expect((await store().forSpace(space()).knowledge.get(1))?.status).toBe('provisional');
    const r = await slept(T0 + 21 * DAY + 1);
    expect((await store().forSpace(space()).knowledge.getMany([1, 2, 3])).map((k) => k.status)).toEqual([
      'forgotten',
      'provisional',
      'provisional',
    ]);
    expect(r.briefing.headline).toBe(
      'While you were away: 0 new, 0 reinforced, 1 forgotten from 0 episodes.',
    );
    expect(await know(appContextOf(tm.memory), { query: 'passing remark' })).toEqual([]);
  });

  it('counts use as being seen: a recalled, an injected, an approved entry and an open problem outlive the 21-day rule', async () => {
    tm = await tempMemory();
    await tm.memory.remember({ text: 'Never touched again', durable: false });
    await tm.memory.remember({ text: 'The user prefers tabs over spaces', durable: false });
    await tm.memory.remember({ text: 'Commit messages use the imperative mood', durable: false });
    await tm.memory.remember({ text: 'Why does the nightly export stall?', kind: 'open_problem', durable: false });
    await tm.memory.remember({ text: 'Staging moved to port 6543', durable: false });
    await store().forSpace(space()).knowledge.update(5, { meta: { review: { verdict: 'approve', at: T0 } } }, undefined, T0);
    tm.clock.set(T0 + 10 * DAY);
    // A recall hit and a prefetch injection that reached the agent.
    expect((await tm.memory.recall({ query: 'tabs over spaces', layers: ['knowledge'] })).map((h) => h.id)).toEqual(['k2']);
    expect((await prefetch(appContextOf(tm.memory), { text: 'write the commit message in the imperative mood', session: 's1' })).hits.map((h) => h.id)).toContain('k3');
    await slept(T0 + 40 * DAY);
    expect((await store().forSpace(space()).knowledge.getMany([1, 2, 3, 4, 5])).map((k) => k.status)).toEqual([
      'forgotten',
      'provisional',
      'provisional',
      'provisional',
      'provisional',
    ]);
  });

  it('decays strength with a 30-day half-life at read time and each recall hit reinforces it', async () => {
    tm = await tempMemory();
    await tm.memory.remember({ text: 'The build cache lives on the NAS', importance: 5 });
    const [fresh] = await know(appContextOf(tm.memory), {});
    expect(fresh?.strength).toBe(1);
    tm.clock.set(T0 + 30 * DAY);
    const [halved] = await know(appContextOf(tm.memory), {});
    expect(halved?.strength).toBe(0.5);
    expect((await tm.memory.recall({ query: 'build cache NAS' })).map((h) => h.id)).toContain('k1');
    const k = (await store().forSpace(space()).knowledge.get(1))!;
    expect([k.strength, k.lastReinforcedAt]).toEqual([0.6, T0 + 30 * DAY]);
    tm.clock.set(T0 + 60 * DAY);
    expect((await know(appContextOf(tm.memory), {}))[0]?.strength).toBe(0.3);
  });
});

describe('quarantine and review', () => {
  async function quarantined(
    content: string,
    against: number,
    key: string | null,
    occurrences = 1,
  ): Promise<number> {
    return store().forSpace(space()).knowledge.insert({
      kind: 'fact',
      key: null,
      subject: null,
      content,
      status: 'quarantined',
      occurrences,
      strength: 0.5,
      importance: 3,
      durable: false,
      tags: [],
      evidence: { episodes: [], narratives: [] },
      source: 'sleep',
      validFrom: T0,
      validTo: null,
      createdAt: T0,
      meta: { quarantine: { supersedes: against, key, reason: 'would replace reliable knowledge' } },
      embedPending: false,
      index: { body: content.toLowerCase(), extra: '', raw: content },
    });
  }

  it('lists what needs review; approving replaces the reliable entry (history kept, key taken over), rejecting forgets', async () => {
    tm = await tempMemory();
    await tm.memory.remember({ text: 'The office is in Berlin', key: 'office.city' });
    await tm.memory.remember({ text: 'Standup is at 9:30' });
    await store().forSpace(space()).knowledge.setStatus([1, 2], 'reliable', T0);
    const paris = await quarantined('The office is in Paris', 1, 'office.city');
    const ten = await quarantined('Standup is at 10:00', 2, null, 3);
    expect((await listReview(appContextOf(tm.memory))).map((i) => [i.id, i.against?.id])).toEqual([
      [`k${paris}`, 'k1'],
      [`k${ten}`, 'k2'],
    ]);
    // A person's approval makes the entry reliable at once, whatever its occurrences (DESIGN §6).
    expect(await review(appContextOf(tm.memory), { id: `k${paris}`, verdict: 'approve' })).toEqual({
      kind: 'approved',
      id: `k${paris}`,
      status: 'reliable',
      replaced: 'k1',
    });
    expect(await store().forSpace(space()).knowledge.getLiveByKey('office.city')).toMatchObject({
      id: paris,
      status: 'reliable',
      meta: { review: { verdict: 'approve', at: T0 } },
    });
    expect(await store().forSpace(space()).knowledge.get(1)).toMatchObject({
      status: 'superseded',
      supersededBy: paris,
    });
    tm.clock.set(T0 + 7 * DAY);
    expect(await review(appContextOf(tm.memory), { id: `k${ten}`, verdict: 'approve' })).toMatchObject({
      status: 'reliable',
      replaced: 'k2',
    });
    const standup = await quarantined('Standup moved to the afternoon', ten, null);
    expect(await review(appContextOf(tm.memory), { id: `k${standup}`, verdict: 'reject' })).toEqual({
      kind: 'rejected',
      id: `k${standup}`,
      status: 'forgotten',
    });
    expect((await store().forSpace(space()).knowledge.get(standup))?.status).toBe('forgotten');
    expect((await store().forSpace(space()).knowledge.get(ten))?.status).toBe('reliable');
    expect(await listReview(appContextOf(tm.memory))).toEqual([]);
    await expect(review(appContextOf(tm.memory), { id: `k${standup}`, verdict: 'approve' })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(review(appContextOf(tm.memory), { id: 'k999', verdict: 'approve' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('episode retention and the archive', () => {
  it('archives consolidated episodes 14 days after consolidation; timeline and recall still reach them', async () => {
    tm = await tempMemory();
    await tm.memory.record({
      turns: [1, 2, 3, 4, 5].map((i) => ({ content: `release note ${i}`, session: 's' })),
    });
    await slept(T0 + DAY);
    let r = await slept(T0 + 15 * DAY - 1);
    expect(r.log.counts.archived).toBe(0);
    r = await slept(T0 + 15 * DAY);
    expect(r.log.counts.archived).toBe(5);
    expect((await store().forSpace(space()).episodes.get(1))?.archivedAt).toBe(T0 + 15 * DAY);
    // The archive is a colder tier, not a wall (DESIGN §6): every page of the timeline and every search reads it.
    expect((await timeline(appContextOf(tm.memory), {})).total).toBe(5);
    const old = await timeline(appContextOf(tm.memory), { from: T0 - DAY, order: 'asc' });
    expect(old.items.map((e) => e.content)).toEqual([1, 2, 3, 4, 5].map((i) => `release note ${i}`));
    expect(old.items.every((e) => e.archivedAt !== null)).toBe(true);
    const hits = (await tm.memory.recall({ query: 'release note 3' })).filter((h) => h.layer === 'episode');
    expect(hits[0]?.text).toBe('release note 3');
    expect(hits).toHaveLength(5);
    // Only a caller who asks for the live memory alone leaves the archive out.
    expect(await tm.memory.recall({ query: 'release note', includeArchived: false })).toEqual([]);
  });

  it('ranks an archived turn below a live one that matches as well when recall.archivedWeight asks for it', async () => {
    tm = await tempMemory({ config: { recall: { archivedWeight: 0.5 } } });
    await tm.memory.record({ turns: [{ content: 'the deploy key rotates monthly', session: 'a' }] });
    await slept(T0 + DAY);
    await slept(T0 + 15 * DAY);
    tm.clock.set(T0 + 15 * DAY);
    await tm.memory.record({ turns: [{ content: 'the deploy key rotates monthly now', session: 'b' }] });
    const hits = await tm.memory.recall({ query: 'deploy key rotates', layers: ['episode'] });
    expect(hits.map((h) => h.text)).toEqual(['the deploy key rotates monthly now', 'the deploy key rotates monthly']);
    expect(hits[1]!.score).toBeLessThan(hits[0]!.score);
  });

  it('caps a timeline request reaching into the archive at 62 days, with an error that says how to split it', async () => {
    tm = await tempMemory();
    tm.clock.set(T0 + 100 * DAY);
    await expect(timeline(appContextOf(tm.memory), { from: T0, to: T0 + 62 * DAY })).resolves.toMatchObject({
      total: 0,
    });
    await expect(timeline(appContextOf(tm.memory), { from: T0, to: T0 + 62 * DAY + 1 })).rejects.toMatchObject({
      code: 'invalid_input',
      field: 'to',
      message: expect.stringMatching(
        /at most 62 days, this one spans 63; ask for it in parts, e\.g\. from 2026-11-01 to 2027-01-02/,
      ),
    });
    // A range within the last 14 days never reads the archive, so it may be longer than 62 days back to its end.
    await expect(timeline(appContextOf(tm.memory), { from: T0 + 90 * DAY })).resolves.toMatchObject({ total: 0 });
  });

  it('moves non-durable episodes out of the live memory after 30 days; durable ones stay', async () => {
    tm = await tempMemory();
    await tm.memory.record({ turns: [{ content: 'a passing chat', session: 's' }] });
    await tm.memory.record(
      { turns: [{ content: 'an imported conversation', session: 'i' }] },
      { durable: true, source: 'import' },
    );
    const r = await slept(T0 + 30 * DAY);
    expect(r.log.episodes).toBe(2);
    expect(r.log.counts.dropped).toBe(1);
    expect((await store().forSpace(space()).episodes.getMany([1, 2])).map((e) => e.archivedAt)).toEqual([
      T0 + 30 * DAY,
      null,
    ]);
    // It left the live memory for the archive: timeline still shows it, marked archived.
    expect((await timeline(appContextOf(tm.memory), { order: 'asc' })).items.map((e) => [e.content, e.archivedAt])).toEqual([
      ['a passing chat', T0 + 30 * DAY],
      ['an imported conversation', null],
    ]);
  });
});
