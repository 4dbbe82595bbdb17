/** The Store contract: one behavioural suite that every engine (SQLite, PGlite, PostgreSQL) must pass. */
// Past 400 lines on purpose (STYLE §4): one suite, one `describe` per store area, run unchanged against each engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { segmentForIndex } from '../script/segment-text.js';
import type { IndexText, NewEpisode, NewKnowledge, NewNarrative, Store } from './port.js';

const T0 = 1_700_000_000_000;
const DAY = 86_400_000;

/** Index text as the app builds it: jieba-segmented body, raw text for substrings. */
function idx(raw: string, extra = ''): IndexText {
  return { body: segmentForIndex(raw), extra: segmentForIndex(extra), raw };
}

function ep(o: Partial<NewEpisode> & { content: string }): NewEpisode {
  const { index, ...rest } = o;
  return {
    kind: 'turn', role: 'user', speaker: null, session: null, tool: null, ok: null, source: 'test', ref: null,
    meta: {}, durable: false, occurredAt: T0, createdAt: T0, embedPending: false, ...rest,
    index: index ?? idx(o.content, o.speaker ?? ''),
  };
}

function nar(o: Partial<NewNarrative> & { content: string }): NewNarrative {
  const { index, ...rest } = o;
  const tags = o.tags ?? [];
  return {
    kind: 'narrative', ntype: 'general', gesture: null, context: null, moment: null, cognitionDirection: null, tags,
    entitiesRole: null, relatedEntities: [], sourceLinks: [], importance: 3, emotional: 3, recurrence: 1,
    unresolved: 1, weight: 0.5, createdAt: T0, embedPending: false, ...rest,
    index: index ?? idx(o.content, tags.join(' ')),
  };
}

function kn(o: Partial<NewKnowledge> & { content: string }): NewKnowledge {
  const { index, ...rest } = o;
  const tags = o.tags ?? [];
  return {
    kind: 'fact', key: null, subject: null, status: 'provisional', occurrences: 1, strength: 0.5, importance: 3,
    durable: true, tags, evidence: { episodes: [], narratives: [] }, source: 'test', validFrom: null, validTo: null,
    createdAt: T0, meta: {}, embedPending: false, ...rest,
    index: index ?? idx(o.content, tags.join(' ')),
  };
}

function vec(...xs: number[]): Float32Array {
  return new Float32Array(xs);
}

const LEX = { limit: 20 };

async function dumpAll(store: Store, space: string): Promise<Record<string, Array<Record<string, unknown>>>> {
  const out: Record<string, Array<Record<string, unknown>>> = {};
  for (const t of store.rows.tables()) {
    const rows: Array<Record<string, unknown>> = [];
    for await (const r of store.rows.dump(space, t)) rows.push(r);
    if (rows.length > 0) out[t] = rows;
  }
  return out;
}

/**
 * Registers the contract for one engine. `makeStore` is called once for the suite (engines such as PGlite take
 * seconds to start); every test works in spaces of its own, so tests never see each other's rows.
 */
