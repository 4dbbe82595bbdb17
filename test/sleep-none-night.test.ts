/** A night without a model after an import: extractive narratives feed topics, the entity graph and the block. */
import { afterEach, describe, expect, it } from 'vitest';
import { buildContext } from '../src/app/injection/context-block.js';
import { prefetch } from '../src/app/injection/prefetch.js';
import { readGraph } from '../src/app/read-graph.js';
import { sleep } from '../src/app/sleep.js';
import { tempMemory, T0, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

const DAY = 86_400_000;
let tm: TempMemory;
afterEach(async () => tm?.cleanup());

// A week of talk between two friends, recorded as an import would (durable, happened weeks before it was stored).
const WEEK: Array<[string, string]> = [
  ['Caroline', 'I went to the LGBTQ support group yesterday and it was so powerful.'],
  ['Melanie', 'That sounds wonderful! What happened at the support group?'],
  ['Caroline', 'People shared their transgender stories, and I felt accepted and inspired.'],
  ['Melanie', 'I painted a lake sunrise with the kids last weekend in Boulder.'],
  ['Caroline', 'Researching adoption agencies has been my project this week; I want a family.'],
  ['Melanie', 'Adoption agencies take time. Ask Maria at Bright Futures, she adopted twice.'],
  ['Caroline', 'Thanks! Counseling and mental health work are what I want to study next.'],
  ['Melanie', 'Pottery class helps me relax; the kids love painting pottery with me.'],
];

describe('sleep --model none on an imported history', () => {
  it('writes extractive narratives linked to their turns, so topics, the graph and the block have material', async () => {
    tm = await tempMemory();
    const turns = [0, 1, 2].flatMap((d) =>
      WEEK.map(([speaker, content], i) => ({
        role: 'user' as const, speaker, content: `${content} (day ${d + 1})`, session: `s${d}`, at: T0 - (30 - d) * DAY + i * 60_000,
      })),
    );
    await tm.memory.record({ turns }, { source: 'import', durable: true });
    // Stored just now, happened a month ago: eligible at once.
    const night = await sleep(appContextOf(tm.memory), { model: 'none', now: T0 + 60_000 });
    expect(night).toMatchObject({ kind: 'slept' });
    const narratives = await appContextOf(tm.memory).store.forSpace(tm.memory.space).narratives.list({ limit: 100 });
    expect(narratives.length).toBeGreaterThanOrEqual(3);
    expect(narratives.every((n) => n.ntype === 'extractive' && n.sourceLinks.length >= 3)).toBe(true);
    // Each gesture is a whole turn of its run, with its speaker.
    expect(narratives.every((n) => WEEK.some(([who, said]) => n.gesture?.startsWith(`${who}: ${said}`)))).toBe(true);
    await tm.memory.scriptAll();
    const graph = await readGraph(appContextOf(tm.memory), {});
    expect(graph.kind).toBe('top');
    const names = graph.kind === 'top' ? graph.nodes.map((n) => n.entity) : [];
    expect(names).toEqual(expect.arrayContaining(['Caroline', 'Melanie']));
    const topics = await appContextOf(tm.memory).store.forSpace(tm.memory.space).derived.topicClusters({ minSize: 1, limit: 50 });
    expect(topics.length).toBeGreaterThan(0);
    const block = await buildContext(appContextOf(tm.memory), { session: 'new' });
    expect(block.tokens).toBeGreaterThan(150);
    // The turn itself is found (a narrative quoting it is not in the search index and cannot crowd it out).
    const p = await prefetch(appContextOf(tm.memory), { text: 'What did Caroline research?', session: 'new' });
    expect(p.hits[0]!.id).toMatch(/^e\d+$/);
    expect(p.text).toMatch(/Caroline: Researching adoption agencies has been my project this week; I want a family\. \(day \d\)/);
  });
});
