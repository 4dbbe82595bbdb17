import { describe, expect, it } from 'vitest';
import { cosineKMeans } from './cosine-kmeans.js';
import { mulberry32, type Rng } from './seeded-rng.js';

/** `perGroup` noisy copies of `groups` random directions in `dim` dimensions, interleaved (row i is in group i % groups). */
function groupedVectors(
  groups: number,
  perGroup: number,
  dim: number,
  noise: number,
  rng: Rng,
): Float32Array[] {
  const centers = Array.from({ length: groups }, () => Float32Array.from({ length: dim }, () => rng() - 0.5));
  const out: Float32Array[] = [];
  for (let i = 0; i < groups * perGroup; i++) {
    const c = centers[i % groups]!;
    out.push(Float32Array.from(c, (v) => v + (rng() - 0.5) * noise));
  }
  return out;
}

function partition(nearest: Int32Array, m: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => nearest[i * m]!);
}

describe('cosineKMeans', () => {
  const vectors = groupedVectors(4, 25, 16, 0.2, mulberry32(1));

  it('recovers well-separated groups: every group lands in one cluster of its own', () => {
    const r = cosineKMeans(vectors, { k: 4, rng: mulberry32(42) });
    const p = partition(r.nearest, r.m, vectors.length);
    for (let g = 0; g < 4; g++) {
      const labels = new Set(p.filter((_, i) => i % 4 === g));
      expect(labels.size).toBe(1);
    }
    expect(new Set(p).size).toBe(4);
    expect(r.converged).toBe(true);
  });

  it('is reproducible: the same seed gives identical centroids and memberships', () => {
    const a = cosineKMeans(vectors, { k: 6, rng: mulberry32(42) });
    const b = cosineKMeans(vectors, { k: 6, rng: mulberry32(42) });
    expect([...b.nearest]).toEqual([...a.nearest]);
    expect([...b.similarity]).toEqual([...a.similarity]);
    expect(b.centroids.map((c) => [...c])).toEqual(a.centroids.map((c) => [...c]));
  });

  it('keeps the 3 nearest clusters per vector, nearest first, as cosine similarities', () => {
    const r = cosineKMeans(vectors, { k: 5, rng: mulberry32(42) });
    expect(r.m).toBe(3);
    for (let i = 0; i < vectors.length; i++) {
      const sims = [0, 1, 2].map((t) => r.similarity[i * 3 + t]!);
      expect(sims[0]).toBeGreaterThanOrEqual(sims[1]!);
      expect(sims[1]).toBeGreaterThanOrEqual(sims[2]!);
      expect(new Set([0, 1, 2].map((t) => r.nearest[i * 3 + t])).size).toBe(3);
      const c = r.centroids[r.nearest[i * 3]!]!;
      expect(sims[0]).toBeCloseTo(cos(vectors[i]!, c), 4);
    }
  });

  it('keeps at most k memberships when k < 3 and handles k = N', () => {
    expect(cosineKMeans(vectors, { k: 2, rng: mulberry32(42) }).m).toBe(2);
    const few = vectors.slice(0, 5);
    const r = cosineKMeans(few, { k: 5, rng: mulberry32(42) });
    expect(new Set(partition(r.nearest, r.m, 5)).size).toBe(5);
  });

  it('fits on a seeded sample above fitSampleSize and still assigns every vector', () => {
    const many = groupedVectors(3, 200, 24, 0.2, mulberry32(9));
    const r = cosineKMeans(many, { k: 3, rng: mulberry32(42), fitSampleSize: 60, seedSampleSize: 30 });
    expect(r.fittedOn).toBe(60);
    const p = partition(r.nearest, r.m, many.length);
    for (let g = 0; g < 3; g++) expect(new Set(p.filter((_, i) => i % 3 === g)).size).toBe(1);
  });

  it('tolerates zero vectors and identical vectors', () => {
    const same = [...Array.from({ length: 6 }, () => [1, 0, 0]), [0, 0, 0]];
    const r = cosineKMeans(same, { k: 3, rng: mulberry32(42) });
    expect(r.nearest.length).toBe(7 * 3);
    expect(r.similarity[0]).toBeCloseTo(1, 5);
  });

  it('stops at the iteration cap', () => {
    const r = cosineKMeans(groupedVectors(8, 20, 16, 3, mulberry32(2)), {
      k: 8,
      rng: mulberry32(42),
      maxIterations: 1,
    });
    expect(r.iterations).toBe(1);
  });

  it('rejects k outside 1..N and ragged vectors', () => {
    expect(() => cosineKMeans(vectors, { k: 0, rng: mulberry32(1) })).toThrow(/k must be/);
    expect(() => cosineKMeans(vectors.slice(0, 3), { k: 4, rng: mulberry32(1) })).toThrow(/k must be/);
    expect(() => cosineKMeans([[1, 2], [1]], { k: 1, rng: mulberry32(1) })).toThrow(/dimensions/);
    expect(() => cosineKMeans([], { k: 1, rng: mulberry32(1) })).toThrow();
  });
});

function cos(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return d / Math.sqrt(na * nb);
}
