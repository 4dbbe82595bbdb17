/**
 * Time-scoped word search after history was imported between live turns (issue 20): `bench scale`'s synthetic
 * corpus (its turns run from 2024 to 2037, so "last week" falls inside it) written first, then 100 turns of the last
 * 25 days written after it, as a user's live turns are after an import. A window such as "last week" then holds rows
 * at both ends of the id range. The 200 queries of `bench scale` at this size are asked through `recall` (lexical,
 * no embedder), twice; the second pass is timed. Prints p50 / p95 / max, how many queries named a time window, and a
 * digest of the hit ids (equal digests: equal answers across builds).
 * Run: `npx tsx bench/time-window-queries.ts <sqlite file | postgres url> [size=100000]`; a memory that already holds
 * turns is asked as it is (fill it once, then compare builds on it). Not part of the test suite.
 */
import { createHash } from 'node:crypto';
import { appContextOf } from '../src/app/tidepool.js';
import { openMemory } from '../src/boot/open-memory.js';
import { queryFor } from '../src/bench/scale/measure-scale-run.js';
import { syntheticEpisodes } from '../src/bench/scale/synthetic-episodes.js';
import { createRng } from '../src/script/seeded-rng.js';

const url = process.argv[2];
if (!url) throw new Error('usage: time-window-queries.ts <sqlite file | postgres url> [size]');
const size = Number(process.argv[3] ?? 100_000);
const count = 200;
const onPg = url.startsWith('postgres');
const m = await openMemory({ ...(onPg ? { url } : { path: url }), space: 'scale', embedder: 'none', warn: () => {} });
const held = await appContextOf(m).store.forSpace('scale').episodes.timeline({ limit: 1, offset: 0, order: 'desc', includeArchived: true });
const fresh = held.total === 0;
const stream = syntheticEpisodes({ seed: 1 });
const every = Math.max(1, Math.floor(size / count));
const sources: string[] = [];
for (let done = 0; done < size; ) {
  const turns = [];
  for (; turns.length < 1000 && done < size; done++) {
    const i = stream.next().value;
    if (done % every === 0 && sources.length < count) sources.push(i.text);
    turns.push({ role: i.role, content: i.text, speaker: i.speaker, session: i.sessionId, at: i.at, ref: i.id });
  }
  if (fresh) await m.record({ turns });
}
if (fresh) {
  const live = syntheticEpisodes({ seed: 7 });
  const now = Date.now();
  const turns = Array.from({ length: 100 }, (_, k) => {
    const i = live.next().value;
    return { role: i.role, content: i.text, speaker: i.speaker, session: `live-${Math.floor(k / 10)}`, at: now - (100 - k) * 6 * 3_600_000 };
  });
  await m.record({ turns });
}
const rng = createRng(1 ^ size);
const queries = sources.map((t) => queryFor(t, rng));
const digest = createHash('sha256');
let ms: number[] = [];
for (let pass = 0; pass < 2; pass++) {
  ms = [];
  for (const q of queries) {
    const t0 = performance.now();
    const hits = await m.recall({ query: q, limit: 10, layers: ['episode'] }, { sideEffects: false });
    ms.push(performance.now() - t0);
    if (pass === 1) digest.update(`${q}\t${hits.map((h) => h.id).join(',')}\n`);
  }
}
const sorted = [...ms].sort((a, b) => a - b);
const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! * 10) / 10;
console.log(JSON.stringify({ size, queries: queries.length, p50_ms: at(0.5), p95_ms: at(0.95), max_ms: at(1), digest: digest.digest('hex').slice(0, 16) }));
await m.close();
