/** Enforces the module boundaries of STYLE.md §2 by parsing every import in src/. */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'app' && dir.endsWith('web') ? [] : files(p);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

/** Area of a file: `core`, `script`, `store/port`, `store`, `surfaces/mcp`, … */
function area(rel: string): string {
  const parts = rel.split('/');
  // row-refs.ts is port-level: pure data about the schema that the app's restore rewrites ids through.
  if (parts[0] === 'store') {
    return ['store/port.ts', 'store/sql-driver.ts', 'store/row-refs.ts'].includes(rel) || rel.startsWith('store/ports/') ? 'store/port' : 'store';
  }
  if (parts[0] === 'surfaces') return `surfaces/${parts[1]}`;
  return parts.length === 1 ? 'root' : parts[0]!;
}

/** Which areas each area may import (STYLE §2). */
const ALLOWED: Record<string, (to: string) => boolean> = {
  core: (to) => to === 'core',
  script: (to) => to === 'core' || to === 'script',
  journal: (to) => ['core', 'script', 'store/port', 'journal'].includes(to),
  retrieval: (to) => ['core', 'script', 'store/port', 'retrieval'].includes(to),
  sleep: (to) => ['core', 'script', 'store/port', 'sleep'].includes(to),
  store: (to) => ['core', 'script', 'store', 'store/port'].includes(to),
  'store/port': (to) => ['core', 'store/port'].includes(to),
  embedders: (to) => ['core', 'embedders'].includes(to),
  app: (to) => ['core', 'script', 'store/port', 'journal', 'retrieval', 'sleep', 'app'].includes(to),
};

/**
 * The composition roots and the benchmarks (STYLE §2, §10): `boot` wires everything but loads the benchmarks only
 * from its bench command; the benchmarks drive the product like a user and never a surface; the public index exports
 * the library, never a benchmark.
 */
const OUTER_ALLOWED: Record<string, (to: string) => boolean> = {
  boot: (to) => to !== 'bench', // but BENCH_ENTRY
  bench: (to) => !to.startsWith('surfaces/'),
  root: (to) => to !== 'bench',
};

/** The one module that may load `bench/` (cli-main imports it only when `bench` is the command). */
const BENCH_ENTRY = 'boot/bench-command.ts';

/** Modules that touch files, processes, databases or the network: none of them belongs in pure `script/`. */
const IO_MODULE =
  /^(node:)?(fs|fs\/promises|child_process|net|http|https|http2|dgram|dns|tls|worker_threads|cluster)$|^(better-sqlite3|pg|@electric-sql\/.*|sqlite-vec|hnswlib-node|undici)$/;

/** Bare (package and `node:`) specifiers a file imports. */
function packagesOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    out.push((m[1] ?? m[2] ?? m[3])!);
  }
  return out.filter((s) => !s.startsWith('.'));
}

/** The dashboard's own sources (`files` leaves them out: they are not part of the server's layers). */
function webFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return webFiles(p);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    out.push((m[1] ?? m[2])!);
  }
  return out.filter((s) => s.startsWith('.'));
}

