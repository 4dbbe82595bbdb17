/**
 * µs per `findSecrets` call on `bench scale`'s synthetic turns and on short labels, for the detector and for the
 * reference copy of it at 7b39ffc. Run: `npx tsx bench/detector-cost.ts [turns=20000] [rounds=5]`. Not part of the suite.
 */
import { syntheticEpisodes } from '../src/bench/scale/synthetic-episodes.js';
import { findSecrets } from '../src/script/secret-scan.js';
import { findSecrets as findSecretsBefore } from '../src/script/secret-scan-reference.test-helper.js';

const n = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 5);
const stream = syntheticEpisodes({ seed: 1 });
const turns: string[] = [];
const labels: string[] = [];
for (let i = 0; i < n; i++) {
  const e = stream.next().value;
  turns.push(e.text);
  if (i < 2000) labels.push(e.speaker, e.sessionId, e.id, e.role);
}
labels.push('alice', 's12', 'assistant', 'user');

const perCall = (find: (t: string) => unknown, texts: string[]): number => {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (const t of texts) find(t);
    best = Math.min(best, ((performance.now() - t0) * 1000) / texts.length);
  }
  return Math.round(best * 100) / 100;
};
const avgLen = Math.round(turns.reduce((s, t) => s + t.length, 0) / turns.length);
for (const [name, find] of [['before', findSecretsBefore], ['after', findSecrets], ['before', findSecretsBefore], ['after', findSecrets]] as const) {
  console.log(JSON.stringify({ impl: name, turns: n, avg_chars: avgLen, us_per_turn: perCall(find, turns), labels: labels.length, us_per_label: perCall(find, labels) }));
}
