/** Per-turn prefetch (T1 lexical and semantic, T4 fallback), rescue before compression, session sync, MemoryProvider. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { checkpoint, getPending, setGoal } from '../src/app/continuity.js';
import { MemoryProvider } from '../src/app/injection/memory-provider.js';
import { prefetch } from '../src/app/injection/prefetch.js';
import { rescueBeforeCompression, syncSessionEnd, syncTurn } from '../src/app/injection/session-sync.js';
import { DAY_MS } from '../src/core/clock.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';
import { seedNarrative } from './injection-seed.js';
import { appContextOf } from '../src/app/tidepool.js';

let mem: TempMemory | undefined;
afterEach(async () => {
  await mem?.cleanup();
  mem = undefined;
});

// An embedding service speaking Tideline's local protocol (POST {texts} → {embeddings}): bag-of-words vectors, so
// texts sharing words are close and a long text sharing one word is far (cosine ≈ 1/√words).
let embedServer: Server;
let embedUrl = '';
beforeAll(async () => {
  embedServer = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const { texts } = JSON.parse(body) as { texts: string[] };
      const embeddings = texts.map((t) => {
        const v = new Array<number>(256).fill(0);
        for (const w of t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
          let h = 0;
          for (const ch of w) h = (h * 31 + ch.codePointAt(0)!) % 256;
          v[h]! += 1;
        }
        return v;
      });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ embeddings }));
    });
  });
  await new Promise<void>((r) => embedServer.listen(0, '127.0.0.1', () => r()));
  embedUrl = `http://127.0.0.1:${(embedServer.address() as AddressInfo).port}/embed_batch`;
});
afterAll(async () => {
  await new Promise<void>((r) => embedServer.close(() => r()));
});

describe('prefetch on the lexical path (no embedder)', () => {
  it('recalls related memories with relative-time labels, logged as t1_prefetch in the session', async () => {
    mem = await tempMemory();
    await mem.memory.remember({ text: 'The staging database listens on port 6543' });
    mem.clock.advance(3 * DAY_MS);
    const r = await prefetch(appContextOf(mem.memory), { text: 'which port does the staging database use?', session: 's1' });
    expect(r.text).toBe('## Related memories (auto-recalled)\n- The staging database listens on port 6543 (fact, 3 days ago)');
    expect(r.hits[0]).toMatchObject({ via: 't1' });
    const logged = await appContextOf(mem.memory).store.forSpace('default').attention.since(0);
    expect(logged.map((l) => [l.source, l.session])).toEqual([['t1_prefetch', 's1']]);
  });

  it('never repeats an item already shown in the same session, but shows it in another', async () => {
    mem = await tempMemory();
    await mem.memory.remember({ text: 'Ana reviews every release note' });
    expect((await prefetch(appContextOf(mem.memory), { text: 'who reviews the release note?', session: 'a' })).hits).toHaveLength(1);
    expect(await prefetch(appContextOf(mem.memory), { text: 'remind me who reviews the release note', session: 'a' })).toEqual({ text: '', hits: [] });
    expect((await prefetch(appContextOf(mem.memory), { text: 'who reviews the release note?', session: 'b' })).hits).toHaveLength(1);
  });

  it('skips messages under 5 characters and fits a token budget with whole lines', async () => {
    mem = await tempMemory();
    for (let i = 0; i < 5; i++) await mem.memory.remember({ text: `Kiln firing note ${i}: cone 6 glaze needs ${'a slow cooling ramp '.repeat(3)}` });
    expect(await prefetch(appContextOf(mem.memory), { text: 'ok?' })).toEqual({ text: '', hits: [], skipped: 'short' });
    const all = await prefetch(appContextOf(mem.memory), { text: 'kiln firing glaze', session: 'x' });
    expect(all.hits).toHaveLength(5);
    const small = await prefetch(appContextOf(mem.memory), { text: 'kiln firing glaze', session: 'y', maxTokens: 60 });
    expect(small.hits.length).toBeGreaterThan(0);
    expect(small.hits.length).toBeLessThan(5);
    for (const h of small.hits) expect(all.hits.map((a) => a.line)).toContain(h.line);
  });
});

describe('prefetch of raw turns', () => {
  it('shows whole turns with date and speaker, with their neighbours when asked, and never repeats them in a session', async () => {
    mem = await tempMemory({ config: { injection: { t1Neighbours: 1, t1Turns: 1 } } });
    const at = mem.clock.now() - 2 * DAY_MS;
    const lines = ['Hi Mel!', 'What have you been up to lately?', 'Researching adoption agencies, it has been my dream to have a family.', 'That is wonderful news!', 'See you soon.'];
    await mem.memory.record({ turns: lines.map((content, i) => ({ role: 'user' as const, speaker: i % 2 ? 'Melanie' : 'Caroline', content, session: 's1', at: at + i * 1000 })) });
    const r = await prefetch(appContextOf(mem.memory), { text: 'What did Caroline research?', session: 'q' });
    const day = new Date(at).toISOString().slice(0, 10);
    expect(r.hits[0]!.line).toBe(
      `- [${day}, 2 days ago] Caroline: Researching adoption agencies, it has been my dream to have a family.\n` +
        '  before: Melanie: What have you been up to lately?\n  after: Melanie: That is wonderful news!',
    );
    // The neighbours were shown with it: a later prefetch in the session does not bring them again.
    const again = await prefetch(appContextOf(mem.memory), { text: 'What has Melanie been up to lately? wonderful news', session: 'q' });
    expect(again.text).not.toContain('What have you been up to lately?');
    expect(again.text).not.toContain('That is wonderful news!');
    const elsewhere = await prefetch(appContextOf(mem.memory), { text: 'What has Melanie been up to lately? wonderful news', session: 'other' });
    expect(elsewhere.text).toContain('That is wonderful news!');
  });
});

describe('prefetch with an embedder (T1 cosine, T4 fallback)', () => {
  it('keeps T1 hits above the cosine floor and skips T4 when T1 found at least 2', async () => {
    mem = await tempMemory({ config: { embedder: { provider: 'tideline', url: embedUrl, attempts: 1 } } });
    await mem.memory.remember({ text: 'kiln glaze cone six' });
    await mem.memory.remember({ text: 'kiln glaze cooling ramp' });
    // Shares "kiln" only, among many other words: cosine ≈ 0.2, under the 0.25 floor.
    await mem.memory.remember({ text: 'kiln one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty' });
    const r = await prefetch(appContextOf(mem.memory), { text: 'kiln glaze', session: 's' });
    expect(r.hits.map((h) => h.via)).toEqual(['t1', 't1']);
    expect(r.hits.every((h) => h.score > 0.25)).toBe(true);
    expect(r.text).not.toContain('twenty');
  });

  it('finds through recall what has no vector yet (a 2-character CJK word included), ranked by recall', async () => {
    mem = await tempMemory({ config: { embedder: { provider: 'tideline', url: embedUrl, attempts: 1 } } });
    await seedNarrative(mem.memory, { gesture: '用户爱喝咖啡，每天早上两杯', weight: 0.5, daysAgo: 2 });
    await seedNarrative(mem.memory, { gesture: 'Kestrel build notes: the cache, the runners, the flaky lock and the long queue', weight: 0.9, daysAgo: 1 });
    await seedNarrative(mem.memory, { gesture: 'Kestrel retro: too many meetings, not enough tests, and a slow review loop', weight: 0.4, daysAgo: 9 });
    const cjk = await prefetch(appContextOf(mem.memory), { text: '我今天想喝咖啡', session: 'z' });
    expect(cjk.text).toBe('## Related memories (auto-recalled)\n- 用户爱喝咖啡，每天早上两杯 (2 days ago)');
    const en = await prefetch(appContextOf(mem.memory), { text: 'what about kestrel?', session: 'z' });
    expect(en.hits.map((h) => [h.via, /^- Kestrel (\w+)/.exec(h.line)?.[1]])).toEqual([['t1', 'build'], ['t1', 'retro']]);
  });

  it('falls back to keywords (T4) when fewer than 2 hits pass the cosine floor', async () => {
    mem = await tempMemory({ config: { embedder: { provider: 'tideline', url: embedUrl, attempts: 1 } } });
    await mem.memory.remember({ text: 'kiln glaze cone six' });
    // Shares "kiln" only, among many other words: below the floor for T1, found again by the keyword fallback.
    await mem.memory.remember({ text: 'kiln one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty' });
    const r = await prefetch(appContextOf(mem.memory), { text: 'kiln glaze', session: 's' });
    expect(r.hits.map((h) => h.via)).toEqual(['t1', 't4']);
    expect(r.text).toMatch(/^## Related memories \(auto-recalled\)\n- kiln glaze cone six .*\n\n## Older memories \(keyword match\)\n- kiln one two/);
  });
});

describe('rescue and session sync', () => {
  it('rescues messages a compression drops, once, and reminds of the goal and the 3 newest weighty narratives', async () => {
    mem = await tempMemory();
    await setGoal(appContextOf(mem.memory), { goal: 'Ship the sync fix' });
    await checkpoint(appContextOf(mem.memory), { plan: 'next: patch the lock owner' });
    for (const [g, w, d] of [['Old heavy', 0.95, 5], ['Heavy A', 0.9, 3], ['Heavy B', 0.8, 2], ['Heavy C', 0.75, 1], ['Light', 0.5, 0]] as const) {
      await seedNarrative(mem.memory, { gesture: g, weight: w, daysAgo: d });
    }
    const messages = [
      { role: 'system', content: 'You are a helpful agent with a very long system prompt.' },
      { role: 'user', content: 'ok' },
      { role: 'user', content: [{ type: 'text', text: 'Please look at the lock owner bug in sync.ts' }, { type: 'image', source: {} }] },
      { role: 'assistant', content: 'The owner is never reset after a timeout, so the next writer waits forever.' },
      { role: 'assistant', content: 'The owner is never reset after a timeout, so the next writer waits forever.' },
    ];
    const r = await rescueBeforeCompression(appContextOf(mem.memory), { session: 's1', messages });
    expect(r.rescued).toBe(2);
    expect(r.reminder).toBe(
      '## Keep in mind (rescued before compression)\n- Goal: Ship the sync fix\n- Checkpoint: next: patch the lock owner\n' +
        '- Heavy C (yesterday)\n- Heavy B (2 days ago)\n- Heavy A (3 days ago)',
    );
    const page = await mem.memory.timeline({ session: 's1', order: 'asc' });
    expect(page.items.map((e) => [e.role, e.content])).toEqual([
      ['user', 'Please look at the lock owner bug in sync.ts'],
      ['assistant', 'The owner is never reset after a timeout, so the next writer waits forever.'],
    ]);
    expect(page.items[0]!.meta).toMatchObject({ rescued: true });
    expect((await rescueBeforeCompression(appContextOf(mem.memory), { session: 's1', messages })).rescued).toBe(0);
    const pending = await getPending(appContextOf(mem.memory), { session: 's1' });
    expect(pending.events.filter((e) => e.kind === 'compaction').map((e) => e.payload)).toEqual([{ rescued: 2 }, { rescued: 0 }]);
  });

  it('syncs each turn and, at session end, only what was not recorded yet', async () => {
    mem = await tempMemory();
    await syncTurn(appContextOf(mem.memory), { user: 'How do I rotate the logs?', assistant: 'Use logrotate with the daily rule.', session: 's' });
    const r = await syncSessionEnd(appContextOf(mem.memory), {
      session: 's',
      messages: [
        { role: 'system', content: 'system prompt' },
        { role: 'user', content: 'How do I rotate the logs?' },
        { role: 'assistant', content: 'Use logrotate with the daily rule.' },
        { role: 'user', content: 'And keep 14 days?' },
      ],
    });
    expect(r).toEqual({ recorded: 1, skipped: 2 });
    const page = await mem.memory.timeline({ session: 's', order: 'asc' });
    expect(page.items.map((e) => e.content)).toEqual(['How do I rotate the logs?', 'Use logrotate with the daily rule.', 'And keep 14 days?']);
    expect(page.items[2]!.meta).toMatchObject({ session_end: true });
  });
});

describe('MemoryProvider (Tideline plugin hooks)', () => {
  it('builds the block once per session, prefetches with a queued result for short messages, syncs and rescues', async () => {
    mem = await tempMemory();
    await mem.memory.writeSelfConcept({ field: 'fact', content: 'I am the Kestrel build agent.' });
    await mem.memory.remember({ text: 'The Kestrel runners use 4 CPU cores' });
    const p = new MemoryProvider(mem.memory, { session: 'rt-1', soul: async () => 'SOUL: patient.' });
    const block = await p.systemPromptBlock();
    expect(block).toContain('SOUL: patient.');
    // What was remembered is in the block; prefetch in this session does not repeat it.
    expect(block).toContain('The Kestrel runners use 4 CPU cores');
    await mem.memory.remember({ text: 'The Kestrel runners use 8 GB of memory' });
    await mem.memory.writeSelfConcept({ field: 'terrain', content: 'Added later.' });
    expect(await p.systemPromptBlock()).toBe(block);
    p.queuePrefetch('how much memory do the Kestrel runners use');
    const queued = await p.prefetch('ok');
    expect(queued).toContain('8 GB of memory');
    expect(queued).not.toContain('4 CPU cores');
    await p.syncTurn('how much memory?', 'They use 8 GB.');
    expect(await p.onPreCompress([{ role: 'user', content: 'a message about to be compressed away' }])).toBe('');
    await p.onSessionEnd([{ role: 'user', content: 'how much memory?' }, { role: 'user', content: 'thanks, bye' }]);
    const turns = (await mem.memory.timeline({ session: 'rt-1', order: 'asc' })).items.map((e) => e.content);
    expect(turns).toEqual(['how much memory?', 'They use 8 GB.', 'a message about to be compressed away', 'thanks, bye']);
    expect(p.isAvailable()).toBe(true);
    await p.shutdown();
    expect(p.isAvailable()).toBe(false);
  });

  it('reports a failing hook through warn and answers empty instead of breaking the turn', async () => {
    mem = await tempMemory();
    const p = new MemoryProvider(mem.memory, { session: 'rt-2' });
    await mem.memory.close();
    expect(await p.prefetch('anything about the kiln?')).toBe('');
    expect(mem.warnings.some((w) => w.startsWith('prefetch failed:'))).toBe(true);
    mem = undefined;
  });
});
