/**
 * What building one PostgreSQL index row costs in Node (issue 20): `tsvectorBinary` over `bench scale`'s synthetic
 * turns, each with its speaker and the four turns before it in its session as context, as `record` builds them.
 * Every pass builds every row once; prints µs per row for each pass (fastest first) and a digest of the bytes of the
 * first pass (equal digests: the same tsvectors across builds). No database is needed.
 * Run: `npx tsx bench/tsvector-build.ts [rows=50000]` (PASSES=n, default 10). Not part of the test suite.
 */
import { createHash } from 'node:crypto';
import { episodeIndexText } from '../src/app/index-text.js';
import { syntheticEpisodes } from '../src/bench/scale/synthetic-episodes.js';
import { tsvectorBinary, type TsvectorLength } from '../src/store/postgres/pg-lexemes.js';

const rows = Number(process.argv[2] ?? 50_000);
const passes = Number(process.env.PASSES ?? 10);
const stream = syntheticEpisodes({ seed: 1 });
const before = new Map<string, string[]>();
const docs = Array.from({ length: rows }, () => {
  const item = stream.next().value;
  const previous = before.get(item.sessionId) ?? [];
  const doc = episodeIndexText(item.text, item.speaker, previous, false);
  before.set(item.sessionId, [...previous, item.text].slice(-4));
  return doc;
});

const times: number[] = [];
let digest = '';
for (let pass = 0; pass < passes; pass++) {
  const hash = createHash('sha1');
  const t0 = performance.now();
  for (const d of docs) {
    const len: TsvectorLength = { length: 0, lexemes: [] };
    const bytes = tsvectorBinary([[d.body, 'A'], [d.extra, 'B'], [d.ctx ?? '', 'C']], len);
    if (pass === 0) hash.update(bytes);
  }
  times.push(performance.now() - t0);
  if (pass === 0) digest = hash.digest('hex').slice(0, 16);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ rows, digest, us_per_row: times.map((t) => Math.round((t * 1000 * 100) / rows) / 100) }));