export function runStoreContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    let seq = 0;
    const run = Math.random().toString(36).slice(2, 8);
    const newSpace = (tag: string) => `${tag}-${run}-${++seq}`;

    // PGlite compiles and boots PostgreSQL in WebAssembly: tens of seconds on a busy machine.
    beforeAll(async () => {
      store = await makeStore();
    }, 180_000);
    afterAll(async () => {
      await store?.close();
    });

    describe('episodes', () => {
      it("reads the newest turns of many sessions at once, oldest first, leaving out sessions without any", async () => {
        const s = newSpace('last');
        await store.forSpace(s).episodes.insertMany([
          // Written out of time order, and a session name with a quote and Chinese.
          ep({ content: 'c3', session: "c'会话", occurredAt: T0 + 3 }),
          ep({ content: 'a1', session: 'a', occurredAt: T0 + 1 }),
          ep({ content: 'b1', session: 'b', occurredAt: T0 + 1 }),
          ep({ content: 'c1', session: "c'会话", occurredAt: T0 + 1 }),
          ep({ content: 'c4', session: "c'会话", occurredAt: T0 + 4 }),
          ep({ content: 'a2', session: 'a', occurredAt: T0 + 2 }),
          ep({ content: 'a3', session: 'a', occurredAt: T0 + 3 }),
          ep({ content: 'a3 again', session: 'a', occurredAt: T0 + 3 }),
        ]);
        const last = await store.forSpace(s).episodes.lastInSessions(['a', 'b', 'none', 'a', "c'会话"], 2);
        expect(Object.fromEntries(last)).toEqual({ a: ['a3', 'a3 again'], b: ['b1'], "c'会话": ['c3', 'c4'] });
        expect(await store.forSpace(s).episodes.lastInSessions([], 2)).toEqual(new Map());
      });

      it('stores every field and reads it back by id', async () => {
        const s = newSpace('ep');
        const { ids, skipped } = await store.forSpace(s).episodes.insertMany([
          ep({ content: 'first turn', speaker: 'Ana', session: 's1', ok: true, meta: { a: 1, zh: '中文' }, durable: true }),
          ep({ content: 'tool result', kind: 'tool_result', tool: 'grep', ok: false, role: null, consolidatedAt: T0 + 5 }),
        ]);
        expect(skipped).toBe(0);
        expect(ids).toHaveLength(2);
        expect(ids[1]!).toBeGreaterThan(ids[0]!);
        const a = await store.forSpace(s).episodes.get(ids[0]!);
        expect(a).toMatchObject({
          id: ids[0], space: s, kind: 'turn', role: 'user', speaker: 'Ana', content: 'first turn', session: 's1',
          tool: null, ok: true, source: 'test', ref: null, meta: { a: 1, zh: '中文' }, durable: true, occurredAt: T0,
          createdAt: T0, consolidatedAt: null, archivedAt: null,
        });
        const b = await store.forSpace(s).episodes.get(ids[1]!);
        expect(b).toMatchObject({ kind: 'tool_result', tool: 'grep', ok: false, role: null, consolidatedAt: T0 + 5, durable: false });
        expect((await store.forSpace(s).episodes.getMany(ids)).map((e) => e.id).sort((x, y) => x - y)).toEqual(ids);
        const slim = (await store.forSpace(s).episodes.getForRecall(ids)).sort((x, y) => x.id - y.id);
        expect(slim).toEqual(
          [a!, b!].map((e) => ({
            id: e.id, kind: e.kind, role: e.role, speaker: e.speaker, content: e.content, session: e.session,
            occurredAt: e.occurredAt, archivedAt: e.archivedAt,
          })),
        );
        expect(await store.forSpace(newSpace('other')).episodes.getForRecall(ids)).toEqual([]);
        expect(await store.forSpace(s).episodes.count()).toBe(2);
      });

      it('inserts a large mixed batch in order, skipping stored and repeated refs, and indexes only what it kept', async () => {
        const s = newSpace('batch');
        await store.forSpace(s).episodes.insertMany([ep({ content: 'stored before', ref: 'r:7' })]);
        // 450 rows span three INSERT chunks; every 7th carries ref r:7 (stored: skipped), every 11th repeats r:dup.
        const rows = Array.from({ length: 450 }, (_, i) =>
          ep({ content: `batch row ${i} marker${i}`, ref: i % 7 === 0 ? 'r:7' : i % 11 === 0 ? 'r:dup' : i % 2 === 0 ? `r:${i}` : null }),
        );
        const kept = rows.filter((r, i) => r.ref !== 'r:7' && !(r.ref === 'r:dup' && i !== rows.findIndex((x) => x.ref === 'r:dup')));
        const { ids, skipped } = await store.forSpace(s).episodes.insertMany(rows);
        expect(skipped).toBe(rows.length - kept.length);
        expect(ids).toHaveLength(kept.length);
        expect([...ids].sort((a, b) => a - b)).toEqual(ids);
        const got = await store.forSpace(s).episodes.getMany(ids);
        const byId = new Map(got.map((e) => [e.id, e.content]));
        expect(ids.map((id) => byId.get(id))).toEqual(kept.map((r) => r.content));
        const hit = await store.forSpace(s).search.lexical('episode', ['marker12'], { limit: 5 });
        expect(hit.map((h) => h.id)).toEqual([ids[kept.findIndex((r) => r.content.endsWith('marker12'))]]);
        expect(await store.forSpace(s).search.lexical('episode', ['marker14'], { limit: 5 })).toEqual([]);
        // Each kept row's entry is its own, with a ref or without (PostgreSQL places those by order): every ninth.
        for (let k = 0; k < kept.length; k += 9) {
          const mark = kept[k]!.content.split(' ').at(-1)!;
          expect((await store.forSpace(s).search.lexical('episode', [mark], { limit: 5 })).map((h) => h.id), mark).toEqual([ids[k]]);
        }
      });

      it('reads rows from a generator as it inserts them, and a failure while building them leaves nothing behind', async () => {
        const s = newSpace('gen');
        // 600 rows: three PostgreSQL parts, the generator's later rows built while earlier ones are written.
        function* rows(failAt?: number): Generator<NewEpisode> {
          for (let i = 0; i < 600; i++) {
            if (i === failAt) throw new Error(`row ${i} could not be built`);
            yield ep({ content: `generated row ${i} genmark${i}`, ref: `gen:${failAt ?? 'ok'}:${i}` });
          }
        }
        const { ids } = await store.forSpace(s).episodes.insertMany(rows());
        expect(ids).toHaveLength(600);
        expect((await store.forSpace(s).search.lexical('episode', ['genmark599'], LEX)).map((h) => h.id)).toEqual([ids[599]]);
        await expect(store.transaction((tx) => tx.forSpace(s).episodes.insertMany(rows(520)))).rejects.toThrow('row 520 could not be built');
        expect(await store.forSpace(s).episodes.count()).toBe(600);
        expect((await store.forSpace(s).search.lexical('episode', ['genmark5'], LEX)).map((h) => h.id)).toEqual([ids[5]]);
        expect((await store.forSpace(s).search.lexical('episode', ['generated'], { limit: 1000 })).length).toBe(600);
      });

      it('skips a ref already stored in the space but not one stored in another space', async () => {
        const s = newSpace('ref');
        const other = newSpace('ref');
        const first = await store.forSpace(s).episodes.insertMany([ep({ content: 'x', ref: 'import:1' })]);
        const again = await store.forSpace(s).episodes.insertMany([ep({ content: 'x', ref: 'import:1' }), ep({ content: 'y', ref: 'import:2' })]);
        expect(first.ids).toHaveLength(1);
        expect(again.skipped).toBe(1);
        expect(again.ids).toHaveLength(1);
        expect((await store.forSpace(other).episodes.insertMany([ep({ content: 'x', ref: 'import:1' })])).ids).toHaveLength(1);
      });

      it('pages the timeline by time in both directions with filters and a total', async () => {
        const s = newSpace('tl');
        const rows = Array.from({ length: 5 }, (_, i) => ep({ content: `t${i}`, occurredAt: T0 + i * 1000, session: i % 2 ? 'odd' : 'even' }));
        await store.forSpace(s).episodes.insertMany(rows);
        const desc = await store.forSpace(s).episodes.timeline({ limit: 2, offset: 0, order: 'desc', includeArchived: false });
        expect(desc.items.map((e) => e.content)).toEqual(['t4', 't3']);
        expect(desc.total).toBe(5);
        const asc = await store.forSpace(s).episodes.timeline({ limit: 10, offset: 1, order: 'asc', includeArchived: false, from: T0 + 1000, to: T0 + 3000 });
        expect(asc.items.map((e) => e.content)).toEqual(['t2', 't3']);
        expect(asc.total).toBe(3);
        const odd = await store.forSpace(s).episodes.timeline({ limit: 10, offset: 0, order: 'asc', includeArchived: false, session: 'odd' });
        expect(odd.items.map((e) => e.content)).toEqual(['t1', 't3']);
      });

      it('names the turns that open each session, by time', async () => {
        const s = newSpace('open');
        const { ids } = await store.forSpace(s).episodes.insertMany([
          ep({ content: 'b second', session: 'b', occurredAt: T0 + 20 }),
          ep({ content: 'a first', session: 'a', occurredAt: T0 + 1 }),
          ep({ content: 'b first', session: 'b', occurredAt: T0 + 10 }),
          ep({ content: 'a second', session: 'a', occurredAt: T0 + 2 }),
          ep({ content: 'a third', session: 'a', occurredAt: T0 + 3 }),
        ]);
        const got = await store.forSpace(s).episodes.openingTurns(['a', 'b', 'a'], 2);
        expect(got.sort((x, y) => x - y)).toEqual([ids[0]!, ids[1]!, ids[2]!, ids[3]!].sort((x, y) => x - y));
        expect(await store.forSpace(newSpace('none')).episodes.openingTurns(['a'], 2)).toEqual([]);
        // Many sessions at once (more than one statement's share), names with quotes and Chinese, one never recorded.
        const names = Array.from({ length: 130 }, (_, i) => (i % 3 === 0 ? `o'"${i}` : i % 3 === 1 ? `会话${i}` : `s${i}`));
        const many = await store.forSpace(s).episodes.insertMany(
          names.flatMap((session, i) => [ep({ content: `${i} later`, session, occurredAt: T0 + 200 + i }), ep({ content: `${i} first`, session, occurredAt: T0 + 100 + i })]),
        );
        const opening = await store.forSpace(s).episodes.openingTurns([...names, 'never'], 1);
        expect(opening.sort((x, y) => x - y)).toEqual(many.ids.filter((_, i) => i % 2 === 1).sort((x, y) => x - y));
      });

      it('returns the neighbours of a turn within its session', async () => {
        const s = newSpace('nb');
        const { ids } = await store.forSpace(s).episodes.insertMany(
          Array.from({ length: 6 }, (_, i) => ep({ content: `n${i}`, occurredAt: T0 + i, session: i === 5 ? 'other' : 's' })),
        );
        const around = await store.forSpace(s).episodes.neighbours(ids[2]!, 1);
        expect(around.map((e) => e.content)).toEqual(['n1', 'n2', 'n3']);
        expect((await store.forSpace(s).episodes.neighbours(ids[4]!, 3)).map((e) => e.content)).toEqual(['n1', 'n2', 'n3', 'n4']);
      });

      it('deletes episodes with their index entries and vectors', async () => {
        const s = newSpace('epdel');
        const { ids } = await store.forSpace(s).episodes.insertMany([ep({ content: 'zebra crossing' }), ep({ content: 'zebra stripes' })]);
        await store.forSpace(s).vectors.put('episode', ids[0]!, 'm', vec(1, 0), T0);
        expect(await store.forSpace(s).episodes.delete([ids[0]!])).toBe(1);
        expect(await store.forSpace(s).episodes.get(ids[0]!)).toBeUndefined();
        expect((await store.forSpace(s).search.lexical('episode', ['zebra'], LEX)).map((h) => h.id)).toEqual([ids[1]]);
        expect((await store.forSpace(s).search.substring('episode', 'zebra', LEX)).map((h) => h.id)).toEqual([ids[1]]);
        expect(await store.forSpace(s).vectors.count()).toBe(0);
        expect(await store.forSpace(s).episodes.count()).toBe(1);
      });
    });

    describe('narratives', () => {
      it('stores structured fields, Chinese tags and source links as written', async () => {
        const s = newSpace('nar');
        const id = await store.forSpace(s).narratives.insert(nar({
          content: '修好了同步 | fixed the sync', gesture: '修好了同步', context: 'late night', tags: ['同步', 'sync'],
          entitiesRole: 'A=判断+执行; B=审查', relatedEntities: ['Ana'], sourceLinks: [3, 4], weight: 0.625, importance: 4,
        }));
        const n = await store.forSpace(s).narratives.get(id);
        expect(n).toMatchObject({
          id, space: s, kind: 'narrative', ntype: 'general', gesture: '修好了同步', context: 'late night', tags: ['同步', 'sync'],
          entitiesRole: 'A=判断+执行; B=审查', relatedEntities: ['Ana'], sourceLinks: [3, 4], weight: 0.625, importance: 4,
          createdAt: T0, updatedAt: T0,
        });
        expect(await store.forSpace(s).narratives.count()).toBe(1);
      });

      it('counts tags exactly, Chinese included, and finds narratives sharing them', async () => {
        const s = newSpace('tags');
        const a = await store.forSpace(s).narratives.insert(nar({ content: 'a', tags: ['咖啡', '工作'] }));
        const b = await store.forSpace(s).narratives.insert(nar({ content: 'b', tags: ['咖啡', '咖啡'] }));
        await store.forSpace(s).narratives.insert(nar({ content: 'c', tags: ['咖啡豆'] }));
        const counts = await store.forSpace(s).narratives.tagCounts();
        expect(Object.fromEntries(counts)).toEqual({ 咖啡: 2, 工作: 1, 咖啡豆: 1 });
        expect(Object.fromEntries(await store.forSpace(s).narratives.tagCounts(['工作']))).toEqual({ 工作: 1 });
        expect(await store.forSpace(s).narratives.countSharingTags(['咖啡'], a)).toBe(1);
        expect(await store.forSpace(s).narratives.countSharingTags(['咖啡', '工作'])).toBe(2);
        const shared = await store.forSpace(s).narratives.withAnyTag(['工作', '咖啡']);
        expect(shared.map((r) => r.id).sort((x, y) => x - y)).toEqual([a, b]);
      });

      it('lists newest first with filters and updates weights and scores', async () => {
        const s = newSpace('nlist');
        const a = await store.forSpace(s).narratives.insert(nar({ content: 'old', createdAt: T0, weight: 0.9, tags: ['x'] }));
        const b = await store.forSpace(s).narratives.insert(nar({ content: 'new', createdAt: T0 + DAY, weight: 0.3, kind: 'dream' }));
        expect((await store.forSpace(s).narratives.list({ limit: 10 })).map((n) => n.id)).toEqual([b, a]);
        expect((await store.forSpace(s).narratives.list({ limit: 10, minWeight: 0.5 })).map((n) => n.id)).toEqual([a]);
        expect((await store.forSpace(s).narratives.list({ limit: 10, tags: ['x'] })).map((n) => n.id)).toEqual([a]);
        expect((await store.forSpace(s).narratives.list({ limit: 10, kind: 'dream' })).map((n) => n.id)).toEqual([b]);
        expect((await store.forSpace(s).narratives.list({ limit: 10, since: T0 + 1 })).map((n) => n.id)).toEqual([b]);
        expect((await store.forSpace(s).narratives.list({ limit: 1, offset: 1 })).map((n) => n.id)).toEqual([a]);
        expect(await store.forSpace(s).narratives.newestWeights(5)).toEqual([{ id: b, weight: 0.3 }, { id: a, weight: 0.9 }]);
        // The one writer of weight and scores: a field left out keeps its value, and only `at` moves updated_at.
        expect(await store.forSpace(s).narratives.writeScores([{ id: a, weight: 0.6 }])).toBe(1);
        expect(await store.forSpace(s).narratives.writeScores([{ id: b, recurrence: 4, weight: 0.7 }])).toBe(1);
        expect(await store.forSpace(s).narratives.get(a)).toMatchObject({ weight: 0.6, recurrence: 1, importance: 3, updatedAt: T0 });
        expect(await store.forSpace(s).narratives.get(b)).toMatchObject({ recurrence: 4, weight: 0.7, updatedAt: T0 + DAY });
        expect(
          await store.forSpace(s).narratives.writeScores(
            [{ id: a, importance: 5, emotional: 1, recurrence: 2, unresolved: 4, weight: 0.75 }, { id: b, recurrence: 2 }],
            T0 + 2 * DAY,
          ),
        ).toBe(2);
        expect(await store.forSpace(s).narratives.get(a)).toMatchObject({
          importance: 5, emotional: 1, recurrence: 2, unresolved: 4, weight: 0.75, updatedAt: T0 + 2 * DAY,
        });
        expect(await store.forSpace(s).narratives.get(b)).toMatchObject({ recurrence: 2, weight: 0.7, updatedAt: T0 + 2 * DAY });
        expect(await store.forSpace(s).narratives.delete([a])).toBe(1);
        expect(Object.fromEntries(await store.forSpace(s).narratives.tagCounts())).toEqual({});
      });
    });

    describe('knowledge', () => {
      it('allows one live entry per key and frees the key when it is superseded', async () => {
        const s = newSpace('key');
        const old = await store.forSpace(s).knowledge.insert(kn({ content: 'port 5432', key: 'db.port' }));
        await expect(store.forSpace(s).knowledge.insert(kn({ content: 'port 6543', key: 'db.port' }))).rejects.toThrow();
        expect((await store.forSpace(s).knowledge.getLiveByKey('db.port'))?.id).toBe(old);
        await store.forSpace(s).knowledge.setStatus([old], 'superseded', T0 + 1);
        const neu = await store.forSpace(s).knowledge.insert(kn({ content: 'port 6543', key: 'db.port', createdAt: T0 + 1 }));
        await store.forSpace(s).knowledge.supersede(old, neu, T0 + 2);
        expect(await store.forSpace(s).knowledge.get(old)).toMatchObject({ status: 'superseded', supersededBy: neu, validTo: T0 + 2, updatedAt: T0 + 2 });
        expect((await store.forSpace(s).knowledge.getLiveByKey('db.port'))?.content).toBe('port 6543');
      });

      it('lists live entries and keys by key prefix, case-sensitively, without superseded versions', async () => {
        const s = newSpace('kprefix');
        const old = await store.forSpace(s).knowledge.insert(kn({ content: 'v1', key: 'lg:users/u1/a' }));
        await store.forSpace(s).knowledge.setStatus([old], 'superseded', T0 + 1);
        await store.forSpace(s).knowledge.insert(kn({ content: 'v2', key: 'lg:users/u1/a', createdAt: T0 + 1 }));
        await store.forSpace(s).knowledge.insert(kn({ content: 'b', key: 'lg:users/u1/b', createdAt: T0 + 2 }));
        await store.forSpace(s).knowledge.insert(kn({ content: 'c', key: 'lg:users/u10/c' }));
        await store.forSpace(s).knowledge.insert(kn({ content: 'd', key: 'LG:users/u1/d' }));
        await store.forSpace(s).knowledge.insert(kn({ content: 'no key' }));
        expect((await store.forSpace(s).knowledge.listLiveByKeyPrefix('lg:users/u1/', { limit: 10 })).map((k) => k.content)).toEqual(['b', 'v2']);
        expect((await store.forSpace(s).knowledge.listLiveByKeyPrefix('lg:users/u1/', { limit: 1, offset: 1 })).map((k) => k.content)).toEqual(['v2']);
        expect(await store.forSpace(s).knowledge.liveKeysWithPrefix('lg:')).toEqual(['lg:users/u1/a', 'lg:users/u1/b', 'lg:users/u10/c']);
        expect(await store.forSpace(newSpace('kprefix-other')).knowledge.liveKeysWithPrefix('lg:')).toEqual([]);
      });

      it('reinforces strength up to 1 and stamps the time', async () => {
        const s = newSpace('reinf');
        const a = await store.forSpace(s).knowledge.insert(kn({ content: 'a', strength: 0.9 }));
        const b = await store.forSpace(s).knowledge.insert(kn({ content: 'b', strength: 0.25 }));
        await store.forSpace(s).knowledge.reinforce([{ ids: [a, b], step: 0.25, at: T0 + 10 }]);
        expect(await store.forSpace(s).knowledge.get(a)).toMatchObject({ strength: 1, lastReinforcedAt: T0 + 10 });
        expect((await store.forSpace(s).knowledge.get(b))?.strength).toBeCloseTo(0.5, 12);
      });

      it('applies several reinforcements of one call in order, as calls one after another would', async () => {
        const s = newSpace('reinf-many');
        const a = await store.forSpace(s).knowledge.insert(kn({ content: 'a', strength: 0.4 }));
        const b = await store.forSpace(s).knowledge.insert(kn({ content: 'b', strength: 0.4 }));
        const c = await store.forSpace(s).knowledge.insert(kn({ content: 'c', strength: 0.4 }));
        const day = 86_400_000;
        // An entry named twice by one reinforcement gains its step once; c is named by the second only.
        await store.forSpace(s).knowledge.reinforce([
          { ids: [a], step: 0.1, at: T0 + 30 * day },
          { ids: [c, a, a], step: 0.2, at: T0 + 90 * day },
        ]);
        await store.forSpace(s).knowledge.reinforce([{ ids: [b], step: 0.1, at: T0 + 30 * day }]);
        await store.forSpace(s).knowledge.reinforce([{ ids: [b], step: 0.2, at: T0 + 90 * day }]);
        const [ka, kb, kc] = [await store.forSpace(s).knowledge.get(a), await store.forSpace(s).knowledge.get(b), await store.forSpace(s).knowledge.get(c)];
        expect(ka).toMatchObject({ strength: kb!.strength, lastReinforcedAt: T0 + 90 * day });
        expect(kc?.lastReinforcedAt).toBe(T0 + 90 * day);
        // Decayed between the two: neither the sum of the steps nor the last step alone.
        expect(ka!.strength).not.toBeCloseTo(kc!.strength + 0.1, 6);
        expect(ka!.strength).toBeGreaterThan(kc!.strength);
        await store.forSpace(s).knowledge.reinforce([]);
      });

      it('reinforces hundreds of entries in one call, each from its own strength', async () => {
        const s = newSpace('reinf-wide');
        const start = (i: number) => (i % 89) / 100;
        const ids: number[] = [];
        for (let i = 0; i < 260; i++) ids.push(await store.forSpace(s).knowledge.insert(kn({ content: `w${i}`, strength: start(i) })));
        await store.forSpace(s).knowledge.reinforce([{ ids: [...ids].reverse(), step: 0.1, at: T0 + 1 }]);
        const got = await store.forSpace(s).knowledge.getMany(ids);
        expect(got).toHaveLength(260);
        for (const k of got) {
          const i = ids.indexOf(k.id);
          expect(k.lastReinforcedAt).toBe(T0 + 1);
          expect(k.strength).toBeCloseTo(start(i) + 0.1, 4);
        }
      });

      it('round-trips every field and filters by status, kind and subject', async () => {
        const s = newSpace('kfields');
        const id = await store.forSpace(s).knowledge.insert(kn({
          content: '用户爱喝咖啡', kind: 'preference', subject: 'user', tags: ['咖啡'], evidence: { episodes: [1], narratives: [2] },
          validFrom: T0 - DAY, meta: { via: 'test' }, importance: 5, occurrences: 2,
        }));
        const q = await store.forSpace(s).knowledge.insert(kn({ content: 'dubious', status: 'quarantined' }));
        expect(await store.forSpace(s).knowledge.get(id)).toMatchObject({
          kind: 'preference', subject: 'user', tags: ['咖啡'], evidence: { episodes: [1], narratives: [2] }, validFrom: T0 - DAY,
          validTo: null, meta: { via: 'test' }, importance: 5, occurrences: 2, status: 'provisional', durable: true,
          lastReinforcedAt: T0, supersededBy: null,
        });
        expect(await store.forSpace(s).knowledge.count()).toBe(2);
        expect(await store.forSpace(s).knowledge.count(['quarantined'])).toBe(1);
        expect((await store.forSpace(s).knowledge.list({ limit: 10, statuses: ['quarantined'] })).map((k) => k.id)).toEqual([q]);
        expect((await store.forSpace(s).knowledge.list({ limit: 10, kinds: ['preference'], subject: 'user' })).map((k) => k.id)).toEqual([id]);
        await store.forSpace(s).knowledge.setStatus([q], 'reliable', T0 + 5);
        expect(await store.forSpace(s).knowledge.get(q)).toMatchObject({ status: 'reliable', updatedAt: T0 + 5 });
      });

      it('updates content and re-indexes it', async () => {
        const s = newSpace('kupd');
        const id = await store.forSpace(s).knowledge.insert(kn({ content: 'apples are red' }));
        await store.forSpace(s).knowledge.update(id, { content: 'bananas are yellow', occurrences: 3, tags: ['fruit'] }, idx('bananas are yellow', 'fruit'), T0 + 3);
        expect(await store.forSpace(s).knowledge.get(id)).toMatchObject({ content: 'bananas are yellow', occurrences: 3, tags: ['fruit'], updatedAt: T0 + 3 });
        expect(await store.forSpace(s).search.lexical('knowledge', ['apples'], LEX)).toEqual([]);
        expect((await store.forSpace(s).search.lexical('knowledge', ['bananas'], LEX)).map((h) => h.id)).toEqual([id]);
      });

      it('links entries once per type and deletes links with an entry', async () => {
        const s = newSpace('links');
        const a = await store.forSpace(s).knowledge.insert(kn({ content: 'a' }));
        const b = await store.forSpace(s).knowledge.insert(kn({ content: 'b' }));
        expect(await store.forSpace(s).knowledge.link(a, b, 'refers_to', T0)).toBe(true);
        expect(await store.forSpace(s).knowledge.link(a, b, 'refers_to', T0)).toBe(false);
        expect(await store.forSpace(s).knowledge.link(b, a, 'caused', T0)).toBe(true);
        expect((await store.forSpace(s).knowledge.links(a)).map((l) => [l.fromId, l.toId, l.type])).toEqual([[a, b, 'refers_to'], [b, a, 'caused']]);
        expect(await store.forSpace(s).knowledge.delete([b])).toBe(1);
        expect(await store.forSpace(s).knowledge.links(a)).toEqual([]);
      });
    });

    describe('identity', () => {
      it('keeps the history of a profile, newest first, and only when the content changes', async () => {
        const s = newSpace('prof');
        const first = await store.forSpace(s).identity.upsertProfile({ entity: 'Ana', ptype: 'fact', content: 'likes tea', pinned: true, at: T0 });
        expect(first.previous).toBeUndefined();
        const second = await store.forSpace(s).identity.upsertProfile({ entity: 'Ana', ptype: 'fact', content: 'likes coffee', at: T0 + 1 });
        expect(second).toEqual({ id: first.id, previous: 'likes tea' });
        await store.forSpace(s).identity.upsertProfile({ entity: 'Ana', ptype: 'fact', content: 'likes coffee', at: T0 + 2 });
        await store.forSpace(s).identity.upsertProfile({ entity: 'Ana', ptype: 'fact', content: '喜欢咖啡', at: T0 + 3 });
        expect(await store.forSpace(s).identity.profileHistory('Ana', 'fact')).toEqual([
          { content: 'likes coffee', validFrom: T0 + 2, replacedAt: T0 + 3 },
          { content: 'likes tea', validFrom: T0, replacedAt: T0 + 1 },
        ]);
        const [p] = await store.forSpace(s).identity.profiles('Ana');
        expect(p).toMatchObject({ entity: 'Ana', ptype: 'fact', content: '喜欢咖啡', pinned: true, createdAt: T0, updatedAt: T0 + 3 });
        await store.forSpace(s).identity.upsertProfile({ entity: 'Bo', ptype: 'contact', content: 'bo@example.org', at: T0 + 4 });
        expect((await store.forSpace(s).identity.profiles()).map((x) => x.entity)).toEqual(['Bo', 'Ana']);
      });

      it('caps a history at 30 versions', async () => {
        const s = newSpace('cap');
        for (let i = 0; i < 33; i++) await store.forSpace(s).identity.upsertSelfConcept('terrain', `v${i}`, T0 + i);
        const h = await store.forSpace(s).identity.selfConceptHistory('terrain');
        expect(h).toHaveLength(30);
        expect(h[0]?.content).toBe('v31');
        expect((await store.forSpace(s).identity.selfConcept())[0]).toEqual({ field: 'terrain', content: 'v32', updatedAt: T0 + 32 });
      });

      it('stores snapshots and threads', async () => {
        const s = newSpace('snap');
        await store.forSpace(s).identity.addSnapshot('calm', T0);
        const last = await store.forSpace(s).identity.addSnapshot('busy', T0 + 1);
        expect((await store.forSpace(s).identity.snapshots(1)).map((x) => x.id)).toEqual([last]);
        const t = await store.forSpace(s).identity.insertThread({
          content: 'why does sync stall?', importance: 4, emotional: 2, recurrence: 1, unresolved: 5, weight: 0.8, status: 'open', createdAt: T0,
        });
        await store.forSpace(s).identity.insertThread({ content: 'low', importance: 1, emotional: 1, recurrence: 1, unresolved: 1, weight: 0.1, status: 'open', createdAt: T0 });
        expect((await store.forSpace(s).identity.threads('open', 1)).map((x) => x.id)).toEqual([t]);
        expect(await store.forSpace(s).identity.updateThread(t, { status: 'explored', exploredAt: T0 + 9, updatedAt: T0 + 9 })).toBe(true);
        expect((await store.forSpace(s).identity.threads('explored', 5))[0]).toMatchObject({ id: t, status: 'explored', exploredAt: T0 + 9 });
        expect(await store.forSpace(s).identity.threads('all', 5)).toHaveLength(2);
      });
    });

    describe('attention', () => {
      it('logs hits in order and reports what a session already injected', async () => {
        const s = newSpace('att');
        await store.forSpace(s).attention.log([
          { layer: 'narrative', itemId: 1, sim: 0.5, cluster: 'c1', source: 't0_inject', session: 's', at: T0 },
          { layer: 'knowledge', itemId: 2, sim: 0.25, cluster: null, source: 'recall', session: 's', at: T0 + 1 },
          { layer: 'narrative', itemId: 1, sim: 0.5, cluster: 'c1', source: 't1_prefetch', session: 's', at: T0 + 2 },
        ]);
        expect((await store.forSpace(s).attention.since(T0 + 1)).map((e) => [e.layer, e.itemId, e.source, e.at])).toEqual([
          ['knowledge', 2, 'recall', T0 + 1],
          ['narrative', 1, 't1_prefetch', T0 + 2],
        ]);
        expect(await store.forSpace(s).attention.injectedInSession('s')).toEqual([{ layer: 'narrative', itemId: 1 }]);
      });
    });

    describe('vectors', () => {
      it('returns the nearest items by cosine, best first, per model and dimension', async () => {
        const s = newSpace('vec');
        await store.forSpace(s).vectors.put('knowledge', 1, 'm', vec(1, 0, 0), T0);
        await store.forSpace(s).vectors.put('knowledge', 2, 'm', vec(0.7, 0.7, 0), T0);
        await store.forSpace(s).vectors.put('knowledge', 3, 'm', vec(0, 0, 1), T0);
        await store.forSpace(s).vectors.put('knowledge', 4, 'other', vec(1, 0, 0), T0);
        await store.forSpace(s).vectors.put('knowledge', 5, 'm', vec(1, 0), T0);
        const hits = await store.forSpace(s).vectors.nearest('knowledge', 'm', vec(1, 0.1, 0), 3);
        expect(hits.map((h) => h.id)).toEqual([1, 2, 3]);
        expect(hits[0]!.score).toBeCloseTo(1 / Math.sqrt(1.01), 5);
        expect(hits[2]!.score).toBeCloseTo(0, 5);
        await store.forSpace(s).vectors.put('knowledge', 3, 'm', vec(1, 0.1, 0), T0 + 1);
        expect((await store.forSpace(s).vectors.nearest('knowledge', 'm', vec(1, 0.1, 0), 1))[0]).toMatchObject({ id: 3 });
        expect(await store.forSpace(s).vectors.count()).toBe(5);
        expect(await store.forSpace(s).vectors.count('m')).toBe(4);
      });

      it('finds the exact top k among many vectors', async () => {
        const s = newSpace('vecmany');
        let x = 42;
        const rnd = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
        const all: Array<{ id: number; v: Float32Array }> = [];
        for (let id = 1; id <= 60; id++) all.push({ id, v: vec(...Array.from({ length: 8 }, rnd)) });
        for (const r of all) await store.forSpace(s).vectors.put('narrative', r.id, 'm8', r.v, T0);
        const q = vec(...Array.from({ length: 8 }, rnd));
        const cos = (a: Float32Array, b: Float32Array) => {
          let d = 0;
          let na = 0;
          let nb = 0;
          for (let i = 0; i < a.length; i++) {
            d += a[i]! * b[i]!;
            na += a[i]! ** 2;
            nb += b[i]! ** 2;
          }
          return d / Math.sqrt(na * nb);
        };
        const expected = all.map((r) => ({ id: r.id, s: cos(r.v, q) })).sort((a, b) => b.s - a.s).slice(0, 5).map((r) => r.id);
        expect((await store.forSpace(s).vectors.nearest('narrative', 'm8', q, 5)).map((h) => h.id)).toEqual(expected);
      });

      it('lists items waiting for an embedding until they are cleared', async () => {
        const s = newSpace('pend');
        const { ids } = await store.forSpace(s).episodes.insertMany([ep({ content: 'later', embedPending: true }), ep({ content: 'now' })]);
        expect(await store.forSpace(s).vectors.pending('episode', 10)).toEqual([{ id: ids[0], text: 'later' }]);
        await store.forSpace(s).vectors.clearPending('episode', [ids[0]!]);
        expect(await store.forSpace(s).vectors.pending('episode', 10)).toEqual([]);
      });
    });

    describe('search', () => {
      it('finds English words by their stem and ranks items matching more terms first', async () => {
        const s = newSpace('lex');
        const { ids } = await store.forSpace(s).episodes.insertMany([
          ep({ content: 'The cats were running through the garden' }),
          ep({ content: 'A cat sleeps' }),
          ep({ content: 'Nothing related here' }),
        ]);
        expect((await store.forSpace(s).search.lexical('episode', ['run'], LEX)).map((h) => h.id)).toEqual([ids[0]]);
        const both = await store.forSpace(s).search.lexical('episode', ['cat', 'garden'], LEX);
        expect(both.map((h) => h.id)).toEqual([ids[0], ids[1]]);
        expect(both[0]!.score).toBeGreaterThan(both[1]!.score);
      });

      it("stems and folds as FTS5's porter unicode61 remove_diacritics 2, on every engine", async () => {
        // Porter's 1980 stemmer (news -> new, skies -> ski), where Snowball English keeps `news` and makes `sky`;
        // diacritics folded (café = cafe).
        const s = newSpace('stem');
        const { ids } = await store.forSpace(s).episodes.insertMany([
          ep({ content: 'Read the news at the Café' }),
          ep({ content: 'Clear skies over Zürich' }),
        ]);
        const found = async (term: string) => (await store.forSpace(s).search.lexical('episode', [term], LEX)).map((h) => h.id);
        expect(await found('new')).toEqual([ids[0]]);
        expect(await found('cafe')).toEqual([ids[0]]);
        expect(await found('CAFÉS')).toEqual([ids[0]]);
        expect(await found('ski')).toEqual([ids[1]]);
        expect(await found('zurich')).toEqual([ids[1]]);
        expect(await found('sky')).toEqual([]);
      });

      it('finds pre-segmented Chinese words and tags, and respects the knowledge status filter', async () => {
        const s = newSpace('zh');
        const n = await store.forSpace(s).narratives.insert(nar({ content: '用户爱喝咖啡', tags: ['饮品'] }));
        const k = await store.forSpace(s).knowledge.insert(kn({ content: '用户每天早上喝咖啡' }));
        const q = await store.forSpace(s).knowledge.insert(kn({ content: '咖啡有害', status: 'quarantined' }));
        expect((await store.forSpace(s).search.lexical('narrative', ['咖啡'], LEX)).map((h) => h.id)).toEqual([n]);
        expect((await store.forSpace(s).search.lexical('narrative', ['饮品'], LEX)).map((h) => h.id)).toEqual([n]);
        expect((await store.forSpace(s).search.lexical('knowledge', ['咖啡'], LEX)).map((h) => h.id)).toEqual([k]);
        expect((await store.forSpace(s).search.lexical('knowledge', ['咖啡'], { limit: 5, statuses: ['quarantined'] })).map((h) => h.id)).toEqual([q]);
      });

      it('matches a one-character Chinese term as the words it begins, and only those', async () => {
        const s = newSpace('zh1');
        const { ids } = await store.forSpace(s).episodes.insertMany([
          ep({ content: '我们上周搬家了' }),
          ep({ content: '前天我帮邻居搬进了新公寓' }),
          ep({ content: '这个箱子很重' }),
        ]);
        const hits = await store.forSpace(s).search.lexical('episode', ['搬'], LEX);
        expect(hits.map((h) => h.id).sort((a, b) => a - b)).toEqual([ids[0], ids[1]]);
        expect((await store.forSpace(s).search.lexical('episode', ['箱'], LEX)).map((h) => h.id)).toEqual([ids[2]]);
        // Character bigrams are indexed beside jieba's words: 家了 (no word) finds the text it is in; 搬了 is in none.
        expect((await store.forSpace(s).search.lexical('episode', ['家了'], LEX)).map((h) => h.id)).toEqual([ids[0]]);
        expect(await store.forSpace(s).search.lexical('episode', ['搬了'], LEX)).toEqual([]);
      });

      it("finds what its own transaction wrote, and nothing in a layer or space that holds none of the words", async () => {
        const s = newSpace('own');
        expect(await store.forSpace(s).search.lexical('knowledge', ['harbour'], LEX)).toEqual([]);
        await store.forSpace(s).episodes.insertMany([ep({ content: 'tide tables for the harbour' })]);
        // The layer has rows, none with the word; then a write in a transaction is found inside it, before its commit.
        expect(await store.forSpace(s).search.lexical('episode', ['kayak', '划'], LEX)).toEqual([]);
        const found = await store.transaction(async (tx) => {
          const { ids } = await tx.forSpace(s).episodes.insertMany([ep({ content: '我们去划船 in a kayak' })]);
          const hits = (w: string[]) => tx.forSpace(s).search.lexical('episode', w, LEX).then((h) => h.map((x) => x.id));
          return { ids, kayak: await hits(['kayak']), zh: await hits(['划']), either: await hits(['kayak', 'harbour']) };
        });
        expect(found.kayak).toEqual(found.ids);
        expect(found.zh).toEqual(found.ids);
        expect(found.either).toHaveLength(2);
      });

      it('never reads user text as query syntax', async () => {
        const s = newSpace('inj');
        const { ids } = await store.forSpace(s).episodes.insertMany([ep({ content: "o'brien said: cats & dogs | (birds)" })]);
        for (const t of ["o'brien", 'cats & !dogs', '(birds', '"', "'", 'a:*', 'NEAR(x y)', '%', '_', '\\']) {
          await expect(store.forSpace(s).search.lexical('episode', [t], LEX)).resolves.toBeDefined();
          await expect(store.forSpace(s).search.substring('episode', t, LEX)).resolves.toBeDefined();
        }
        expect((await store.forSpace(s).search.lexical('episode', ["o'brien"], LEX)).map((h) => h.id)).toEqual(ids);
        expect(await store.forSpace(s).search.substring('episode', '%', LEX)).toEqual([]);
      });

      it('finds substrings of three or more characters and two-character Chinese words, case-insensitively', async () => {
        const s = newSpace('sub');
        const { ids } = await store.forSpace(s).episodes.insertMany([
          ep({ content: 'Deploy to STAGING at noon', occurredAt: T0 }),
          ep({ content: '用户爱喝咖啡', occurredAt: T0 + 1 }),
          ep({ content: 'a_b literal', occurredAt: T0 + 2 }),
          ep({ content: 'axb other', occurredAt: T0 + 3 }),
        ]);
        expect((await store.forSpace(s).search.substring('episode', 'stag', LEX)).map((h) => h.id)).toEqual([ids[0]]);
        expect((await store.forSpace(s).search.substring('episode', '咖啡', LEX)).map((h) => h.id)).toEqual([ids[1]]);
        expect((await store.forSpace(s).search.substring('episode', '爱喝咖', LEX)).map((h) => h.id)).toEqual([ids[1]]);
        expect((await store.forSpace(s).search.substring('episode', 'a_b', LEX)).map((h) => h.id)).toEqual([ids[2]]);
        expect((await store.forSpace(s).search.substring('episode', 'zzz', LEX))).toEqual([]);
      });

      it('filters by time, session, weight and kind', async () => {
        const s = newSpace('filt');
        const { ids } = await store.forSpace(s).episodes.insertMany([
          ep({ content: 'deploy alpha', occurredAt: T0, session: 'a' }),
          ep({ content: 'deploy beta', occurredAt: T0 + DAY, session: 'b' }),
        ]);
        expect((await store.forSpace(s).search.lexical('episode', ['deploy'], { limit: 5, since: T0 + 1 })).map((h) => h.id)).toEqual([ids[1]]);
        expect((await store.forSpace(s).search.lexical('episode', ['deploy'], { limit: 5, session: 'a' })).map((h) => h.id)).toEqual([ids[0]]);
        expect((await store.forSpace(s).search.substring('episode', 'deploy', { limit: 5, until: T0 })).map((h) => h.id)).toEqual([ids[0]]);
        const heavy = await store.forSpace(s).narratives.insert(nar({ content: 'deploy notes', weight: 0.9, kind: 'self_reflection' }));
        await store.forSpace(s).narratives.insert(nar({ content: 'deploy notes light', weight: 0.1 }));
        expect((await store.forSpace(s).search.lexical('narrative', ['deploy'], { limit: 5, minWeight: 0.5 })).map((h) => h.id)).toEqual([heavy]);
        expect((await store.forSpace(s).search.lexical('narrative', ['deploy'], { limit: 5, kinds: ['self_reflection'] })).map((h) => h.id)).toEqual([heavy]);
      });

      it('searches a time window whose rows lie on both sides of an import as the whole memory ranks them (issue 20)', async () => {
        const s = newSpace('runs');
        const scope = store.forSpace(s);
        // Live turns of one week, then a year of imported history that says the word more often, then the same
        // week's later turns: the window's ids lie in two runs with the import between them.
        const week = (i: number) => T0 + i * 3_600_000;
        await scope.episodes.insertMany(Array.from({ length: 6 }, (_, i) => ep({ content: `launch note ${i}${i % 2 ? ' launch' : ''}`, occurredAt: week(i) })));
        await scope.episodes.insertMany(
          Array.from({ length: 300 }, (_, i) => ep({ content: `launch launch history ${i}`, occurredAt: T0 - 400 * DAY + i * DAY })),
        );
        await scope.episodes.insertMany(Array.from({ length: 6 }, (_, i) => ep({ content: `launch later ${i}`, occurredAt: week(10 + i) })));
        const within = { since: T0, until: week(20) };
        const whole = await scope.search.lexical('episode', ['launch'], { limit: 400 });
        const inWindow = await scope.episodes.timeline({ from: within.since, to: within.until, limit: 50, offset: 0, order: 'asc', includeArchived: false });
        const ids = new Set(inWindow.items.map((e) => e.id));
        expect(ids.size).toBe(12);
        // The whole memory's ranking, kept to the window's rows: what the window's search must answer, row for row.
        const expected = whole.filter((h) => ids.has(h.id));
        expect(expected).toHaveLength(12);
        for (const limit of [3, 12]) {
          const got = await scope.search.lexical('episode', ['launch'], { limit, ...within });
          expect(got.map((h) => h.id)).toEqual(expected.slice(0, limit).map((h) => h.id));
        }
      });
    });

    describe('rows', () => {
      it('dumps, erases and loads a space back to the same rows, and new ids do not collide', async () => {
        const s = newSpace('rows');
        await store.spaces.ensure(s, T0);
        const { ids } = await store.forSpace(s).episodes.insertMany([ep({ content: 'hello 你好', meta: { k: [1, 2] } }), ep({ content: 'world', ok: true })]);
        const n = await store.forSpace(s).narratives.insert(nar({ content: 'n', tags: ['标签', 'b'], weight: 0.1 + 0.2 }));
        const k = await store.forSpace(s).knowledge.insert(kn({ content: 'k', key: 'kk' }));
        await store.forSpace(s).knowledge.link(k, k, 'about', T0);
        await store.forSpace(s).identity.upsertProfile({ entity: 'Ana', ptype: 'self', content: 'x', at: T0 });
        await store.forSpace(s).identity.upsertProfile({ entity: 'Ana', ptype: 'self', content: 'y', at: T0 + 1 });
        await store.forSpace(s).identity.upsertSelfConcept('fact', 'f', T0);
        await store.forSpace(s).vectors.put('narrative', n, 'm', vec(0.1, -2.5, 3e-8), T0);
        await store.forSpace(s).attention.log([{ layer: 'episode', itemId: ids[0]!, sim: 0.3, cluster: 'zz', source: 'search', session: null, at: T0 }]);
        const before = await dumpAll(store, s);
        expect(Object.keys(before)).toEqual(expect.arrayContaining(['spaces', 'episodes', 'narratives', 'narrative_tags', 'knowledge', 'embeddings']));
        expect(before.embeddings![0]!.vector).toBeInstanceOf(Uint8Array);
        await store.rows.eraseSpace(s);
        expect(await store.rows.spaceIsEmpty(s)).toBe(true);
        expect(await store.spaces.exists(s)).toBe(false);
        expect(await store.forSpace(s).search.lexical('episode', ['hello'], LEX)).toEqual([]);
        for (const t of store.rows.tables()) if (before[t]) await store.rows.load(t, before[t]);
        expect(await dumpAll(store, s)).toEqual(before);
        expect(await store.forSpace(s).narratives.get(n)).toMatchObject({ tags: ['标签', 'b'], weight: 0.1 + 0.2 });
        // Rows loaded with explicit ids beyond every generated one: the next generated id must still be free.
        const top = Math.max(...ids) + 1000;
        await store.rows.load('episodes', [{ ...before.episodes![0]!, id: top, ref: null }]);
        const next = await store.forSpace(s).episodes.insertMany([ep({ content: 'after load' })]);
        expect(next.ids[0]!).toBeGreaterThan(top);
      });
    });

    describe('erasure (issue 22)', () => {
      it('finds copies by exact content, drops work records quoting a text, and purges outside a transaction', async () => {
        const s = newSpace('erase');
        await store.spaces.ensure(s, T0);
        const text = 'the vault "code" is\nzq77purge';
        const { ids } = await store.forSpace(s).episodes.insertMany([
          ep({ content: text, source: 'remember' }),
          ep({ content: text, source: 'record' }),
          ep({ content: `${text} and more` , source: 'remember' }),
        ]);
        const k = await store.forSpace(s).knowledge.insert(kn({ content: text }));
        await store.forSpace(s).knowledge.insert(kn({ content: 'other' }));
        expect(await store.forSpace(s).episodes.idsWithContent([text], 'remember')).toEqual([ids[0]]);
        expect(await store.forSpace(s).episodes.idsWithContent([text])).toEqual([ids[0], ids[1]]);
        expect(await store.forSpace(s).knowledge.idsWithContent([text, 'nothing'])).toEqual([k]);
        expect(await store.forSpace(newSpace('erase-other')).knowledge.idsWithContent([text])).toEqual([]);
        const run = await store.forSpace(s).sleepRuns.createRun({ night: '2024-01-01', model: 'm', startedAt: T0, log: {} });
        await store.forSpace(s).sleepRuns.planWork(run, [
          { step: 'solidify', unit: 'a', payload: { packet: [[1, '10:00', text]] } },
          { step: 'solidify', unit: 'b', payload: { packet: [[2, '10:01', 'unrelated']] } },
        ], T0);
        expect(await store.rows.dropQuoting(s, [text])).toBe(1);
        expect((await store.forSpace(s).sleepRuns.work(run)).map((w) => w.unit)).toEqual(['b']);
        await store.forSpace(s).knowledge.delete([k]);
        await store.forSpace(s).episodes.delete(ids);
        await expect(store.transaction((tx) => tx.purge(['episode']))).rejects.toThrow(/transaction/);
        const r = await store.purge(['episode', 'knowledge']);
        expect(r.complete).toBe(true);
        expect(await store.forSpace(s).search.lexical('episode', ['zq77purge'], LEX)).toEqual([]);
        expect(await store.forSpace(s).search.substring('knowledge', 'zq77purge', LEX)).toEqual([]);
        expect((await store.purge('all')).complete).toBe(true);
      });
    });

    describe('transactions', () => {
      it('rolls back every area when the callback throws', async () => {
        const s = newSpace('tx');
        await expect(
          store.transaction(async (tx) => {
            await tx.spaces.ensure(s, T0);
            await tx.forSpace(s).episodes.insertMany([ep({ content: 'ghost episode' })]);
            const n = await tx.forSpace(s).narratives.insert(nar({ content: 'ghost narrative', tags: ['g'] }));
            await tx.forSpace(s).knowledge.insert(kn({ content: 'ghost knowledge', key: 'g' }));
            await tx.forSpace(s).identity.upsertProfile({ entity: 'G', ptype: 'fact', content: 'g', at: T0 });
            await tx.forSpace(s).vectors.put('narrative', n, 'm', vec(1), T0);
            await tx.forSpace(s).attention.log([{ layer: 'narrative', itemId: n, sim: 1, cluster: null, source: 'recall', session: null, at: T0 }]);
            await tx.transaction(async (inner) => inner.forSpace(s).identity.addSnapshot('nested', T0));
            expect(await tx.forSpace(s).episodes.count()).toBe(1);
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await store.rows.spaceIsEmpty(s)).toBe(true);
        expect(await store.spaces.exists(s)).toBe(false);
        expect(await store.forSpace(s).search.lexical('narrative', ['ghost'], LEX)).toEqual([]);
        expect(await store.forSpace(s).search.substring('episode', 'ghost', LEX)).toEqual([]);
        expect(await store.forSpace(s).knowledge.getLiveByKey('g')).toBeUndefined();
      });

      it('commits a transaction as a whole and returns its value', async () => {
        const s = newSpace('txok');
        const id = await store.transaction(async (tx) => {
          const { ids } = await tx.forSpace(s).episodes.insertMany([ep({ content: 'kept' })]);
          return ids[0]!;
        });
        expect((await store.forSpace(s).episodes.get(id))?.content).toBe('kept');
      });

      it('never reports a transaction committed that kept nothing, when a statement failed and the caller went on', async () => {
        const s = newSpace('txfail');
        // SQLite undoes the failed statement alone and commits the rest; PostgreSQL ends the whole transaction there,
        // and its COMMIT then rolls back: the write must fail rather than be acknowledged and lost.
        const write = store.transaction(async (tx) => {
          await tx.forSpace(s).episodes.insertMany([ep({ content: 'acknowledged or refused' })]);
          const db = (tx as unknown as { db: { run(sql: string): Promise<unknown> } }).db;
          await db.run('SELECT * FROM no_such_table_tidepool').catch(() => undefined);
        });
        const committed = await write.then(() => true, () => false);
        expect(await store.forSpace(s).episodes.count()).toBe(committed ? 1 : 0);
        if (committed) expect((await store.forSpace(s).search.lexical('episode', ['acknowledged'], LEX)).length).toBe(1);
      });
    });

    describe('space isolation', () => {
      it('shows nothing of one space in another, in every area', async () => {
        const a = newSpace('iso-a');
        const b = newSpace('iso-b');
        await store.spaces.ensure(a, T0);
        const { ids } = await store.forSpace(a).episodes.insertMany([ep({ content: 'secret alpha 秘密', session: 's', embedPending: true })]);
        const e = ids[0]!;
        const n = await store.forSpace(a).narratives.insert(nar({ content: 'secret alpha', tags: ['秘密'], embedPending: true }));
        const k = await store.forSpace(a).knowledge.insert(kn({ content: 'secret alpha', key: 'shared.key' }));
        const k2 = await store.forSpace(a).knowledge.insert(kn({ content: 'other' }));
        await store.forSpace(a).knowledge.link(k, k2, 'about', T0);
        await store.forSpace(a).identity.upsertProfile({ entity: 'Ana', ptype: 'fact', content: 'x', at: T0 });
        await store.forSpace(a).identity.upsertSelfConcept('fact', 'x', T0);
        await store.forSpace(a).identity.addSnapshot('x', T0);
        const th = await store.forSpace(a).identity.insertThread({ content: 'x', importance: 1, emotional: 1, recurrence: 1, unresolved: 1, weight: 1, status: 'open', createdAt: T0 });
        await store.forSpace(a).vectors.put('narrative', n, 'm', vec(1, 0), T0);
        await store.forSpace(a).attention.log([{ layer: 'narrative', itemId: n, sim: 1, cluster: null, source: 't0_inject', session: 's', at: T0 }]);
        // Reads from B.
        expect(await store.spaces.exists(b)).toBe(false);
        expect(await store.forSpace(b).episodes.get(e)).toBeUndefined();
        expect(await store.forSpace(b).episodes.getMany([e])).toEqual([]);
        expect((await store.forSpace(b).episodes.timeline({ limit: 10, offset: 0, order: 'asc', includeArchived: true })).total).toBe(0);
        expect(await store.forSpace(b).episodes.neighbours(e, 3)).toEqual([]);
        expect(await store.forSpace(b).narratives.get(n)).toBeUndefined();
        expect(await store.forSpace(b).narratives.list({ limit: 10 })).toEqual([]);
        expect((await store.forSpace(b).narratives.tagCounts()).size).toBe(0);
        expect(await store.forSpace(b).narratives.withAnyTag(['秘密'])).toEqual([]);
        expect(await store.forSpace(b).knowledge.get(k)).toBeUndefined();
        expect(await store.forSpace(b).knowledge.getLiveByKey('shared.key')).toBeUndefined();
        expect(await store.forSpace(b).knowledge.links(k)).toEqual([]);
        expect(await store.forSpace(b).identity.profiles()).toEqual([]);
        expect(await store.forSpace(b).identity.selfConcept()).toEqual([]);
        expect(await store.forSpace(b).identity.snapshots(10)).toEqual([]);
        expect(await store.forSpace(b).identity.threads('all', 10)).toEqual([]);
        expect(await store.forSpace(b).attention.since(0)).toEqual([]);
        expect(await store.forSpace(b).attention.injectedInSession('s')).toEqual([]);
        expect(await store.forSpace(b).vectors.nearest('narrative', 'm', vec(1, 0), 5)).toEqual([]);
        expect(await store.forSpace(b).vectors.pending('episode', 10)).toEqual([]);
        expect(await store.forSpace(b).vectors.count()).toBe(0);
        for (const layer of ['episode', 'narrative', 'knowledge'] as const) {
          expect(await store.forSpace(b).search.lexical(layer, ['secret', '秘密'], LEX)).toEqual([]);
          expect(await store.forSpace(b).search.substring(layer, 'secret', LEX)).toEqual([]);
        }
        expect(await dumpAll(store, b)).toEqual({});
        // Writes from B that name A's ids change nothing in A.
        expect(await store.forSpace(b).episodes.delete([e])).toBe(0);
        expect(await store.forSpace(b).narratives.delete([n])).toBe(0);
        expect(await store.forSpace(b).knowledge.delete([k])).toBe(0);
        await store.forSpace(b).knowledge.reinforce([{ ids: [k], step: 0.5, at: T0 + 1 }]);
        await store.forSpace(b).knowledge.setStatus([k], 'forgotten', T0 + 1);
        await store.forSpace(b).knowledge.update(k, { content: 'overwritten' }, idx('overwritten'), T0 + 1);
        await store.forSpace(b).narratives.writeScores([{ id: n, weight: 0 }]);
        expect(await store.forSpace(b).identity.updateThread(th, { status: 'abandoned' })).toBe(false);
        await store.forSpace(b).vectors.clearPending('episode', [e]);
        // The same key may be live in B too.
        await store.forSpace(b).knowledge.insert(kn({ content: 'b value', key: 'shared.key' }));
        await store.rows.eraseSpace(b);
        expect(await store.forSpace(a).knowledge.get(k)).toMatchObject({ content: 'secret alpha', status: 'provisional', strength: 0.5 });
        expect((await store.forSpace(a).narratives.get(n))?.weight).toBe(0.5);
        expect(await store.forSpace(a).episodes.get(e)).toBeDefined();
        expect(await store.forSpace(a).vectors.pending('episode', 10)).toHaveLength(1);
        expect((await store.forSpace(a).identity.threads('open', 10)).map((t) => t.id)).toEqual([th]);
        expect((await store.forSpace(a).search.lexical('knowledge', ['secret'], LEX)).map((h) => h.id)).toEqual([k]);
        expect(await store.forSpace(a).search.lexical('knowledge', ['overwritten'], LEX)).toEqual([]);
        expect(await store.spaces.exists(a)).toBe(true);
      });

      it('reads from each space only its own rows when both spaces hold the same kinds of rows (issue 19)', async () => {
        const a = newSpace('two-a');
        const b = newSpace('two-b');
        /** Writes one row of every kind through the space's ports; `tag` marks its texts, `common` is in both. */
        const fill = async (space: string, tag: string, n: number) => {
          const s = store.forSpace(space);
          await store.spaces.ensure(space, T0);
          const eps = await s.episodes.insertMany(
            Array.from({ length: n }, (_, i) =>
              ep({ content: `common ${tag} turn ${i}`, speaker: `speaker-${tag}`, session: 's', ref: `r-${i}`, embedPending: true }),
            ),
          );
          const nIds: number[] = [];
          for (let i = 0; i < n; i++) nIds.push(await s.narratives.insert(nar({ content: `common ${tag} story ${i}`, tags: [`t-${tag}`], weight: 0.8 })));
          const kIds: number[] = [];
          for (let i = 0; i < n; i++) kIds.push(await s.knowledge.insert(kn({ content: `common ${tag} fact ${i}`, key: `k.${i}`, subject: `subj-${tag}` })));
          for (const id of nIds) await s.vectors.put('narrative', id, 'm', vec(1, tag === 'alpha' ? 0 : 0.5), T0);
          await s.identity.upsertProfile({ entity: `P-${tag}`, ptype: 'fact', content: tag, at: T0 });
          await s.attention.log([{ layer: 'narrative', itemId: nIds[0]!, sim: 1, cluster: `c-${tag}`, source: 't0_inject', session: 's', at: T0 }]);
          await s.derived.replaceTopicClusters([{ name: `topic-${tag}`, keywords: [tag], size: 2, narrativeIds: nIds, lastActive: T0, avgWeight: 0.5 }]);
          await s.derived.replaceSoftClusters(
            { clusters: [{ name: `soft-${tag}`, centroid: [1, 0], memberCount: 1 }], memberships: [{ narrativeId: nIds[0]!, cluster: 0, distance: 0.1 }], adjacency: [] },
            T0,
          );
          await s.derived.replaceEntityGraph({
            nodes: [{ entity: `E-${tag}`, mentionCount: 1, firstSeen: T0, lastSeen: T0 }],
            edges: [],
            cooccur: [],
          });
          await s.derived.putBriefing({ day: '2026-12-01', headline: `head ${tag}`, body: tag, createdAt: T0 });
          await s.continuity.setGoal({ text: `goal ${tag}`, session: null, at: T0 });
          await s.continuity.addEvent({ kind: 'note', payload: { tag }, session: null, at: T0 });
          await s.journal.registerWorkspace({ root: '/w', title: tag, at: T0 });
          await s.journal.archiveDay({ root: '/w', day: `2026-11-0${tag === 'alpha' ? 1 : 2}`, content: tag, sha256: tag, at: T0 });
          await s.sleepRuns.createRun({ night: '2026-12-01', model: `model-${tag}`, startedAt: T0, log: {} });
          expect(await s.sleepRuns.acquireLock(`owner-${tag}`, T0, 60_000)).toBe(true);
          await s.state.put('shared.key', { tag }, T0);
          return { eps: eps.ids, nIds, kIds };
        };
        const mineA = await fill(a, 'alpha', 3);
        const A = store.forSpace(a);
        // A's BM25 before B exists. "0" is in one of A's three rows of each layer (idf ln(2.5 / 1.5)) and would be in
        // 2 of 43 rows (ln(41.5 / 2.5)) if B's rows were counted.
        const LAYERS = ['episode', 'narrative', 'knowledge'] as const;
        const asked = (layer: (typeof LAYERS)[number]) => ['common', layer === 'episode' ? 'turn' : layer === 'narrative' ? 'story' : 'fact', '0'];
        const lexBefore = [];
        for (const layer of LAYERS) lexBefore.push(await A.search.lexical(layer, asked(layer), LEX));
        await fill(b, 'beta', 40);
        for (const [i, layer] of LAYERS.entries()) {
          // The same rows with the same scores: N, n(term) and the mean row length are A's own on every engine.
          const after = await A.search.lexical(layer, asked(layer), LEX);
          expect(after).toEqual(lexBefore[i]);
          expect(after.map((h) => h.id).sort((x, y) => x - y)).toEqual(
            [...(layer === 'episode' ? mineA.eps : layer === 'narrative' ? mineA.nIds : mineA.kIds)].sort((x, y) => x - y),
          );
          expect(after[0]!.score).toBeGreaterThan(after[1]!.score);
        }
        for (const layer of LAYERS) {
          const own = new Set(layer === 'episode' ? mineA.eps : layer === 'narrative' ? mineA.nIds : mineA.kIds);
          for (const hits of [
            await A.search.lexical(layer, ['common', 'beta'], LEX),
            await A.search.substring(layer, 'common', LEX),
          ]) {
            expect(hits.map((h) => h.id).sort((x, y) => x - y)).toEqual([...own].sort((x, y) => x - y));
          }
        }
        expect((await A.vectors.nearest('narrative', 'm', vec(1, 0.5), 10)).map((h) => h.id).sort((x, y) => x - y)).toEqual(mineA.nIds);
        expect(await A.vectors.count()).toBe(3);
        expect(await A.vectors.narrativeModels()).toEqual([{ model: 'm', dim: 2, count: 3 }]);
        expect((await A.vectors.pending('episode', 100)).map((p) => p.id)).toEqual(mineA.eps);
        expect(await A.episodes.count()).toBe(3);
        expect(await A.episodes.speakers()).toEqual(['speaker-alpha']);
        expect([...(await A.episodes.idsByRef(['r-0', 'r-39'])).entries()]).toEqual([['r-0', mineA.eps[0]]]);
        expect((await A.episodes.storedAfter(null)).map((e) => e.id)).toEqual(mineA.eps);
        expect(await A.episodes.pendingTimes(100)).toHaveLength(3);
        expect(await A.narratives.count()).toBe(3);
        expect([...(await A.narratives.tagCounts()).keys()]).toEqual(['t-alpha']);
        expect((await A.narratives.texts()).map((r) => r.id)).toEqual(mineA.nIds);
        expect(await A.narratives.weightBands()).toEqual({ high: 3, mid: 0, low: 0 });
        expect(await A.knowledge.count()).toBe(3);
        expect(await A.knowledge.liveKeysWithPrefix('k.')).toEqual(['k.0', 'k.1', 'k.2']);
        expect((await A.knowledge.getLiveByKey('k.0'))?.id).toBe(mineA.kIds[0]);
        expect((await A.identity.profiles()).map((p) => p.entity)).toEqual(['P-alpha']);
        expect((await A.attention.since(0)).map((x) => x.cluster)).toEqual(['c-alpha']);
        expect((await A.derived.topicClusters({ minSize: 0, limit: 10 })).map((c) => c.name)).toEqual(['topic-alpha']);
        expect(await A.derived.topicClusterNames()).toEqual(['topic-alpha']);
        expect((await A.derived.softClusters()).map((c) => c.name)).toEqual(['soft-alpha']);
        expect((await A.derived.graphNodes(10)).map((g) => g.entity)).toEqual(['E-alpha']);
        expect((await A.derived.latestBriefing())?.headline).toBe('head alpha');
        expect((await A.derived.topicStats()).map((t) => t.topic).sort()).toEqual(['E-alpha', 'subj-alpha']);
        expect((await A.continuity.activeGoal())?.text).toBe('goal alpha');
        expect((await A.continuity.pendingEvents({ limit: 10 })).map((e) => e.payload)).toEqual([{ tag: 'alpha' }]);
        expect((await A.journal.workspaces()).map((w) => w.title)).toEqual(['alpha']);
        expect(await A.journal.archivedDays('/w')).toEqual(['2026-11-01']);
        expect((await A.sleepRuns.runs({ limit: 10 })).map((r) => r.model)).toEqual(['model-alpha']);
        expect(await A.sleepRuns.lockOwner()).toBe('owner-alpha');
        expect(await A.sleepRuns.memorySize()).toBe(9);
        expect(await A.state.get('shared.key')).toEqual({ tag: 'alpha' });
        // Every dumped row that carries a space is A's (child tables hang off A's rows by id).
        for (const rows of Object.values(await dumpAll(store, a))) for (const r of rows) if ('space' in r) expect(r.space).toBe(a);
      });

      it("never returns another space's rows, not even better matches crowding the over-fetch (issue 19)", async () => {
        const a = newSpace('crowd-a');
        const b = newSpace('crowd-b');
        const mine = (await store.forSpace(a).episodes.insertMany([
          ep({ content: 'a long turn that mentions the heron once among many other words here' }),
          ep({ content: 'another long turn about a heron and a great deal of unrelated talk' }),
        ])).ids;
        const nMine = await store.forSpace(a).narratives.insert(nar({ content: 'a long story where a heron appears once among other things' }));
        const kMine = await store.forSpace(a).knowledge.insert(kn({ content: 'a long fact that names a heron once among other words' }));
        // B's rows are shorter and say "heron" more often: each scores above every row of A in any shared ranking.
        await store.forSpace(b).episodes.insertMany(Array.from({ length: 60 }, () => ep({ content: 'heron heron heron' })));
        for (let i = 0; i < 60; i++) await store.forSpace(b).narratives.insert(nar({ content: 'heron heron' }));
        for (let i = 0; i < 60; i++) await store.forSpace(b).knowledge.insert(kn({ content: 'heron heron' }));
        const few = { limit: 2 };
        expect((await store.forSpace(a).search.lexical('episode', ['heron'], few)).map((h) => h.id).sort((x, y) => x - y)).toEqual(mine);
        expect((await store.forSpace(a).search.lexical('narrative', ['heron'], few)).map((h) => h.id)).toEqual([nMine]);
        expect((await store.forSpace(a).search.lexical('knowledge', ['heron'], few)).map((h) => h.id)).toEqual([kMine]);
        expect((await store.forSpace(a).search.substring('episode', 'heron', few)).map((h) => h.id).sort((x, y) => x - y)).toEqual(mine);
        expect(await store.forSpace(b).search.lexical('episode', ['heron'], { limit: 100 })).toHaveLength(60);
      });

      it('keeps the best rows that pass the filters, in rank order, when some of the best are filtered out', async () => {
        const s = newSpace('filtered-best');
        // Shorter rows rank higher for the same one occurrence (BM25's length term): row i has i filler words.
        const { ids } = await store.forSpace(s).episodes.insertMany(
          Array.from({ length: 12 }, (_, i) => ep({ content: `kestrel ${Array.from({ length: i }, (_, j) => `filler${j}`).join(' ')}` })),
        );
        const ranked = (await store.forSpace(s).search.lexical('episode', ['kestrel'], { limit: 12, includeArchived: true })).map((h) => h.id);
        expect(ranked).toEqual(ids);
        // Two of the best five archived: the five best left are the first five of the rest, in order.
        await store.forSpace(s).episodes.markArchived([ids[1]!, ids[3]!], T0);
        const live = ids.filter((id) => id !== ids[1] && id !== ids[3]);
        expect((await store.forSpace(s).search.lexical('episode', ['kestrel'], { limit: 5 })).map((h) => h.id)).toEqual(live.slice(0, 5));
        expect((await store.forSpace(s).search.lexical('episode', ['kestrel'], { limit: 12 })).map((h) => h.id)).toEqual(live);
      });

      it('plans a word search from its own space: a small space keeps its hits when another grows large', async () => {
        const small = newSpace('plan-small');
        const big = newSpace('plan-big');
        const { ids } = await store.forSpace(small).episodes.insertMany(Array.from({ length: 5 }, (_, i) => ep({ content: `we deploy release ${i} today` })));
        const found = async () => (await store.forSpace(small).search.lexical('episode', ['deploy'], LEX)).map((h) => h.id).sort((x, y) => x - y);
        expect(await found()).toEqual(ids);
        // 25,000 turns in another space, every one holding "deploy": a word common there, rare in the small space.
        for (let i = 0; i < 25_000; i += 5000) {
          const batch = Array.from({ length: 5000 }, (_, j) => ep({ content: `deploy build ${i + j} w${(i + j) % 97}` }));
          await store.transaction((tx) => tx.forSpace(big).episodes.insertMany(batch));
        }
        expect(await found()).toEqual(ids);
        expect(await store.forSpace(small).search.lexical('episode', ['deploy', 'build'], LEX)).toHaveLength(5);
        // The large space still answers from its own rows.
        const inBig = await store.forSpace(big).search.lexical('episode', ['deploy', 'w5'], { limit: 5 });
        expect(inBig).toHaveLength(5);
        expect((await store.forSpace(big).episodes.getMany(inBig.map((h) => h.id))).every((e) => e.content.includes('deploy'))).toBe(true);
      }, 600_000);
    });

    describe('job claims', () => {
      const key = (space: string, owner: string, day = '2025-01-31') => ({ space, job: 'sleep', day, owner });

      it('lets exactly one of two concurrent claimers win', async () => {
        const s = newSpace('job');
        const results = await Promise.all([
          store.jobs.claim({ ...key(s, 'server-a'), ttlMs: 60_000, at: T0 }),
          store.jobs.claim({ ...key(s, 'server-b'), ttlMs: 60_000, at: T0 }),
        ]);
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('hands an expired lease to the next server and runs a job once per day', async () => {
        const s = newSpace('lease');
        expect(await store.jobs.claim({ ...key(s, 'a'), ttlMs: 1000, at: T0 })).toBe(true);
        expect(await store.jobs.claim({ ...key(s, 'a'), ttlMs: 1000, at: T0 + 10 })).toBe(true);
        expect(await store.jobs.claim({ ...key(s, 'b'), ttlMs: 1000, at: T0 + 500 })).toBe(false);
        expect(await store.jobs.renew({ ...key(s, 'a'), ttlMs: 1000, at: T0 + 600 })).toBe(true);
        expect(await store.jobs.claim({ ...key(s, 'b'), ttlMs: 1000, at: T0 + 1200 })).toBe(false);
        // Server a dies; once its lease runs out, b takes the job over and a can no longer finish it.
        expect(await store.jobs.claim({ ...key(s, 'b'), ttlMs: 1000, at: T0 + 1700 })).toBe(true);
        expect(await store.jobs.renew({ ...key(s, 'a'), ttlMs: 1000, at: T0 + 1701 })).toBe(false);
        expect(await store.jobs.finish({ ...key(s, 'a'), at: T0 + 1702 })).toBe(false);
        expect(await store.jobs.lastDone(s, 'sleep')).toBeUndefined();
        expect(await store.jobs.finish({ ...key(s, 'b'), at: T0 + 1800 })).toBe(true);
        expect(await store.jobs.lastDone(s, 'sleep')).toBe('2025-01-31');
        expect(await store.jobs.claim({ ...key(s, 'c'), ttlMs: 1000, at: T0 + 1900 })).toBe(false);
        expect(await store.jobs.claim({ ...key(s, 'c', '2025-02-01'), ttlMs: 1000, at: T0 + DAY })).toBe(true);
      });

      it('frees a released lease at once and keeps leases apart per space', async () => {
        const a = newSpace('rel-a');
        const b = newSpace('rel-b');
        expect(await store.jobs.claim({ ...key(a, 'x'), ttlMs: 60_000, at: T0 })).toBe(true);
        expect(await store.jobs.claim({ ...key(b, 'y'), ttlMs: 60_000, at: T0 })).toBe(true);
        expect(await store.jobs.release(key(a, 'y'))).toBe(false);
        expect(await store.jobs.release(key(a, 'x'))).toBe(true);
        expect(await store.jobs.claim({ ...key(a, 'y'), ttlMs: 60_000, at: T0 + 1 })).toBe(true);
      });
    });
  });
}
