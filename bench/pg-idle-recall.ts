/**
 * Recall right after a pause (postgres.idleSeconds): 200 recalls to warm a memory's pool, then rounds of a pause
 * (1 s, 12 s, 1 s, 12 s) followed by 30 recalls, timed, and the same 30 again. With connections closed after 10 s
 * (node-postgres' default), the recalls after a 12 s pause open new server processes.
 * Make a database first: `KEEP=1 npx tsx bench/pg-ingest-profile.ts <postgres url> 100000` prints its URL.
 * Run: `npx tsx bench/pg-idle-recall.ts <url>`; IDLE=<seconds> sets postgres.idleSeconds (else the default).
 * Not part of the test suite.
 */
import { openMemory } from '../src/boot/open-memory.js';
import { queryFor } from '../src/bench/scale/measure-scale-run.js';
import { syntheticEpisodes } from '../src/bench/scale/synthetic-episodes.js';
import { createRng } from '../src/script/seeded-rng.js';

const url = process.argv[2];
if (!url) throw new Error('usage: pg-idle-recall.ts <postgres url>');
// Queries as `bench scale` draws them: 2-3 words of episodes spread over the first 100,000.
const stream = syntheticEpisodes({ seed: 1 });
const sources: string[] = [];
for (let i = 0; i < 100_000 && sources.length < 200; i++) {
  const item = stream.next().value;
  if (i % 500 === 0) sources.push(item.text);
}
const rng = createRng(3);
const queries = sources.map((t) => queryFor(t, rng));
const idle = process.env.IDLE ? { config: { postgres: { idleSeconds: Number(process.env.IDLE) } } } : {};
const m = await openMemory({ url, space: 'scale', embedder: 'none', warn: () => {}, ...idle });
const run = async (n: number): Promise<number[]> => {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await m.recall({ query: queries[i % queries.length]!, limit: 10, layers: ['episode'] }, { sideEffects: false });
    ms.push(performance.now() - t0);
  }
  return ms;
};
const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
await run(200);
for (const pause of [1000, 12000, 1000, 12000]) {
  await new Promise((r) => setTimeout(r, pause));
  const after = await run(30);
  const again = await run(30);
  console.log(
    `after ${pause} ms idle: first 5 ${after.slice(0, 5).map((x) => x.toFixed(1)).join(' ')} ms; ` +
      `30 recalls ${sum(after).toFixed(0)} ms, the same 30 again ${sum(again).toFixed(0)} ms`,
  );
}
await m.close();
