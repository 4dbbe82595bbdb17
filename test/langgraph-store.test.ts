/** `tidepool-memory/langgraph`: a real LangGraph.js graph whose nodes write and read Tidepool through `config.store`, on a SQLite file. */
import { Annotation, END, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Tidepool } from '../src/app/tidepool.js';
import { openMemory } from '../src/boot/open-memory.js';
import { FixedClock } from '../src/core/clock.js';
import { parseConfig } from '../src/core/config.js';
import { openPostgresStore } from '../src/store/postgres/open-postgres.js';
import { TidepoolStore } from '../src/surfaces/langgraph/langgraph-store.js';
import { pgSchemas } from './helpers/pg-schemas.js';
import { T0, tempMemory, type TempMemory } from './helpers/temp-memory.js';

const State = Annotation.Root({
  user: Annotation<string>,
  said: Annotation<string>,
  question: Annotation<string>,
  remembered: Annotation<Record<string, unknown> | null>,
  found: Annotation<string[]>,
});
type S = typeof State.State;

/** A two-node graph: `learn` stores what the user said, `answer` reads it back and searches for the question. */
function memoryGraph(store: TidepoolStore) {
  const learn = async (s: S, config: LangGraphRunnableConfig) => {
    await config.store!.put(['users', s.user, 'memories'], 'drink', { text: s.said, source: 'chat' });
    return {};
  };
  const answer = async (s: S, config: LangGraphRunnableConfig) => {
    const item = await config.store!.get(['users', s.user, 'memories'], 'drink');
    const hits = await config.store!.search(['users', s.user], { query: s.question, limit: 5 });
    return { remembered: item?.value ?? null, found: hits.map((h) => String(h.value.text)) };
  };
  return new StateGraph(State)
    .addNode('learn', learn)
    .addNode('answer', answer)
    .addEdge(START, 'learn')
    .addEdge('learn', 'answer')
    .addEdge('answer', END)
    .compile({ store });
}

describe('TidepoolStore (LangGraph BaseStore over Tidepool)', () => {
  let mem: TempMemory;
  let store: TidepoolStore;
  beforeEach(async () => {
    mem = await tempMemory();
    store = new TidepoolStore(mem.memory);
  });
  afterEach(async () => {
    await mem.cleanup();
  });

  it('lets a compiled graph write in one node and get and search in the next, through config.store', async () => {
    await store.put(['users', 'bob', 'memories'], 'pet', { text: 'Bob has a cat called Miso' });
    const out = await memoryGraph(store).invoke({
      user: 'ana',
      said: 'Ana drinks her coffee black, no sugar',
      question: 'how does Ana take her coffee',
    });
    expect(out.remembered).toEqual({ text: 'Ana drinks her coffee black, no sugar', source: 'chat' });
    expect(out.found).toEqual(['Ana drinks her coffee black, no sugar']);
    // The item is a Tidepool memory: keyed knowledge that Tidepool's own recall finds, on every surface.
    const hits = await mem.memory.recall({ query: 'coffee black' });
    // Its text is every string of the value, one per line (no `index` fields were named).
    expect(hits.map((h) => h.text)).toEqual(['Ana drinks her coffee black, no sugar\nchat']);
    // Another process opening the same file sees it (a new memory on the path, a new store).
    const again = await openMemory({ path: mem.path });
    try {
      const item = await new TidepoolStore(again).get(['users', 'ana', 'memories'], 'drink');
      expect(item).toMatchObject({
        namespace: ['users', 'ana', 'memories'],
        key: 'drink',
        value: { source: 'chat' },
      });
    } finally {
      await again.close();
    }
  });

  it('supersedes on put (keeping the first creation time), forgets every version on delete', async () => {
    mem.clock.set(mem.clock.now() + 1);
    await store.put(['prefs'], 'answers', { text: 'Ana prefers long answers', weight: 1 });
    const first = await store.get(['prefs'], 'answers');
    mem.clock.set(mem.clock.now() + 60_000);
    await store.put(['prefs'], 'answers', { text: 'Ana prefers short answers', weight: 2 });
    const second = await store.get(['prefs'], 'answers');
    expect(second?.value).toEqual({ text: 'Ana prefers short answers', weight: 2 });
    expect(second?.createdAt).toEqual(first?.createdAt);
    expect(second!.updatedAt.getTime() - first!.updatedAt.getTime()).toBe(60_000);
    // A changed value with the same text is a new version too.
    await store.put(['prefs'], 'answers', { text: 'Ana prefers short answers', weight: 3 });
    expect((await store.get(['prefs'], 'answers'))?.value.weight).toBe(3);
    expect((await store.search(['prefs'], { query: 'long answers' })).map((h) => h.value.text)).not.toContain(
      'Ana prefers long answers',
    );

    await store.delete(['prefs'], 'answers');
    expect(await store.get(['prefs'], 'answers')).toBeNull();
    expect(await mem.memory.recall({ query: 'prefers answers' })).toEqual([]);
    await store.delete(['prefs'], 'answers'); // deleting what is gone is not an error
  });

  it('lists namespaces with prefix, suffix, wildcard and depth; filters and pages like InMemoryStore', async () => {
    await store.put(['users', 'ana', 'memories'], 'a', {
      text: 'tea in the morning',
      score: 3,
      topic: 'drinks',
    });
    await store.put(['users', 'ana', 'memories'], 'b', { text: 'runs on sundays', score: 5, topic: 'sport' });
    await store.put(['users', 'bob', 'memories'], 'c', { text: 'plays chess', score: 4, topic: 'games' });
    await store.put(['users', 'bob', 'profile'], 'd', { text: 'lives in Lyon' });
    await store.put(['teams', 'core/infra'], 'e', { text: 'on call rota' });
    await mem.memory.remember({ text: 'not a graph item', key: 'staging.db.port' });

    expect(await store.listNamespaces()).toEqual([
      ['teams', 'core/infra'],
      ['users', 'ana', 'memories'],
      ['users', 'bob', 'memories'],
      ['users', 'bob', 'profile'],
    ]);
    expect(await store.listNamespaces({ prefix: ['users', '*'], suffix: ['memories'] })).toEqual([
      ['users', 'ana', 'memories'],
      ['users', 'bob', 'memories'],
    ]);
    expect(await store.listNamespaces({ prefix: ['users'], maxDepth: 2 })).toEqual([
      ['users', 'ana'],
      ['users', 'bob'],
    ]);
    expect(await store.listNamespaces({ limit: 1, offset: 1 })).toEqual([['users', 'ana', 'memories']]);

    expect(
      (await store.search(['users'], { filter: { score: { $gte: 4 } } })).map((i) => i.key).sort(),
    ).toEqual(['b', 'c']);
    expect((await store.search(['users', 'ana'], { filter: { topic: 'drinks' } })).map((i) => i.key)).toEqual(
      ['a'],
    );
    expect(
      (await store.search(['users'], { filter: { topic: { $in: ['games', 'sport'] } }, limit: 1 })).length,
    ).toBe(1);
    expect((await store.search(['teams'])).map((i) => i.namespace)).toEqual([['teams', 'core/infra']]);
    const ranked = await store.search([], { query: 'chess' });
    expect(ranked.map((i) => i.key)).toEqual(['c']);
    expect(ranked[0]!.score).toBeGreaterThan(0);
  });

  it('indexes only the fields a put names, and refuses a value holding a credential, leaving the store as it was', async () => {
    await store.put(
      ['notes'],
      'n1',
      { title: 'Deploy checklist', body: 'run the migrations first', owner: 'zebra-team' },
      ['title', 'body'],
    );
    expect((await store.search(['notes'], { query: 'migrations' })).map((i) => i.key)).toEqual(['n1']);
    expect(await store.search(['notes'], { query: 'zebra' })).toEqual([]);

    // The credential sits in a field that is not indexed: the value is checked whole, not only its text.
    await expect(
      store.put(['notes'], 'n2', { text: 'the key', token: 'ghp_0123456789abcdefghijABCDEFGHIJ012345' }, ['text']),
    ).rejects.toThrow(/secret|credential/i);
    expect(await store.get(['notes'], 'n2')).toBeNull();
    await expect(store.put([], 'n3', { text: 'x' })).rejects.toThrow(/namespace/i);
  });

  it('finds a namespace of few items among hundreds that rank higher elsewhere: the namespace filters the query', async () => {
    await namespaceAmongCrowd(store, 260);
    // Searched over all users, the crowd fills every hit: the quiet entry ranks below all of them.
    const everywhere = await store.search(['users'], { query: 'coffee', limit: 300 });
    expect(everywhere.length).toBeGreaterThan(10);
    expect(everywhere.map((i) => i.namespace[1])).not.toContain('quiet');
  });
});

