/**
 * Recall while turns are being recorded (issue 20): on a kept database, one turn recorded, then one recall of a query
 * whose words are all common (the planner then compares them by their newest matches), repeated. Prints the recalls'
 * p50 / p90 and, on PostgreSQL, how many newest-match walks (`recentMatches`) they sent. A recorded turn changes the
 * index's top id, which a planner memo keyed by the exact top forgot at every write.
 * Make a database first: `KEEP=1 npx tsx bench/pg-ingest-profile.ts <postgres url | sqlite:> 100000` prints its URL or
 * file. Run: `npx tsx bench/recall-between-writes.ts <postgres url | sqlite file> [rounds=60]`. It adds `rounds` turns
 * to the database. Not part of the test suite.
 */
import { openMemory } from '../src/boot/open-memory.js';
import { syntheticEpisodes } from '../src/bench/scale/synthetic-episodes.js';
import { timePgStatements } from './pg-statement-timer.js';

const at = process.argv[2];
if (!at) throw new Error('usage: recall-between-writes.ts <postgres url | sqlite file> [rounds]');
const rounds = Number(process.argv[3] ?? 60);
/** Not timed: the first rounds load modules and open connections. */
const WARM = 6;
// Queries of `bench scale` whose words are all in more than 5 % of the 100k corpus's rows.
const QUERIES = ['check thursday amara', 'like rupert report', 'rigan remember yusuf'];

let walks = 0;
timePgStatements((text) => {
  if (/count\(\*\) AS c, min\(id\) AS low/.test(text)) walks++;
  return () => {};
});
const m = await openMemory({ ...(at.startsWith('postgres') ? { url: at } : { path: at }), space: 'scale', embedder: 'none', warn: () => {} });
try {
  const stream = syntheticEpisodes({ seed: 7 });
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const it = stream.next().value;
    await m.record({ turns: [{ role: it.role, content: it.text, speaker: it.speaker, session: it.sessionId, at: it.at }] });
    const t0 = performance.now();
    await m.recall({ query: QUERIES[i % QUERIES.length]!, limit: 10, layers: ['episode'] }, { sideEffects: false });
    if (i >= WARM) ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(ms.length * p))]! * 10) / 10;
  console.log(JSON.stringify({ rounds, p50_ms: q(0.5), p90_ms: q(0.9), walks }));
} finally {
  await m.close();
}
