/** Seeded k-means under cosine similarity with soft top-m membership (SEEDS §1.7 soft clustering). */
import { TidepoolError } from '../core/errors.js';
import { DotKernel, type DotEngine } from './dot-kernel.js';
import { randomInt, sampleIndices, type Rng } from './seeded-rng.js';

/** Options of {@link cosineKMeans}. */
export interface CosineKMeansOptions {
  /** Number of clusters, 1 ≤ k ≤ N. */
  k: number;
  /** Seeded randomness (e.g. `mulberry32(42)`): the same rng state gives the same clusters. */
  rng: Rng;
  /** Iteration cap (SEEDS §1.7: at most 100). */
  maxIterations?: number;
  /** Stop when no centroid coordinate moves more than this (SEEDS §1.7: 1e-6). */
  tolerance?: number;
  /**
   * Above this many vectors the centroids are fitted on a seeded sample of this size and every vector is then
   * assigned to them in one pass; at or below it the fit uses every vector (exactly the seed's algorithm).
   */
  fitSampleSize?: number;
  /**
   * The k-means++ draw looks at a seeded subset of the fitted vectors of this size (default max(2000, 10·k)):
   * each of the k draws streams every candidate through memory once, which dominated the run time at 100k.
   */
  seedSampleSize?: number;
  /** How many nearest clusters each vector keeps (SEEDS §1.7: top 3). */
  memberships?: number;
  /** Makes the dot-product engine of one run; `bench script` compares the two engines on the same vectors. */
  dotEngine?: () => DotEngine;
}

/** The fitted clusters and every vector's nearest clusters. */
export interface CosineKMeansResult {
  k: number;
  dim: number;
  /** Centroid j: the unnormalised mean of its members' unit vectors (SEEDS §1.7). */
  centroids: Float32Array[];
  /** Row-major N × m: the m nearest cluster indices of each vector, nearest first. */
  nearest: Int32Array;
  /** Row-major N × m: the cosine similarity to each of those clusters. */
  similarity: Float32Array;
  /** Memberships kept per vector (min(memberships, k)). */
  m: number;
  iterations: number;
  converged: boolean;
  /** Number of vectors the centroids were fitted on. */
  fittedOn: number;
}

/** Defaults: SEEDS §1.7 (100 iterations, 1e-6, top 3); the fit sample keeps 100k × 384-d under ~20 s on 2 cores. */
export const KMEANS_DEFAULTS = {
  maxIterations: 100,
  tolerance: 1e-6,
  fitSampleSize: 20_000,
  memberships: 3,
} as const;

const SEED_SAMPLE_MIN = 2_000;
const SEED_SAMPLE_PER_CLUSTER = 10;
const BLOCK = 256; // rows scored per kernel call: 256 × 384 floats stay in L2 while the centroids stream by

/**
 * k-means with k-means++-style seeding (each next centroid drawn with probability ∝ max(0, 1 − max cos to the
 * chosen ones)), assignment by argmax cosine and centroids as unnormalised means of unit vectors.
 * Zero vectors are allowed and sit at cosine 0 from everything. Deterministic for a given rng state.
 */
