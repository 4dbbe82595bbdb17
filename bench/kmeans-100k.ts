/**
 * One-off timing of the soft clustering at scale (issue: 100,000 × 384-d in well under 60 s on 2 cores).
 * Run: `npx tsx bench/kmeans-100k.ts [N] [dim] [random|clustered]`; prints one JSON line. Not part of the test suite.
 */
import { buildSoftClusters, softClusterCount } from '../src/script/soft-clusters.js';
import { mulberry32 } from '../src/script/seeded-rng.js';

const n = Number(process.argv[2] ?? 100_000);
const dim = Number(process.argv[3] ?? 384);
const shape = process.argv[4] ?? 'random';
const rng = mulberry32(7);
const centers = Array.from({ length: 600 }, () => Float32Array.from({ length: dim }, () => rng() - 0.5));
const items = Array.from({ length: n }, (_, i) => {
  const v = new Float32Array(dim);
  const c = centers[i % centers.length]!;
  for (let q = 0; q < dim; q++)
    v[q] = (shape === 'clustered' ? c[q]! : 0) + (rng() - 0.5) * (shape === 'clustered' ? 0.6 : 1);
  return { id: i + 1, vector: v };
});
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const r = buildSoftClusters(items, { rng: mulberry32(42) });
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    n,
    dim,
    shape,
    k: softClusterCount(n),
    fittedOn: r.fittedOn,
    iterations: r.iterations,
    converged: r.converged,
    memberships: r.memberships.length,
    adjacencyPairs: r.adjacency.length,
    wallSeconds: Number(wall.toFixed(2)),
    cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
    rssMB: Math.round(process.memoryUsage().rss / 1e6),
  }),
);
