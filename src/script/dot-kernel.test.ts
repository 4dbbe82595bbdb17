import { readFileSync } from 'node:fs';
import wabtInit from 'wabt';
import { describe, expect, it } from 'vitest';
import { DotKernel } from './dot-kernel.js';
import { DOT_KERNEL_WASM_BASE64 } from './dot-kernel-wasm.js';
import { mulberry32 } from './seeded-rng.js';

function naive(f: Float32Array, a: number, b: number, d: number): number {
  let s = 0;
  for (let q = 0; q < d; q++) s += f[a / 4 + q]! * f[b / 4 + q]!;
  return s;
}

describe('DotKernel (WebAssembly SIMD)', () => {
  it('computes every row-by-centroid dot product like a plain loop', () => {
    const k = new DotKernel();
    const [nx, nc, d] = [8, 6, 12];
    const x = k.alloc(nx * d);
    const c = k.alloc(nc * d);
    const out = k.alloc(nx * nc);
    const r = mulberry32(3);
    const f = k.f32();
    for (let i = 0; i < nx * d; i++) f[x / 4 + i] = r() - 0.5;
    for (let i = 0; i < nc * d; i++) f[c / 4 + i] = r() - 0.5;
    k.scores(x, nx, c, nc, d, out);
    const g = k.f32();
    for (let i = 0; i < nx; i++) {
      for (let j = 0; j < nc; j++)
        expect(g[out / 4 + i * nc + j]).toBeCloseTo(naive(g, x + i * d * 4, c + j * d * 4, d), 5);
    }
  });

  it('computes the dots of many rows with one vector', () => {
    const k = new DotKernel();
    const [n, d] = [6, 8];
    const x = k.alloc(n * d);
    const c = k.alloc(d);
    const out = k.alloc(n);
    const f = k.f32();
    for (let i = 0; i < n * d; i++) f[x / 4 + i] = (i % 5) - 2;
    for (let q = 0; q < d; q++) f[c / 4 + q] = q - 3;
    k.dots(x, n, c, d, out);
    const g = k.f32();
    for (let i = 0; i < n; i++) expect(g[out / 4 + i]).toBe(naive(g, x + i * d * 4, c, d));
  });

  it('grows its memory beyond the first page and keeps earlier data', () => {
    const k = new DotKernel();
    const a = k.alloc(4);
    k.f32()[a / 4] = 7;
    const big = k.alloc(1_000_000);
    expect(big).toBeGreaterThan(a);
    expect(k.f32()[a / 4]).toBe(7);
    expect(k.f32().length).toBeGreaterThanOrEqual(1_000_004);
  });

  it('runs exactly the assembly of dot-kernel.wat (run scripts/gen-dot-kernel-wasm.mjs after editing it)', async () => {
    const wabt = await wabtInit();
    const wat = readFileSync(new URL('./dot-kernel.wat', import.meta.url), 'utf8');
    const mod = wabt.parseWat('dot-kernel.wat', wat, { simd: true });
    const bytes = Buffer.from(mod.toBinary({}).buffer);
    mod.destroy();
    expect(bytes.toString('base64')).toBe(DOT_KERNEL_WASM_BASE64);
  });
});
