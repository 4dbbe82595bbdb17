/** The session-start block on a seeded memory: T0, T2, T2b and T3 rules, the token budget, attention logging. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpoint, setGoal } from '../src/app/continuity.js';
import { fitBlock } from '../src/app/injection/block-budget.js';
import { buildContext } from '../src/app/injection/context-block.js';
import { knowledgeItems } from '../src/app/injection/knowledge-items.js';
import { countTokens } from '../src/core/token-count.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { seedBriefing, seedNarrative, seedTopicCluster } from './injection-seed.js';
import { appContextOf } from '../src/app/tidepool.js';

const HOUR = 3_600_000;
let mem: TempMemory;

beforeEach(async () => {
  mem = await tempMemory();
});
afterEach(async () => {
  await mem.cleanup();
});

/** Lines of one `## Title` section of a block (empty when the section is absent). */
function section(text: string, title: string): string[] {
  const start = text.split('\n').findIndex((l) => l.startsWith(`## ${title}`));
  if (start < 0) return [];
  const rest = text.split('\n').slice(start + 1);
  const end = rest.findIndex((l) => l.startsWith('## '));
  return (end < 0 ? rest : rest.slice(0, end)).filter((l) => l.trim() !== '');
}

async function seedAll(): Promise<Record<string, number>> {
  const m = mem.memory;
  const now = mem.clock.now();
  await m.writeSelfConcept({ field: 'fact', content: 'I am the build agent of the Kestrel project.' });
  await m.writeSelfConcept({ field: 'terrain', content: 'A TypeScript monorepo with a flaky CI.' });
  mem.clock.set(now - 2 * HOUR);
  await m.writeSnapshot({ content: 'Old snapshot: bored.' });
  mem.clock.set(now - HOUR);
  await m.writeSnapshot({ content: 'Newest snapshot: focused on the sync race.' });
  mem.clock.set(now);
  // Weights 2 > 6 > 4 > 3 > 1 > 7 > 5: Thread 6 sits between 4 and 5, Thread 7 just under Thread 1.
  for (const [i, imp, w] of [[1, 2, 2], [2, 5, 5], [3, 3, 3], [4, 4, 4], [5, 1, 1], [6, 5, 4], [7, 1, 2]] as const) {
    await m.writeThread({ content: `Thread ${i}`, importance: imp, emotional: w, unresolved: w, recurrence: w });
  }
  await m.writeThread({ content: 'Explored thread', importance: 5, emotional: 5, unresolved: 5, recurrence: 5, status: 'explored' });
  await seedBriefing(m, '2026-10-31', 'While you were away: 4 new, 2 reinforced, 1 forgotten from 23 episodes.');
  await setGoal(appContextOf(m), { goal: 'Ship the sync fix by Friday' });
  await checkpoint(appContextOf(m), { plan: 'done: repro. next: patch the lock owner.' });
  const ids: Record<string, number> = {};
  ids.p1 = await seedNarrative(m, { gesture: 'I found the race in the lock owner', weight: 0.95, daysAgo: 1, tags: ['sync', 'lock'], direction: 'owners must be explicit' });
  ids.p2 = await seedNarrative(m, { gesture: 'Lock tests flaked again', weight: 0.9, daysAgo: 2, tags: ['lock', 'ci'] });
  ids.p3 = await seedNarrative(m, { gesture: 'Ana approved the design', weight: 0.85, daysAgo: 3, tags: ['review'] });
  ids.p4 = await seedNarrative(m, { gesture: 'The CI cache was poisoned', weight: 0.8, daysAgo: 4, tags: ['ci'] });
  ids.p5 = await seedNarrative(m, { gesture: 'Benchmarks doubled', weight: 0.7, daysAgo: 5, tags: ['perf'] });
  ids.old = await seedNarrative(m, { gesture: 'Ancient heavy memory', weight: 0.99, daysAgo: 10, tags: ['old'] });
  ids.light = await seedNarrative(m, { gesture: 'A light memory', weight: 0.6, daysAgo: 1, tags: ['light'] });
  const turns = Array.from({ length: 7 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', content: i === 6 ? `Turn 6: ${'long words here. '.repeat(40)}` : `Turn ${i} of the bridge session`, session: 'bridge-s', at: now - 30 * HOUR + i * 60_000 }));
  await m.record({ turns: [...turns, { role: 'user', content: 'An older session turn', session: 'older-s', at: now - 40 * HOUR }] });
  for (let i = 0; i < 28; i++) await seedTopicCluster(m, `topic${String(i).padStart(2, '0')}`, 40 - i);
  await seedTopicCluster(m, 'tiny', 4);
  await m.writeProfile({ entity: 'self', profile_type: 'self', content: 'I prefer small, reviewed commits.' });
  await m.writeProfile({ entity: 'Ana', profile_type: 'relationship', content: 'Tech lead; reviews every design.', pinned: true });
  await m.writeProfile({ entity: 'Ana', profile_type: 'impression', content: 'Direct and kind.' });
  await m.writeProfile({ entity: 'Ben', profile_type: 'contact', content: `Ben works on the storage layer and answers on chat within minutes. He owns the backup scripts and the ${'very '.repeat(20)}old cron jobs.` });
  await m.writeProfile({ entity: 'Ben', profile_type: 'impression', content: 'Quiet.' });
  return ids;
}

describe('context block layers', () => {
  it('omits every section of an empty memory and only the empty ones otherwise', async () => {
    expect((await buildContext(appContextOf(mem.memory), {})).text).toBe('');
    await mem.memory.writeSelfConcept({ field: 'fact', content: 'I am new here.' });
    const b = await buildContext(appContextOf(mem.memory), {});
    expect(b.text).toBe('# Memory (Tidepool)\n\n## Who I am\n- fact: I am new here.\n');
    expect(b.sections).toEqual([{ id: 'identity', layer: 'T0', items: 1 }]);
  });

  it("keeps the night's self-image (self_image.*) out of T0: Who I am shows the self-concept, `self` shows the image", async () => {
    const m = mem.memory;
    await m.writeSelfConcept({ field: 'fact', content: 'I am the build agent of the Kestrel project.' });
    // The sleep's self-image phase writes its parts into the same table under their prefix.
    await appContextOf(m).store.forSpace(m.space).identity.upsertSelfConcept('self_image.works_on', 'the sync race', mem.clock.now());
    const b = await buildContext(appContextOf(m), {});
    expect(section(b.text, 'Who I am')).toEqual(['- fact: I am the build agent of the Kestrel project.']);
    expect(b.text).not.toContain('self_image');
    expect(b.text).not.toContain('the sync race');
    expect((await m.readSelf()).image).toEqual({ works_on: 'the sync race' });
  });

  it('anchors identity (T0): SOUL.md first, self-concept, goal and checkpoint, newest snapshot, top 5 open threads, briefing headline', async () => {
    await seedAll();
    const b = await buildContext(appContextOf(mem.memory), { soul: '# SOUL\nI am careful and kind.' });
    const who = section(b.text, 'Who I am');
    expect(who.slice(0, 2)).toEqual(['# SOUL', 'I am careful and kind.']);
    expect(who).toContain('- fact: I am the build agent of the Kestrel project.');
    expect(section(b.text, 'Current goal')).toEqual([
      'Goal: Ship the sync fix by Friday (set today)',
      'Checkpoint (today): done: repro. next: patch the lock owner.',
    ]);
    expect(section(b.text, 'Latest state')).toEqual(['Newest snapshot: focused on the sync race. (today)']);
    const threads = section(b.text, 'Open threads');
    expect(threads).toHaveLength(5);
    expect(threads.map((t) => t.replace(/ \(w=.*$/, ''))).toEqual(['- Thread 2', '- Thread 6', '- Thread 4', '- Thread 3', '- Thread 1']);
    expect(b.text).not.toContain('Explored thread');
    expect(section(b.text, 'Morning briefing')[0]).toMatch(/^While you were away: 4 new, 2 reinforced, 1 forgotten from 23 episodes\. \(2026-10-31/);
  });

  it('carries what the memory knows: preferences and facts, open problems, what needs review; stale entries lose first', async () => {
    const m = mem.memory;
    const now = mem.clock.now();
    // Stored 80 days ago and never used since: its strength has decayed to about a sixth.
    mem.clock.set(now - 80 * 24 * HOUR);
    await m.remember({ text: 'The old build server is called Heron' });
    mem.clock.set(now - 24 * HOUR);
    await m.remember({ text: 'Ana prefers squash merges', kind: 'preference' });
    await m.remember({ text: 'The staging Postgres listens on port 6543', key: 'staging.pg.port' });
    await m.remember({ text: 'Flaky lock test in sync.ts still fails on CI', kind: 'open_problem' });
    mem.clock.set(now);
    const against = (await appContextOf(m).store.forSpace(m.space).knowledge.getLiveByKey('staging.pg.port'))!.id;
    await appContextOf(m).store.forSpace(m.space).knowledge.insert({
      kind: 'fact', key: null, subject: null, content: 'The staging Postgres moved to port 5433', status: 'quarantined',
      occurrences: 1, strength: 0.5, importance: 3, durable: false, tags: [], evidence: { episodes: [], narratives: [] },
      source: 'sleep', validFrom: now, validTo: null, createdAt: now,
      meta: { quarantine: { conflictsWith: against, reason: 'contradicts reliable knowledge' } },
      embedPending: false, index: { body: 'the staging postgres moved to port 5433', extra: '', raw: 'The staging Postgres moved to port 5433' },
    });
    const b = await buildContext(appContextOf(m), { session: 'k-s' });
    const knows = section(b.text, 'What I know about working with you');
    expect(knows[0]).toBe('- Ana prefers squash merges (preference, yesterday)');
    expect(knows).toContain('- The staging Postgres listens on port 6543 (fact, yesterday)');
    expect(knows[knows.length - 1]).toBe('- The old build server is called Heron (fact, 2 months ago)');
    expect(section(b.text, 'Open problems')).toEqual(['- Flaky lock test in sync.ts still fails on CI (yesterday)']);
    const review = section(b.text, 'Needs review');
    expect(review[0]).toBe('1 entry waits for a person\'s verdict (call review).');
    expect(review[1]).toMatch(/^- k\d+: The staging Postgres moved to port 5433 — clashes with k\d+: The staging Postgres listens on port 6543$/);
    // A tight budget drops the stale fact before the fresh ones.
    const known = (await knowledgeItems(appContextOf(m), 'en')).filter((i) => i.section === 'knows');
    const full = fitBlock(known, 10_000);
    const tight = fitBlock(known, full.tokens - 3);
    expect(tight.dropped.map((i) => i.text)).toEqual(['- The old build server is called Heron (fact, 2 months ago)']);
  });

  it('picks the prefetch pool (T2): weight above 0.6, last 7 days, heaviest first, 3 that share no tag', async () => {
    const ids = await seedAll();
    const b = await buildContext(appContextOf(mem.memory), { session: 'pool-s' });
    // p2 shares "lock" with p1 and is skipped, so p4's "ci" is still free; p5 would be a fourth; old and light never qualify.
    expect(section(b.text, 'Weighty recent memories')).toEqual([
      '- I found the race in the lock owner → owners must be explicit',
      '- Ana approved the design',
      '- The CI cache was poisoned',
    ]);
    expect(b.injected.filter((i) => i.startsWith('n'))).toEqual([`n${ids.p1}`, `n${ids.p3}`, `n${ids.p4}`]);
    // The bridge's turns are logged too, so prefetch does not bring them again in this session.
    const bridged = b.injected.filter((i) => i.startsWith('e'));
    expect(bridged).toHaveLength(section(b.text, 'Last conversation').length);
    const logged = await appContextOf(mem.memory).store.forSpace('default').attention.injectedInSession('pool-s');
    expect(logged.filter((l) => l.layer === 'narrative').map((l) => `${l.layer}:${l.itemId}`).sort()).toEqual([ids.p1, ids.p3, ids.p4].map((id) => `narrative:${id}`).sort());
    expect(logged.filter((l) => l.layer === 'episode').map((l) => `e${l.itemId}`).sort()).toEqual([...bridged].sort());
    const sources = await appContextOf(mem.memory).store.forSpace('default').attention.since(0);
    expect(new Set(sources.map((s) => s.source))).toEqual(new Set(['t0_inject']));
  });

  it('bridges the last conversation (T2b): one session, widening 24 → 48 h, its newest 5 turns in order, each ≤ 400 chars', async () => {
    await seedAll();
    const b = await buildContext(appContextOf(mem.memory), {});
    const head = b.text.split('\n').find((l) => l.startsWith('## Last conversation'));
    expect(head).toBe('## Last conversation (session bridge-s, yesterday)');
    const lines = section(b.text, 'Last conversation');
    expect(lines.map((l) => /^- (\w+): Turn (\d)/.exec(l)?.slice(1).join(' '))).toEqual(['user 2', 'assistant 3', 'user 4', 'assistant 5', 'user 6']);
    expect(lines[4]!.length - '- user: '.length).toBeLessThanOrEqual(400);
    expect(b.text).not.toContain('An older session turn');
    // A turn 2 hours ago opens the 24 h window: that session wins.
    await mem.memory.record({ content: 'Fresh question about the kiln', session: 'fresh-s', at: mem.clock.now() - 2 * 3_600_000 });
    const fresh = await buildContext(appContextOf(mem.memory), {});
    expect(section(fresh.text, 'Last conversation')).toEqual(['- user: Fresh question about the kiln']);
  });

  it('maps the memory (T3): top 25 topics with at least 5 members, self and pinned profiles in full, others one line ≤ 100 chars', async () => {
    await seedAll();
    const b = await buildContext(appContextOf(mem.memory), {});
    const topics = section(b.text, 'Memory map')[0]!.replace(/^Topics: /, '').split(' · ');
    expect(topics).toHaveLength(25);
    expect(topics[0]).toBe('topic00(40)');
    expect(topics[24]).toBe('topic24(16)');
    expect(b.text).not.toContain('tiny(');
    const people = section(b.text, 'People');
    expect(people[0]).toBe('- self');
    expect(people).toContain('  - self: I prefer small, reviewed commits.');
    expect(people).toContain('- Ana (pinned)');
    expect(people).toContain('  - relationship: Tech lead; reviews every design.');
    expect(people).toContain('  - impression: Direct and kind.');
    const ben = people.find((l) => l.startsWith('- Ben: '))!;
    expect(ben.length - '- Ben: '.length).toBeLessThanOrEqual(100);
    expect(ben).toBe('- Ben: Ben works on the storage layer and answers on chat within minutes.');
    expect(b.text).not.toContain('Quiet.');
  });

  it('shows at most 2 pinned profiles in full, the most recently updated; further pins get one line (SEEDS §1.6 T3b)', async () => {
    for (const [i, entity] of ['Cai', 'Dee', 'Eli'].entries()) {
      mem.clock.advance(60_000);
      await mem.memory.writeProfile({ entity, profile_type: 'relationship', content: `${entity} is pin number ${i + 1}.`, pinned: true });
    }
    const people = section((await buildContext(appContextOf(mem.memory), {})).text, 'People');
    expect(people).toContain('- Eli (pinned)');
    expect(people).toContain('- Dee (pinned)');
    expect(people).not.toContain('- Cai (pinned)');
    expect(people).toContain('- Cai: Cai is pin number 1.');
  });
});

describe('context block budget', () => {
  it('fits every budget with the real tokenizer by dropping whole items, lowest value first', async () => {
    await seedAll();
    const full = await buildContext(appContextOf(mem.memory), { maxTokens: 100_000, soul: 'I am careful and kind.' });
    expect(full.dropped).toBe(0);
    const fullLines = new Set(full.text.split('\n'));
    for (const budget of [4000, 900, 600, 350, 200, 120, 60]) {
      const b = await buildContext(appContextOf(mem.memory), { maxTokens: budget, soul: 'I am careful and kind.' });
      expect(countTokens(b.text), `budget ${budget}`).toBe(b.tokens);
      expect(b.tokens, `budget ${budget}`).toBeLessThanOrEqual(budget);
      // Never cut: every line of a tight block is a line of the full block, except the topics line, which loses topics.
      for (const line of b.text.split('\n')) if (!line.startsWith('Topics: ')) expect(fullLines.has(line), line).toBe(true);
    }
    const tight = await buildContext(appContextOf(mem.memory), { maxTokens: 350, soul: 'I am careful and kind.' });
    expect(tight.dropped).toBeGreaterThan(0);
    expect(tight.text).toContain('I am careful and kind.');
    expect(tight.text).toContain('- fact: I am the build agent of the Kestrel project.');
    expect(tight.text).toContain('Goal: Ship the sync fix by Friday');
    // The cheapest layers go first: other people's one-liners and the topic map before the identity anchor.
    expect(tight.text).not.toContain('- Ben: ');
    expect(tight.text).not.toContain('topic24');
  });

  it('uses injection.maxTokens (default 4000) when no budget is given', async () => {
    await seedAll();
    const b = await buildContext(appContextOf(mem.memory), {});
    expect(b.maxTokens).toBe(4000);
    expect(b.tokens).toBeLessThanOrEqual(4000);
  });
});
