/** The read path: recall ranking and filters, Chinese segmentation, budgets, reinforcement, attention, timeline. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countTokens } from '../src/core/token-count.js';
import { renderHitBlock } from '../src/retrieval/recall-pipeline.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

let t: TempMemory;
beforeEach(async () => {
  t = await tempMemory();
});
afterEach(async () => t.cleanup());

describe('recall', () => {
  it('finds Chinese text by a 2-character word (jieba at index and query time)', async () => {
    await t.memory.remember({ text: '用户爱喝咖啡，每天早上一杯' });
    await t.memory.remember({ text: '用户不喜欢喝茶' });
    const hits = await t.memory.recall({ query: '咖啡' });
    expect(hits[0]!.text).toBe('用户爱喝咖啡，每天早上一杯');
    expect(hits.map((h) => h.text)).not.toContain('用户不喜欢喝茶');
  });

  it('keeps single-character Chinese words of a query (a noun jieba splits: 虎斑猫 → 虎/斑/猫)', async () => {
    await t.memory.remember({ text: '李明领养了一只虎斑猫' });
    await t.memory.remember({ text: '李明领养了一只小狗' });
    const hits = await t.memory.recall({ query: '李明把虎斑猫领回家了吗' });
    expect(hits[0]!.text).toBe('李明领养了一只虎斑猫');
  });

  it("shows a question's hit with its neighbours as context, and a statement's own turns without them", async () => {
    const at = '2026-10-01T00:00:00Z';
    await t.memory.record({
      turns: [
        // Said before the hit, so the hit's words are not in its indexed preceding turns (`ctx`) either.
        { content: 'So what did you sign up for this weekend?', speaker: 'Caroline', session: 's1', at },
        { content: 'I finally joined the pottery workshop downtown', speaker: 'Melanie', session: 's1', at },
        { content: 'My sister started a pottery workshop too', speaker: 'Caroline', session: 's2', at },
      ],
    });
    const asked = await t.memory.recall({ query: 'Which pottery workshop did Melanie join?', layers: ['episode'] });
    expect(asked[0]!.text).toBe('I finally joined the pottery workshop downtown');
    expect(asked[0]!.context?.map((c) => c.text)).toEqual(['So what did you sign up for this weekend?']);
    const stated = await t.memory.recall({ query: 'Melanie joined the pottery workshop', layers: ['episode'] });
    expect(stated.map((h) => h.text)).toEqual(['I finally joined the pottery workshop downtown', 'My sister started a pottery workshop too']);
    expect(stated.every((h) => h.context === undefined)).toBe(true);
  });

  it('ranks a line said in many sessions below one said once (an IDF over whole lines)', async () => {
    const day = (d: number) => `2026-10-0${d}T00:00:00Z`;
    await t.memory.record({
      turns: [
        ...[1, 2, 3].map((d) => ({ content: 'the lake is nice', session: `s${d}`, at: day(d) })),
        { content: 'we swam across the whole lake at dawn, cold but nice', session: 's4', at: day(4) },
        // The same line twice in one conversation is said once there: it keeps its score.
        ...[0, 1].map(() => ({ content: 'a nice lake picnic', session: 's5', at: day(5) })),
      ],
    });
    const hits = await t.memory.recall({ query: 'nice lake', layers: ['episode'] });
    const rank = (text: string) => hits.findIndex((h) => h.text === text);
    expect(rank('we swam across the whole lake at dawn, cold but nice')).toBeLessThan(rank('the lake is nice'));
    expect(rank('a nice lake picnic')).toBeLessThan(rank('the lake is nice'));
    expect(hits.find((h) => h.text === 'the lake is nice')!.repeats).toHaveLength(2);
  });

  it('matches English through Porter stemming', async () => {
    await t.memory.remember({ text: 'Caroline went to the LGBTQ support group on 7 May 2023' });
    const hits = await t.memory.recall({ query: 'support groups' });
    expect(hits[0]!.text).toContain('LGBTQ');
  });

  it('ranks an exact phrase hit first', async () => {
    await t.memory.record({ content: 'release the train and plan the release of the train schedule' });
    await t.memory.record({ content: 'the release plan is ready' });
    const hits = await t.memory.recall({ query: 'release plan' });
    expect(hits[0]!.text).toBe('the release plan is ready');
    expect(hits[0]!.exact).toBe(true);
  });

  it('never returns quarantined knowledge', async () => {
    const r = await t.memory.remember({ text: 'the launch code word is pelican' });
    await appContextOf(t.memory).store.forSpace('default').knowledge.setStatus([Number(r.id.slice(1))], 'quarantined', t.clock.now());
    expect(await t.memory.recall({ query: 'launch code word pelican' })).toEqual([]);
  });

  it('treats query syntax as text (FTS5 operators, quotes, parentheses)', async () => {
    await t.memory.record({ content: 'NEAR the "quoted" AND (grouped) thing OR not' });
    for (const q of ['"', 'NEAR(', 'a AND OR NOT', '*', 'col:val', "'; DROP TABLE episodes; --", '^x']) {
      await expect(t.memory.recall({ query: q })).resolves.toBeInstanceOf(Array);
    }
    const hits = await t.memory.recall({ query: '"quoted" AND (grouped)' });
    expect(hits).toHaveLength(1);
  });

  it('fits the results into max_tokens by dropping whole items', async () => {
    for (let i = 0; i < 20; i++) await t.memory.record({ content: `note ${i} about the lighthouse keeper and the storm at sea` });
    const all = await t.memory.recall({ query: 'lighthouse storm', limit: 20 });
    const budget = 60;
    const fit = await t.memory.recall({ query: 'lighthouse storm', limit: 20, maxTokens: budget });
    expect(fit.length).toBeGreaterThan(0);
    expect(fit.length).toBeLessThan(all.length);
    // Counted as the tools show a hit (the detailed style), one newline between hits.
    const used = fit.reduce((n, h) => n + countTokens(renderHitBlock(h, 'detailed')) + 1, 0);
    expect(used).toBeLessThanOrEqual(budget);
    for (const h of fit) expect(all.map((a) => a.text)).toContain(h.text); // whole texts, never cut
  });

  it('filters by layer, time window and session', async () => {
    await t.memory.record({ turns: [{ content: 'kiwi in session a', session: 'a', at: '2026-10-01T00:00:00Z' }] });
    await t.memory.record({ turns: [{ content: 'kiwi in session b', session: 'b', at: '2026-10-20T00:00:00Z' }] });
    await t.memory.remember({ text: 'kiwi is a fruit' });
    expect((await t.memory.recall({ query: 'kiwi', layers: ['knowledge'] })).map((h) => h.layer)).toEqual(['knowledge']);
    expect((await t.memory.recall({ query: 'kiwi', session: 'a', layers: ['episode'] })).map((h) => h.text)).toEqual(['kiwi in session a']);
    expect((await t.memory.recall({ query: 'kiwi', since: '2026-10-10', layers: ['episode'] })).map((h) => h.text)).toEqual(['kiwi in session b']);
  });

  it('searches inside a date the query names, even past the candidates taken from the whole memory', async () => {
    const small = await tempMemory({ config: { recall: { candidates: 5 } } });
    const off = await tempMemory({ config: { recall: { candidates: 5, timeExpressions: false } } });
    try {
      for (const m of [small, off]) {
        const turns = Array.from({ length: 12 }, (_, i) => ({
          content: `Maria had dinner with friends, dinner again, such a dinner ${i}`, session: `s${i}`, at: `2023-06-${String(i + 10)}T18:00:00Z`,
        }));
        turns.push({ content: 'Maria: went out for dinner with my mother tonight, a long talk', session: 'may', at: '2023-05-03T19:00:00Z' });
        await m.memory.record({ turns });
      }
      const q = 'Who did Maria have dinner with on May 3, 2023?';
      expect((await small.memory.recall({ query: q, layers: ['episode'], limit: 3 }))[0]!.text).toContain('my mother');
      expect((await off.memory.recall({ query: q, layers: ['episode'], limit: 3 })).map((h) => h.text).join()).not.toContain('my mother');
    } finally {
      await small.cleanup();
      await off.cleanup();
    }
  });

  it('counts a turn said after a named window when what it tells happened inside it ("last Friday")', async () => {
    const off = await tempMemory({ config: { recall: { toldWithinDays: 0 } } });
    try {
      const top: string[] = [];
      for (const m of [t, off]) {
        await m.memory.record({
          turns: [
            { content: 'Tim: my trip plans for the UK are all about castles', session: 'a', at: '2023-10-20T10:00:00Z' },
            { content: 'Tim: a trip to the UK is on my list, castles and all', session: 'b', at: '2023-12-20T10:00:00Z' },
            // Thursday 16 November: "last Friday" is the 10th, in the second week of November.
            { content: 'Tim: I saw a castle during my trip to the UK last Friday', session: 'c', at: '2023-11-16T10:00:00Z' },
          ],
        });
        const q = 'Where did Tim go on his trip in the second week of November 2023?';
        top.push((await m.memory.recall({ query: q, layers: ['episode'], limit: 3 }))[0]!.text);
      }
      expect(top[0]).toContain('last Friday');
      expect(top[1]).not.toContain('last Friday');
    } finally {
      await off.cleanup();
    }
  });

  it('weighs the turns of the person a question is about: the first one it names', async () => {
    await t.memory.record({
      turns: [
        { content: 'the adoption plan sounds wonderful to me', speaker: 'Caroline', session: 's', at: '2023-06-01T10:00:00Z' },
        { content: 'small talk about the weather', speaker: 'Caroline', session: 's', at: '2023-06-01T10:01:00Z' },
        { content: 'more small talk about lunch', speaker: 'Melanie', session: 't', at: '2023-06-02T10:01:00Z' },
        { content: 'that adoption plan sounds wonderful to me', speaker: 'Melanie', session: 't', at: '2023-06-02T10:00:00Z' },
      ],
    });
    const hits = await t.memory.recall({ query: "What does Melanie think about Caroline's adoption plan?", layers: ['episode'] });
    expect(hits[0]!.speaker).toBe('Melanie');
    const other = await t.memory.recall({ query: "What does Caroline think about Melanie's adoption plan?", layers: ['episode'] });
    expect(other[0]!.speaker).toBe('Caroline');
  });

  it('answers a "when" question with the turn that says when', async () => {
    await t.memory.record({ turns: [{ content: 'Melanie: camping with the kids is the best, we love camping', session: 'a', at: '2023-06-01T10:00:00Z' }] });
    await t.memory.record({ turns: [{ content: 'Melanie: we went camping with the kids last weekend', session: 'b', at: '2023-06-02T10:00:00Z' }] });
    const when = await t.memory.recall({ query: 'When did Melanie go camping with the kids?', layers: ['episode'] });
    expect(when[0]!.text).toContain('last weekend');
    const what = await t.memory.recall({ query: 'What does Melanie love about camping with the kids?', layers: ['episode'] });
    expect(what[0]!.text).toContain('we love camping');
  });

  it('answers a "when" question from the turns that open a session', async () => {
    const off = await tempMemory({ config: { recall: { openingBoost: 0 } } });
    try {
      const top: string[] = [];
      for (const m of [t, off]) {
        const turns = (session: string, day: string, lines: string[]) =>
          lines.map((content, i) => ({ content, session, speaker: 'John', at: `2023-11-${day}T10:0${i}:00Z` }));
        await m.memory.record({
          turns: [
            ...turns('s1', '10', ['Big news: I toured the old castle in York with my family', 'ok', 'fine', 'good', 'done', 'bye']),
            ...turns('s2', '20', ['hello', 'ok', 'fine', 'good', 'done', 'I toured the castle in York', 'bye']),
          ],
        });
        top.push((await m.memory.recall({ query: 'When did John tour the castle in York?', layers: ['episode'], limit: 3 }))[0]!.text);
      }
      expect(top).toEqual(['Big news: I toured the old castle in York with my family', 'I toured the castle in York']);
    } finally {
      await off.cleanup();
    }
  });

  it('reinforces the knowledge it returns and logs every hit as attention', async () => {
    const r = await t.memory.remember({ text: 'the office wifi is called harbour', importance: 1 });
    const id = Number(r.id.slice(1));
    const before = (await appContextOf(t.memory).store.forSpace('default').knowledge.get(id))!;
    t.clock.advance(60_000);
    await t.memory.recall({ query: 'office wifi' });
    const after = (await appContextOf(t.memory).store.forSpace('default').knowledge.get(id))!;
    expect(after.strength).toBeGreaterThan(before.strength);
    expect(after.lastReinforcedAt).toBe(t.clock.now());
    const log = await appContextOf(t.memory).store.forSpace('default').attention.since(0);
    expect(log).toEqual([expect.objectContaining({ layer: 'knowledge', itemId: id, source: 'recall' })]);
  });

  it('refuses bad input with a message naming the field', async () => {
    await expect(t.memory.recall({ query: 42 as unknown as string })).rejects.toThrow(/^query/);
    await expect(t.memory.recall({ query: '   ' })).rejects.toThrow(/query must not be empty/);
    await expect(t.memory.recall({ query: 'x', limit: 0 })).rejects.toThrow(/^limit/);
    await expect(t.memory.recall({ query: 'x', since: 'yesterday-ish' })).rejects.toThrow(/^since/);
    await expect(t.memory.withSpace('nobody-wrote-here').recall({ query: 'x' })).rejects.toThrow(/does not exist/);
  });

  it('refuses a space again once it was erased, though it was read before', async () => {
    const s = t.memory.withSpace('short-lived');
    await s.remember({ text: 'the kiln runs at night' });
    expect((await s.recall({ query: 'kiln' }))[0]!.text).toContain('kiln');
    await s.forget({ all: true, confirm: true });
    await expect(s.recall({ query: 'kiln' })).rejects.toThrow(/does not exist/);
  });

  it('accepts Tulimoa\'s topic for query', async () => {
    await t.memory.remember({ text: 'open loop: migrate the billing cron' });
    expect((await t.memory.recall({ topic: 'billing cron' }))[0]!.text).toContain('billing');
  });
});

describe('spaces', () => {
  it('two spaces never see each other', async () => {
    await t.memory.withSpace('alice').remember({ text: 'alice likes green tea' });
    await t.memory.withSpace('bob').remember({ text: 'bob likes black tea' });
    expect((await t.memory.withSpace('alice').recall({ query: 'tea' })).map((h) => h.text)).toEqual(['alice likes green tea']);
    expect((await t.memory.withSpace('bob').timeline()).items.map((e) => e.content)).toEqual(['bob likes black tea']);
  });
});

describe('timeline', () => {
  it('pages through history newest first with a total', async () => {
    for (let i = 0; i < 5; i++) await t.memory.record({ content: `turn ${i}`, at: Date.UTC(2026, 9, 1 + i) });
    const p1 = await t.memory.timeline({ limit: 2 });
    const p2 = await t.memory.timeline({ limit: 2, offset: 2 });
    expect(p1.total).toBe(5);
    expect([...p1.items, ...p2.items].map((e) => e.content)).toEqual(['turn 4', 'turn 3', 'turn 2', 'turn 1']);
    const range = await t.memory.timeline({ from: '2026-10-02', to: '2026-10-03', order: 'asc' });
    expect(range.items.map((e) => e.content)).toEqual(['turn 1', 'turn 2']);
  });
});
