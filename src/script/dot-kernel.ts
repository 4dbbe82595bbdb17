/** Dot products for k-means in WebAssembly SIMD: the module is assembled from `dot-kernel.wat` (see its header). */
import { DOT_KERNEL_WASM_BASE64 } from './dot-kernel-wasm.js';

/** What k-means asks of a dot-product engine: the {@link DotKernel}, or the plain typed arrays `bench script` compares. */
export interface DotEngine {
  /** Reserves `floats` f32 slots and returns their byte offset (16-byte aligned). */
  alloc(floats: number): number;
  /** A view of the whole memory as f32; fetch it again after any `alloc`. */
  f32(): Float32Array;
  /** out[i·nc + j] = x_i · c_j for nx rows at `x` and nc rows at `c` of width d (nx % 4 = 0, nc even, d % 4 = 0). */
  scores(x: number, nx: number, c: number, nc: number, d: number, out: number): void;
  /** out[i] = x_i · c for n rows at `x` (n even; d % 4 = 0). */
  dots(x: number, n: number, c: number, d: number, out: number): void;
}

/** The slice of the WebAssembly JS API used here; Node has it, but the ES2023 lib without DOM does not type it. */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

type ScoresFn = (x: number, nx: number, c: number, nc: number, d: number, out: number) => void;
type DotsFn = (x: number, n: number, c: number, d: number, out: number) => void;

let compiled: object | undefined;

/**
 * Dot products in WebAssembly memory. Callers lay out row-major f32 matrices with `alloc`, write them through
 * `f32()` and call `scores`/`dots` with byte offsets. `f32()` must be fetched again after any `alloc`,
 * because growing the memory detaches the old view.
 */
export class DotKernel implements DotEngine {
  #memory: WasmMemory;
  #scores: ScoresFn;
  #dots: DotsFn;
  #top = 0;

  constructor() {
    compiled ??= new wasm.Module(Uint8Array.from(atob(DOT_KERNEL_WASM_BASE64), (ch) => ch.charCodeAt(0)));
    const inst = new wasm.Instance(compiled, {});
    this.#memory = inst.exports['memory'] as WasmMemory;
    this.#scores = inst.exports['scores'] as ScoresFn;
    this.#dots = inst.exports['dots'] as DotsFn;
  }

  /** Reserves `floats` f32 slots and returns their byte offset (16-byte aligned). */
  alloc(floats: number): number {
    const offset = this.#top;
    this.#top += Math.ceil((floats * 4) / 16) * 16;
    const need = this.#top - this.#memory.buffer.byteLength;
    if (need > 0) this.#memory.grow(Math.ceil(need / 65_536));
    return offset;
  }

  /** A fresh f32 view over the whole memory. */
  f32(): Float32Array {
    return new Float32Array(this.#memory.buffer);
  }

  /** out[i·nc + j] = x_i · c_j for nx rows at `x` and nc rows at `c` of width d (nx % 4 = 0, nc even, d % 4 = 0). */
  scores(x: number, nx: number, c: number, nc: number, d: number, out: number): void {
    this.#scores(x, nx, c, nc, d, out);
  }

  /** out[i] = x_i · c for n rows at `x` (n even; d % 4 = 0). */
  dots(x: number, n: number, c: number, d: number, out: number): void {
    this.#dots(x, n, c, d, out);
  }
}
