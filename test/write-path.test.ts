/** The write path end to end on a real SQLite file: remember, record, memory_write, identity writes. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSelf } from '../src/app/read-derived.js';
import { isTidepoolError } from '../src/core/errors.js';
import { SELF_IMAGE_PREFIX } from '../src/core/types.js';
import { computeWeight } from '../src/script/weight-policy.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

let t: TempMemory;
beforeEach(async () => {
  t = await tempMemory({ config: { knownPersons: ['Ana', 'self'] } });
});
afterEach(async () => t.cleanup());

describe('remember', () => {
  it('stores a durable provisional knowledge entry with its source episode', async () => {
    const r = await t.memory.remember({ text: 'The staging database listens on port 6543', tags: ['infra'] });
    expect(r.kind).toBe('created');
    const k = await appContextOf(t.memory).store.forSpace('default').knowledge.get(Number(r.id.slice(1)));
    expect(k).toMatchObject({ status: 'provisional', durable: true, kind: 'fact', tags: ['infra'], occurrences: 1 });
    expect(k!.evidence.episodes).toHaveLength(1);
  });

  it('a key supersedes the previous value and keeps it as history, never stacked beside it', async () => {
    const a = await t.memory.remember({ text: 'deploys go out on Tuesdays', key: 'deploy.day' });
    t.clock.advance(1000);
    const b = await t.memory.remember({ text: 'deploys go out on Thursdays', key: 'deploy.day' });
    expect(b).toMatchObject({ kind: 'superseded', supersedes: a.id });
    const store = appContextOf(t.memory).store;
    const old = await store.forSpace('default').knowledge.get(Number(a.id.slice(1)));
    expect(old).toMatchObject({ status: 'superseded', supersededBy: Number(b.id.slice(1)), validTo: t.clock.now() });
    const live = await store.forSpace('default').knowledge.getLiveByKey('deploy.day');
    expect(live?.content).toBe('deploys go out on Thursdays');
    const hits = await t.memory.recall({ query: 'deploys go out' });
    expect(hits.map((h) => h.text)).toEqual(['deploys go out on Thursdays']);
  });

  it('the same value under the same key is one more occurrence', async () => {
    await t.memory.remember({ text: 'prefers tabs', key: 'style.indent' });
    const r = await t.memory.remember({ text: 'prefers tabs', key: 'style.indent' });
    expect(r).toMatchObject({ kind: 'reinforced', occurrences: 2 });
  });

  it('refuses credentials with an error naming the kind, and stores nothing', async () => {
    const err = await t.memory.remember({ text: 'use sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd for the api' }).catch((e: unknown) => e);
    expect(isTidepoolError(err, 'secret_refused')).toBe(true);
    expect((err as Error).message).toMatch(/OpenAI API key/);
    expect(await appContextOf(t.memory).store.forSpace('default').episodes.count()).toBe(0);
    const err2 = await t.memory.remember({ text: 'db url postgres://app:s3cr3tPassw0rd@db.internal:5432/main' }).catch((e: unknown) => e);
    expect(isTidepoolError(err2, 'secret_refused')).toBe(true);
  });
});

describe('record', () => {
  it('records a batch in one transaction with sessions, tools and times', async () => {
    const r = await t.memory.record({
      turns: [
        { role: 'user', content: 'run the tests', session: 's1', at: '2026-10-30T10:00:00Z' },
        { role: 'tool', content: 'vitest: 42 passed', session: 's1', tool: 'bash', ok: true, at: '2026-10-30T10:00:05Z' },
        { role: 'assistant', content: 'all green', session: 's1', at: '2026-10-30T10:00:09Z' },
      ],
    });
    expect(r.ids).toEqual(['e1', 'e2', 'e3']);
    const page = await t.memory.timeline({ order: 'asc' });
    expect(page.items.map((e) => [e.kind, e.tool, e.ok, e.durable])).toEqual([
      ['turn', null, null, false],
      ['tool_result', 'bash', true, false],
      ['turn', null, null, false],
    ]);
    expect(page.items[0]!.occurredAt).toBe(Date.parse('2026-10-30T10:00:00Z'));
  });

  it('a batch with one bad turn stores nothing and names the field', async () => {
    const err = await t.memory
      .record({ turns: [{ role: 'user', content: 'fine' }, { role: 'user', content: '' }] })
      .catch((e: unknown) => e);
    expect(isTidepoolError(err, 'invalid_input')).toBe(true);
    expect((err as Error).message).toMatch(/^turns\.1\.content/);
    expect(await appContextOf(t.memory).store.forSpace('default').episodes.count()).toBe(0);
  });

  it('redacts credentials from captured text with a placeholder naming the kind', async () => {
    const r = await t.memory.record({ content: 'export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789' });
    expect(r.redacted).toBe(1);
    const [e] = (await t.memory.timeline()).items;
    expect(e!.content).toContain('[secret:github_token]');
    expect(e!.content).not.toContain('ghp_abcdef');
  });

  it('turns with a ref are recorded once however often they are replayed', async () => {
    const turn = { role: 'user' as const, content: 'hello', ref: 'transcript:1:uuid-1' };
    await t.memory.record({ turns: [turn] });
    const again = await t.memory.record({ turns: [turn, { ...turn, ref: 'transcript:1:uuid-2' }] });
    expect(again).toMatchObject({ skipped: 1 });
    expect(await appContextOf(t.memory).store.forSpace('default').episodes.count()).toBe(2);
  });
});

describe('memory_write', () => {
  it('computes the weight on a true 0..1 range from the four scores', async () => {
    const low = await t.memory.write({ gesture: 'a quiet day', importance: 1, emotional: 1, unresolved: 1 });
    // no tags: recurrence is the neutral 3 (SEEDS §1.5.2)
    expect(low.weight).toBe(computeWeight({ importance: 1, emotional: 1, recurrence: 3, unresolved: 1 }));
    expect(computeWeight({ importance: 1, emotional: 1, recurrence: 1, unresolved: 1 })).toBe(0);
    expect(computeWeight({ importance: 5, emotional: 5, recurrence: 5, unresolved: 5 })).toBe(1);
  });

  it('joins the fields into content and derives recurrence from tag frequency (Chinese tags match)', async () => {
    const first = await t.memory.write({ gesture: '我调通了同步', context: '凌晨', tags: ['调试', '同步'] });
    expect(first.recurrence).toBe(1);
    const n = await appContextOf(t.memory).store.forSpace('default').narratives.get(1);
    expect(n?.content).toBe('我调通了同步 | 凌晨');
    await t.memory.write({ gesture: '又一次调试', tags: ['调试'] });
    const third = await t.memory.write({ gesture: '第三次调试', tags: ['调试'] });
    expect(third.recurrence).toBe(2); // 2 others share 调试 → 1-2 → 2
    const before = await appContextOf(t.memory).store.forSpace('default').narratives.get(1);
    expect(before?.recurrence).toBe(2); // propagated to the older sibling
  });

  it('sets related_entities from tags that name known persons', async () => {
    const r = await t.memory.write({ gesture: 'Ana reviewed my patch', tags: ['Ana', 'review'] });
    expect(r.relatedEntities).toEqual(['Ana']);
  });

  it("rescales the newest weights to Tideline's 0.6 (0.5 here) when their average exceeds its 0.7 (anti-inflation)", async () => {
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      await t.memory.write({ gesture: `big moment ${i}`, importance: 5, emotional: 5, unresolved: 5 });
    }
    const w = await appContextOf(t.memory).store.forSpace('default').narratives.newestWeights(20);
    const avg = w.reduce((a, b) => a + b.weight, 0) / w.length;
    expect(avg).toBeCloseTo(0.5, 2);
  });

  it('refuses an empty gesture, an out-of-range score and a wrong type, naming the field', async () => {
    await expect(t.memory.write({ gesture: '  ' })).rejects.toThrow(/gesture/);
    await expect(t.memory.write({ gesture: 'x', importance: 9 })).rejects.toThrow(/^importance/);
    await expect(t.memory.write({ gesture: 'x', tags: 'a,b' as unknown as string[] })).rejects.toThrow(/^tags/);
  });
});

describe('identity', () => {
  it('keeps profile history and refuses blanking', async () => {
    await t.memory.writeProfile({ entity: 'Ana', profile_type: 'impression', content: 'terse' });
    t.clock.advance(1000);
    const r = await t.memory.writeProfile({ entity: 'Ana', profile_type: 'impression', content: 'terse but kind' });
    expect(r.replaced).toBe(true);
    expect((await t.memory.profiles('Ana'))[0]!.content).toBe('terse but kind');
    const hist = await appContextOf(t.memory).store.forSpace('default').identity.profileHistory('Ana', 'impression');
    expect(hist.map((h) => h.content)).toEqual(['terse']);
    await expect(t.memory.writeProfile({ entity: 'Ana', content: '' })).rejects.toThrow(/content/);
  });

  it("reads back Tideline's self-concept fields only, not the night's self-image parts that share the table", async () => {
    await t.memory.writeSelfConcept({ field: 'fact', content: 'I am the build agent' });
    // The self-image step of the sleep stores its parts under `self_image.*` (sleep/phases/self-image-phase).
    await appContextOf(t.memory).store.forSpace('default').identity.upsertSelfConcept(`${SELF_IMAGE_PREFIX}works_on` as never, 'the sync engine', t.clock.now());
    expect((await t.memory.selfConcept()).map((c) => c.field)).toEqual(['fact']);
    const self = await readSelf(appContextOf(t.memory));
    expect(self.concept.map((c) => c.field)).toEqual(['fact']);
    expect(self.image).toEqual({ works_on: 'the sync engine' });
  });

  it('self-concept, snapshots and threads with weights and status', async () => {
    await t.memory.writeSelfConcept({ field: 'terrain', content: 'sync engines' });
    await t.memory.writeSnapshot({ content: 'focused' });
    const th = await t.memory.writeThread({ content: 'why does the sync stall?', importance: 5, unresolved: 5 });
    await t.memory.writeThread({ content: 'minor idea', importance: 1 });
    expect((await t.memory.selfConcept())[0]).toMatchObject({ field: 'terrain', content: 'sync engines' });
    expect((await t.memory.snapshots(1))[0]!.content).toBe('focused');
    const open = await t.memory.threads('open', 5);
    expect(open[0]!.id).toBe(th.id);
    await t.memory.writeThread({ thread_id: th.id, status: 'explored' });
    expect((await t.memory.threads('explored', 5))[0]).toMatchObject({ id: th.id, exploredAt: t.clock.now() });
    await expect(t.memory.writeThread({ thread_id: 999, status: 'open' })).rejects.toThrow(/thread 999/);
  });
});