describe('architecture (STYLE §2)', () => {
  const all = files(SRC);

  it('every layer imports only what it may', () => {
    const violations: string[] = [];
    for (const f of all) {
      const from = area(relative(SRC, f));
      for (const spec of importsOf(f)) {
        const target = relative(SRC, resolve(dirname(f), spec)).replace(/\.js$/, '.ts');
        const to = area(target);
        if (from.startsWith('surfaces/')) {
          if (!['core', 'app', from].includes(to)) violations.push(`${relative(SRC, f)} → ${target}`);
          continue;
        }
        const rule = ALLOWED[from];
        if (rule && !rule(to)) violations.push(`${relative(SRC, f)} → ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('only boot/ reads process.env', () => {
    const readers = all
      .filter((f) => !relative(SRC, f).startsWith('boot/') && !relative(SRC, f).startsWith('bench/'))
      .filter((f) => /process\.env\b/.test(readFileSync(f, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '')));
    expect(readers.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('script/ takes time and randomness as arguments', () => {
    const bad = all
      .filter((f) => relative(SRC, f).startsWith('script/'))
      .filter((f) => /Date\.now\(\)|Math\.random\(\)|new Date\(\)/.test(readFileSync(f, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '')));
    expect(bad.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('concrete store adapters are named only by boot/ (and the store itself)', () => {
    const bad: string[] = [];
    for (const f of all) {
      const rel = relative(SRC, f);
      if (rel.startsWith('boot/') || rel.startsWith('store/') || rel.startsWith('bench/') || rel === 'index.ts') continue;
      for (const spec of importsOf(f)) {
        if (/store\/(sqlite|postgres)\//.test(relative(SRC, resolve(dirname(f), spec)))) bad.push(`${rel} → ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('every folder under src/ falls under a layer rule', () => {
    const ruled = (a: string) => a in ALLOWED || a in OUTER_ALLOWED || a.startsWith('surfaces/');
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const areas = new Set([...all.map((f) => area(relative(SRC, f))), ...folders.filter((d) => d !== 'surfaces')]);
    expect([...areas].filter((a) => !ruled(a))).toEqual([]);
  });

  it('boot, bench and the public index import only what they may', () => {
    const violations: string[] = [];
    for (const f of all) {
      const rel = relative(SRC, f);
      const rule = OUTER_ALLOWED[area(rel)];
      if (!rule) continue;
      for (const spec of importsOf(f)) {
        const target = relative(SRC, resolve(dirname(f), spec)).replace(/\.js$/, '.ts');
        if (rel === BENCH_ENTRY && area(target) === 'bench') continue;
        if (!rule(area(target))) violations.push(`${rel} → ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('nothing loads the benchmarks but the bench command (they import devDependencies)', () => {
    const bad: string[] = [];
    for (const f of all) {
      const rel = relative(SRC, f);
      if (rel.startsWith('bench/') || rel === BENCH_ENTRY) continue;
      for (const spec of importsOf(f)) {
        if (area(relative(SRC, resolve(dirname(f), spec))) === 'bench') bad.push(`${rel} → ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('script/ is pure: no file, process, database or network module', () => {
    const bad: string[] = [];
    for (const f of all.filter((x) => relative(SRC, x).startsWith('script/'))) {
      for (const spec of packagesOf(f)) if (IO_MODULE.test(spec)) bad.push(`${relative(SRC, f)} → ${spec}`);
    }
    expect(bad).toEqual([]);
  });

  it('the web dashboard imports only its own files (it is a browser bundle)', () => {
    const web = join(SRC, 'surfaces', 'web', 'app');
    const bad: string[] = [];
    for (const f of webFiles(web)) {
      for (const spec of importsOf(f)) {
        if (relative(web, resolve(dirname(f), spec)).startsWith('..')) bad.push(`${relative(SRC, f)} → ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('no two source files share a name: each file name says what it is', () => {
    const byName = new Map<string, string[]>();
    for (const f of [...all, ...webFiles(join(SRC, 'surfaces', 'web', 'app'))]) {
      const name = basename(f);
      byName.set(name, [...(byName.get(name) ?? []), relative(SRC, f)]);
    }
    expect([...byName.values()].filter((paths) => paths.length > 1)).toEqual([]);
  });

  it('surfaces and boot reach the app only through the Tidepool facade: no use case taking the context, no appContextOf', () => {
    // Names an app module exports that take the AppContext (`fn(ctx, …)`): the use cases the facade delegates to.
    const ctxFunctions = (file: string): Set<string> =>
      new Set([...readFileSync(file, 'utf8').matchAll(/export (?:async )?function\*? ?(\w+)\s*\(\s*ctx\s*:\s*AppContext/g)].map((m) => m[1]!));
    const bad: string[] = [];
    for (const f of all) {
      const rel = relative(SRC, f);
      if (!rel.startsWith('surfaces/') && !rel.startsWith('boot/')) continue;
      const src = readFileSync(f, 'utf8');
      // Static imports (`import { a, type B } from`) and destructured dynamic ones (`const { a } = await import(`).
      const uses: Array<{ spec: string; names: string[] | 'all' }> = [];
      for (const m of src.matchAll(/import\s+(type\s+)?(\{[^}]*\}|\*\s+as\s+\w+|\w+)\s+from\s+['"]([^'"]+)['"]/g)) {
        if (m[1]) continue;
        const clause = m[2]!;
        const names = clause.startsWith('{')
          ? clause.slice(1, -1).split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type ')).map((n) => n.split(/\s+as\s+/)[0]!)
          : 'all';
        uses.push({ spec: m[3]!, names });
      }
      for (const m of src.matchAll(/(?:\{([^}]*)\}\s*=\s*)?await\s+import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        uses.push({ spec: m[2]!, names: m[1] === undefined ? 'all' : m[1].split(',').map((n) => n.trim().split(/\s*:\s*/)[0]!).filter(Boolean) });
      }
      for (const { spec, names } of uses) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(f), spec).replace(/\.js$/, '.ts');
        if (!relative(SRC, target).startsWith('app/')) continue;
        const forbidden = ctxFunctions(target);
        forbidden.add('appContextOf');
        const used = names === 'all' ? [...forbidden].filter((n) => n !== 'appContextOf' || relative(SRC, target) === 'app/tidepool.ts') : names.filter((n) => forbidden.has(n));
        for (const n of used) bad.push(`${rel} → ${relative(SRC, target)} ${n}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("app/ reaches its space through the context's bound scope: only app-context.ts binds a context's store to a space", () => {
    // `ctx.store.forSpace(…)` or a context copied with another space (`{ ...ctx, space }`) could name the wrong
    // space; `ctx.scope` is bound once by `bindSpace`, a transaction's scope by `spaceTransaction`.
    const bad: string[] = [];
    for (const f of all) {
      const rel = relative(SRC, f);
      if (!rel.startsWith('app/') || rel === 'app/app-context.ts') continue;
      const src = readFileSync(f, 'utf8');
      for (const m of src.matchAll(/\b(?:ctx|this\.#ctx)\.store\.forSpace\(|\btx\.forSpace\((?:ctx|this\.#ctx)\.space\)|\.\.\.(?:ctx|this\.#ctx),\s*space\b/g)) bad.push(`${rel}: ${m[0]}`);
    }
    expect(bad).toEqual([]);
  });

  it('has no export * in the public index', () => {
    expect(readFileSync(join(SRC, 'index.ts'), 'utf8')).not.toMatch(/export \*/);
  });
});
