// Bundles the compiled CLI (dist/boot/cli-main.js) into dist/cli/: a handful of files instead of ~250 modules and
// zod's many, which is most of the CLI's start-up (docs/BENCHMARKS.md, "Start-up"). Runs after `tsc` in `npm run build`.
//
// - Native modules, the optional peers and the devDependencies stay external (loaded from node_modules when used).
// - `bench` stays outside the bundle: cli-main loads dist/boot/bench-command.js only when `bench` is the command.
// - Every module's `import.meta.url` is rewritten to its own file under dist/, so paths it resolves relative to itself
//   (dist/web, bin/, createRequire) stay what they are unbundled.
import { rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const out = join(dist, 'cli');
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

/** Packages loaded from node_modules at run time: native code, optional peers, development-only tools. */
const external = [
  'better-sqlite3',
  'sqlite-vec',
  '@node-rs/jieba',
  'chrono-node',
  'gpt-tokenizer',
  ...Object.keys(pkg.peerDependencies ?? {}),
  ...Object.keys(pkg.optionalDependencies ?? {}),
  ...Object.keys(pkg.devDependencies ?? {}),
].flatMap((name) => [name, `${name}/*`]);

/** Keeps `./bench-command.js` a separate, unbundled module (it imports devDependencies). */
const benchOutside = {
  name: 'bench-outside',
  setup(b) {
    b.onResolve({ filter: /\/bench-command\.js$/ }, () => ({ path: '../boot/bench-command.js', external: true }));
  },
};

/** Rewrites `import.meta.url` in dist modules to that module's own URL, computed from the chunk's location. */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(`${dist}/`)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
      const rel = relative(out, args.path).split('\\').join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'js' };
    });
  },
};

/**
 * zod's `locales` namespace holds error messages in ~45 languages (a quarter of a megabyte to parse at every start);
 * Tidepool's messages are English, so inside the bundle the namespace carries `en` only.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: 'js' }));
  },
};

rmSync(out, { recursive: true, force: true });
const result = await build({
  entryPoints: [join(dist, 'boot', 'cli-main.js')],
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  plugins: [benchOutside, ownUrl, zodEnglishOnly],
  // CommonJS dependencies inside an ES module bundle call require for Node's built-ins.
  banner: { js: "import { createRequire as __tidepoolRequire } from 'node:module'; const require = __tidepoolRequire(import.meta.url);" },
  // Whitespace and syntax only: names stay, so stack traces still read; less text is less to parse at start-up.
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: process.argv.includes('--metafile'),
  logLevel: 'warning',
});
// `--metafile` writes what the bundle holds, for esbuild's analyser, outside dist/ (it is not shipped).
if (result.metafile) {
  const file = join(tmpdir(), 'tidepool-cli-bundle-meta.json');
  await writeFile(file, JSON.stringify(result.metafile));
  process.stdout.write(`${file}\n`);
}