/** A quiet user's one entry among `n` of another namespace that say "coffee" three times each: found by the namespace. */
async function namespaceAmongCrowd(store: TidepoolStore, n: number): Promise<void> {
  const crowd = Array.from({ length: n }, (_, i) => ({
    namespace: ['users', 'crowd'],
    key: `c${i}`,
    value: { text: `coffee coffee coffee ${i}` },
  }));
  await store.batch(crowd);
  const out = await memoryGraph(store).invoke({
    user: 'quiet',
    said: 'Quiet orders a flat white coffee with oat milk every morning before the standup meeting',
    question: 'coffee',
  });
  expect(out.found).toEqual(['Quiet orders a flat white coffee with oat milk every morning before the standup meeting']);
  // Pages of the crowd itself keep recall's order.
  const everywhere = await store.search(['users'], { query: 'coffee', limit: 300 });
  const page = await store.search(['users', 'crowd'], { query: 'coffee', limit: 5, offset: 5 });
  expect(page.map((i) => i.key)).toEqual(everywhere.slice(5, 10).map((i) => i.key));
}

/** The namespace filter is SQL of each engine: PGlite always, a PostgreSQL server when TIDEPOOL_TEST_PG_URL is set. */
const PG_URL = process.env.TIDEPOOL_TEST_PG_URL;
const pgSchema = PG_URL ? pgSchemas(PG_URL) : undefined;
for (const [engine, url] of [['PGlite', () => 'pglite://memory'], ['a PostgreSQL server', pgSchema && (() => pgSchema('langgraph'))]] as const) {
  (url ? describe : describe.skip)(`TidepoolStore namespace search on ${engine}`, () => {
    it('finds a namespace of one item among others that also match, through the engine\'s key filter', async () => {
      const pg = await openPostgresStore(url!());
      const memory = new Tidepool({ store: pg, config: parseConfig({}), clock: new FixedClock(T0), embedder: undefined, space: 'default', warn: () => undefined }, () => pg.close());
      try {
        // Fewer rows than on SQLite (PGlite is slow to write): this checks the engine's filter, not the crowding.
        await namespaceAmongCrowd(new TidepoolStore(memory), 30);
      } finally {
        await memory.close();
      }
    });
  });
}
