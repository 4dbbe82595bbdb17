// Dense, clustered, unit-length vectors: closer to a sentence encoder's output than the hashing embedder's sparse
// word features, and the case an ANN index is tuned for (the quantisation microbenchmark of docs/BENCHMARKS.md).
import { createRng } from '../../script/seeded-rng.js';

/** `count` unit vectors of `dim` dimensions around `centres` Gaussian centres, and `queries` more near random centres. */
export function clusteredVectors(o: { count: number; queries: number; dim?: number; centres?: number; spread?: number; seed?: number }): {
  vectors: Float32Array[];
  queries: Float32Array[];
} {
  const dim = o.dim ?? 384;
  const rng = createRng(o.seed ?? 1);
  const gauss = () => Math.sqrt(-2 * Math.log(rng.next() || 1e-12)) * Math.cos(2 * Math.PI * rng.next());
  const centres = Array.from({ length: o.centres ?? 100 }, () => Float32Array.from({ length: dim }, gauss));
  const spread = o.spread ?? 0.6;
  const near = (): Float32Array => {
    const c = centres[Math.floor(rng.next() * centres.length)]!;
    const v = Float32Array.from(c, (x) => x + spread * gauss());
    let n = 0;
    for (const x of v) n += x * x;
    n = Math.sqrt(n) || 1;
    return v.map((x) => x / n);
  };
  return { vectors: Array.from({ length: o.count }, near), queries: Array.from({ length: o.queries }, near) };
}
