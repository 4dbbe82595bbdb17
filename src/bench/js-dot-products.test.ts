import { describe, expect, it } from 'vitest';
import { DotKernel, type DotEngine } from '../script/dot-kernel.js';
import { mulberry32 } from '../script/seeded-rng.js';
import { JsDotProducts } from './js-dot-products.js';

/** Fills the same matrices into an engine and returns its scores and dots. */
function run(engine: DotEngine): { scores: number[]; dots: number[] } {
  const [nx, nc, d] = [8, 6, 20];
  const r = mulberry32(5);
  const x = engine.alloc(nx * d);
  const c = engine.alloc(nc * d);
  const s = engine.alloc(nx * nc);
  const o = engine.alloc(nx);
  engine.alloc(50_000); // grows past the first block: earlier data must survive
  const f = engine.f32();
  for (let i = 0; i < nx * d; i++) f[x / 4 + i] = r() - 0.5;
  for (let i = 0; i < nc * d; i++) f[c / 4 + i] = r() - 0.5;
  engine.scores(x, nx, c, nc, d, s);
  engine.dots(x, nx, c, d, o);
  const g = engine.f32();
  return { scores: [...g.subarray(s / 4, s / 4 + nx * nc)], dots: [...g.subarray(o / 4, o / 4 + nx)] };
}

describe('JsDotProducts', () => {
  it('computes the scores and dots of the WebAssembly kernel', () => {
    const js = run(new JsDotProducts());
    const wasm = run(new DotKernel());
    js.scores.forEach((v, i) => expect(v).toBeCloseTo(wasm.scores[i]!, 5));
    js.dots.forEach((v, i) => expect(v).toBeCloseTo(wasm.dots[i]!, 5));
  });
});