export function cosineKMeans(
  vectors: readonly ArrayLike<number>[],
  opts: CosineKMeansOptions,
): CosineKMeansResult {
  const n = vectors.length;
  const dim = vectors[0]?.length ?? 0;
  if (n === 0 || dim === 0)
    throw new TidepoolError('invalid_input', 'k-means needs at least one non-empty vector');
  if (!Number.isInteger(opts.k) || opts.k < 1 || opts.k > n) {
    throw new TidepoolError('invalid_input', `k must be an integer in 1..${n}`, { field: 'k' });
  }
  const k = opts.k;
  const maxIter = opts.maxIterations ?? KMEANS_DEFAULTS.maxIterations;
  const tol = opts.tolerance ?? KMEANS_DEFAULTS.tolerance;
  const m = Math.min(opts.memberships ?? KMEANS_DEFAULTS.memberships, k);
  const dp = Math.ceil(dim / 4) * 4;
  const kp = Math.ceil(k / 2) * 2;
  const kern = opts.dotEngine?.() ?? new DotKernel();

  const xAt = kern.alloc(pad4(n) * dp);
  writeUnitRows(kern, xAt, vectors, dim, dp);
  const sampleSize = Math.min(n, opts.fitSampleSize ?? KMEANS_DEFAULTS.fitSampleSize);
  const fitAt = sampleSize < n ? copyRows(kern, xAt, sampleIndices(opts.rng, n, sampleSize), dp) : xAt;
  const seedSize = Math.min(
    sampleSize,
    opts.seedSampleSize ?? Math.max(SEED_SAMPLE_MIN, SEED_SAMPLE_PER_CLUSTER * k),
  );
  const seedAt =
    seedSize < sampleSize ? copyRows(kern, fitAt, sampleIndices(opts.rng, sampleSize, seedSize), dp) : fitAt;
  const cAt = kern.alloc(kp * dp);
  const outAt = kern.alloc(Math.max(BLOCK * kp, pad4(sampleSize)));

  const means = seedCentroids(kern, seedAt, seedSize, k, dp, outAt, opts.rng);
  const assign = new Int32Array(sampleSize).fill(-1);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIter && !converged) {
    iterations++;
    writeUnitCentroids(kern, cAt, means, k, dp);
    let changed = 0;
    scoreRows(kern, fitAt, sampleSize, cAt, kp, dp, outAt, (row, scores, base) => {
      let best = 0;
      let bestV = -Infinity;
      for (let j = 0; j < k; j++) {
        const v = scores[base + j]!;
        if (v > bestV) {
          bestV = v;
          best = j;
        }
      }
      if (assign[row] !== best) changed++;
      assign[row] = best;
    });
    const shift = updateMeans(kern.f32(), fitAt / 4, assign, means, k, dp);
    converged = changed === 0 || shift < tol;
  }

  writeUnitCentroids(kern, cAt, means, k, dp);
  const nearest = new Int32Array(n * m);
  const similarity = new Float32Array(n * m);
  scoreRows(kern, xAt, n, cAt, kp, dp, outAt, (row, scores, base) =>
    topM(scores, base, k, m, row, nearest, similarity),
  );
  const centroids = means.map((c) => Float32Array.from(c.subarray(0, dim)));
  return { k, dim, centroids, nearest, similarity, m, iterations, converged, fittedOn: sampleSize };
}

function pad4(n: number): number {
  return Math.ceil(n / 4) * 4;
}

/** Copies the chosen rows into a fresh contiguous region and returns its byte offset. */
function copyRows(kern: DotEngine, from: number, rows: Int32Array, dp: number): number {
  const at = kern.alloc(pad4(rows.length) * dp);
  const f = kern.f32();
  rows.forEach((row, s) => f.copyWithin(at / 4 + s * dp, from / 4 + row * dp, from / 4 + row * dp + dp));
  return at;
}

function writeUnitRows(
  kern: DotEngine,
  at: number,
  vectors: readonly ArrayLike<number>[],
  dim: number,
  dp: number,
): void {
  const f = kern.f32();
  vectors.forEach((v, i) => {
    if (v.length !== dim)
      throw new TidepoolError('invalid_input', `vector ${i} has ${v.length} dimensions, not ${dim}`);
    let norm = 0;
    for (let q = 0; q < dim; q++) norm += v[q]! * v[q]!;
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const o = at / 4 + i * dp;
    for (let q = 0; q < dim; q++) f[o + q] = v[q]! * inv;
  });
}

/** SEEDS §1.7 seeding: the first centroid uniformly, each next one ∝ max(0, 1 − max cos to those chosen). */
function seedCentroids(
  kern: DotEngine,
  at: number,
  n: number,
  k: number,
  dp: number,
  outAt: number,
  rng: Rng,
): Float64Array[] {
  const maxCos = new Float64Array(n).fill(-Infinity);
  const chosen: number[] = [randomInt(rng, n)];
  while (true) {
    const f0 = kern.f32();
    kern.dots(at, pad4(n), at + chosen[chosen.length - 1]! * dp * 4, dp, outAt);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const c = f0[outAt / 4 + i]!;
      if (c > maxCos[i]!) maxCos[i] = c;
      total += Math.max(0, 1 - maxCos[i]!);
    }
    if (chosen.length === k) break;
    chosen.push(total > 0 ? drawWeighted(maxCos, total, rng()) : firstUnchosen(chosen, n));
  }
  const f = kern.f32();
  return chosen.map((row) => Float64Array.from(f.subarray(at / 4 + row * dp, at / 4 + row * dp + dp)));
}

