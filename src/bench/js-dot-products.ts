/** Dot products over one growable Float32Array: the plain typed-array engine `bench script` measures the WASM kernel against. */
import type { DotEngine } from '../script/dot-kernel.js';

/**
 * The matrix products k-means needs, over one memory of f32 slots addressed by byte offsets (the layout a
 * WebAssembly memory would have). Callers lay out row-major matrices with `alloc`, write them through `f32()` and call
 * `scores`/`dots`; `f32()` must be fetched again after any `alloc`, because growing replaces the array.
 */
export class JsDotProducts implements DotEngine {
  #mem = new Float32Array(16_384);
  #top = 0;

  /** Reserves `floats` f32 slots and returns their byte offset (16-byte aligned). */
  alloc(floats: number): number {
    const offset = this.#top;
    this.#top += Math.ceil((floats * 4) / 16) * 16;
    if (this.#top > this.#mem.byteLength) {
      const grown = new Float32Array(Math.max(this.#top / 4, this.#mem.length * 2));
      grown.set(this.#mem);
      this.#mem = grown;
    }
    return offset;
  }

  /** The whole memory as f32. */
  f32(): Float32Array {
    return this.#mem;
  }

  /** out[i·nc + j] = x_i · c_j for nx rows at `x` and nc rows at `c` of width d (nx % 4 = 0, nc even, d % 4 = 0). */
  scores(x: number, nx: number, c: number, nc: number, d: number, out: number): void {
    const m = this.#mem;
    const o = out >> 2;
    for (let i = 0; i < nx; i++) {
      const xi = (x >> 2) + i * d;
      for (let j = 0; j < nc; j++) m[o + i * nc + j] = dot(m, xi, (c >> 2) + j * d, d);
    }
  }

  /** out[i] = x_i · c for n rows at `x` (d % 4 = 0). */
  dots(x: number, n: number, c: number, d: number, out: number): void {
    const m = this.#mem;
    const o = out >> 2;
    const cj = c >> 2;
    for (let i = 0; i < n; i++) m[o + i] = dot(m, (x >> 2) + i * d, cj, d);
  }
}

/** Four running sums, as four SIMD lanes would keep them (d % 4 = 0). */
function dot(m: Float32Array, a: number, b: number, d: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let q = 0; q < d; q += 4) {
    s0 += m[a + q]! * m[b + q]!;
    s1 += m[a + q + 1]! * m[b + q + 1]!;
    s2 += m[a + q + 2]! * m[b + q + 2]!;
    s3 += m[a + q + 3]! * m[b + q + 3]!;
  }
  return s0 + s1 + (s2 + s3);
}