function drawWeighted(maxCos: Float64Array, total: number, u: number): number {
  const target = u * total;
  let acc = 0;
  let last = 0;
  for (let i = 0; i < maxCos.length; i++) {
    const w = Math.max(0, 1 - maxCos[i]!);
    if (w <= 0) continue;
    acc += w;
    last = i;
    if (acc > target) return i;
  }
  return last; // rounding left `target` a hair above the sum
}

/** Every vector coincides with a chosen one: take the next row not yet chosen, so k centroids still exist. */
function firstUnchosen(chosen: readonly number[], n: number): number {
  const taken = new Set(chosen);
  for (let i = 0; i < n; i++) if (!taken.has(i)) return i;
  return 0;
}

function writeUnitCentroids(
  kern: DotEngine,
  at: number,
  means: readonly Float64Array[],
  k: number,
  dp: number,
): void {
  const f = kern.f32();
  for (let j = 0; j < k; j++) {
    const c = means[j]!;
    let norm = 0;
    for (let q = 0; q < dp; q++) norm += c[q]! * c[q]!;
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let q = 0; q < dp; q++) f[at / 4 + j * dp + q] = c[q]! * inv;
  }
}

/** Scores `n` rows against the centroids block by block and hands each row's scores to `visit`. */
function scoreRows(
  kern: DotEngine,
  at: number,
  n: number,
  cAt: number,
  kp: number,
  dp: number,
  outAt: number,
  visit: (row: number, scores: Float32Array, base: number) => void,
): void {
  for (let start = 0; start < n; start += BLOCK) {
    const rows = Math.min(BLOCK, n - start);
    kern.scores(at + start * dp * 4, pad4(rows), cAt, kp, dp, outAt);
    const f = kern.f32();
    for (let r = 0; r < rows; r++) visit(start + r, f, outAt / 4 + r * kp);
  }
}

/** Recomputes each centroid as the mean of its members; an empty cluster keeps its centroid. Returns the max shift. */
function updateMeans(
  f: Float32Array,
  base: number,
  assign: Int32Array,
  means: Float64Array[],
  k: number,
  dp: number,
): number {
  const sums = new Float64Array(k * dp);
  const counts = new Int32Array(k);
  for (let i = 0; i < assign.length; i++) {
    const j = assign[i]!;
    counts[j]!++;
    const o = base + i * dp;
    const s = j * dp;
    for (let q = 0; q < dp; q++) sums[s + q]! += f[o + q]!;
  }
  let shift = 0;
  for (let j = 0; j < k; j++) {
    const cnt = counts[j]!;
    if (cnt === 0) continue;
    const c = means[j]!;
    for (let q = 0; q < dp; q++) {
      const v = sums[j * dp + q]! / cnt;
      shift = Math.max(shift, Math.abs(v - c[q]!));
      c[q] = v;
    }
  }
  return shift;
}

function topM(
  scores: Float32Array,
  base: number,
  k: number,
  m: number,
  row: number,
  idx: Int32Array,
  sim: Float32Array,
): void {
  const o = row * m;
  for (let t = 0; t < m; t++) {
    idx[o + t] = -1;
    sim[o + t] = -Infinity;
  }
  for (let j = 0; j < k; j++) {
    const v = scores[base + j]!;
    if (v <= sim[o + m - 1]!) continue;
    let t = m - 1;
    while (t > 0 && v > sim[o + t - 1]!) {
      sim[o + t] = sim[o + t - 1]!;
      idx[o + t] = idx[o + t - 1]!;
      t--;
    }
    sim[o + t] = v;
    idx[o + t] = j;
  }
}
