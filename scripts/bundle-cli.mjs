// Bundles the compiled CLI (dist/boot/cli-main.js) into one CommonJS file, dist/cli/cli-main.cjs, instead of ~250
// modules and zod's many, which is most of the CLI's start-up (docs/BENCHMARKS.md, "Start-up"). bin/tidepool.js
// compiles it with V8's code cache (a CommonJS script can use one on Node 20; an ES module cannot), so a command after
// the first one skips parsing it. Runs after `tsc` in `npm run build`.
//
// - Native modules, the optional peers and the devDependencies stay external (loaded from node_modules when used);
//   chrono-node too, bundled into files of its own below.
// - `bench` stays outside the bundle: cli-main loads dist/boot/bench-command.js only when `bench` is the command.
// - Modules the CLI loads on first use (`import()`: the server, the night, import) are wrapped, not run, until then.
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

/**
 * Keeps `./bench-command.js` a separate, unbundled module (it imports devDependencies); `import()` of it stays an
 * ES module import, by absolute URL since the bundle is not an ES module with a URL of its own.
 */
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
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, __tidepoolBundleUrl).href`), loader: 'js' };
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

/** What bin/tidepool.js expects around the bundle (its `loadBundle` checks the head). */
const BUNDLE_HEAD = '(function (exports, require, module, __filename, __dirname, __tidepoolImport) { ';
const BUNDLE_TAIL = '\n});\n';

rmSync(out, { recursive: true, force: true });
const result = await build({
  entryPoints: [join(dist, 'boot', 'cli-main.js')],
  outfile: join(out, 'cli-main.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  plugins: [benchOutside, ownUrl, zodEnglishOnly],
  // The bundle's own URL, from which each module's import.meta.url is made (see `ownUrl`).
  banner: { js: "const __tidepoolBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Whitespace and syntax only: names stay, so stack traces still read; less text is less to parse at start-up.
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: process.argv.includes('--metafile'),
  logLevel: 'warning',
});
// `import()` inside a script compiled with V8's code cache fails on Node 20 (the loader callback is not kept with the
// cache), so the bundle's dynamic imports call `__tidepoolImport`, which bin/tidepool.js provides (a dynamic import of its own).
const file = join(out, 'cli-main.cjs');
const text = await readFile(file, 'utf8');
const rewritten = text.replace(/(?<![\w$.])import\((?=["'])/g, '__tidepoolImport(');
if (/(?<![\w$.])import\((?=["'])/.test(rewritten)) throw new Error('bundle-cli: an import() was left in the bundle');
// Written as the function the launcher runs (Module.wrap's parameters and `__tidepoolImport`): bin/tidepool.js compiles
// the file's text as it is, where wrapping it at every start copied the 1.9 MB source once more.
await writeFile(file, `${BUNDLE_HEAD}${asciiOnly(rewritten)}${BUNDLE_TAIL}`);

/**
 * The bundle with every non-ASCII UTF-16 unit written as a \\uXXXX escape. esbuild escapes strings and templates but
 * leaves regular expression literals as written (the Chinese words of the secret and question patterns): one such
 * character made the whole 1.9 MB source a two-byte string, read from UTF-8 at every start (30 against 8 ms here) and
 * hashed and scanned at twice the size. In a regular expression a unit's escape matches what the unit did, with or
 * without the u flag (an escaped surrogate pair is one code point there). Comments are escaped alike, harmlessly. An
 * identity escape of such a character (backslash, then the character) would turn into a backslash and "u": refused.
 */
function asciiOnly(code) {
  const escaped = /(?<!\\)(?:\\\\)*\\[^\x00-\x7f]/.exec(code);
  if (escaped) throw new Error(`bundle-cli: an escaped non-ASCII character at ${escaped.index}: ${code.slice(escaped.index - 20, escaped.index + 20)}`);
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
// chrono-node's English and Chinese locales, each bundled into one file beside the CLI's: a query naming a time loads
// one (src/retrieval/time-expressions.ts) in ~10 ms where the package's hundred small modules took ~35-50 ms. Apart
// from the CLI bundle, so that a prompt naming no time reads none of it; the same package version's code, unchanged.
for (const locale of ['en', 'zh']) {
  const built = await build({
    entryPoints: [`chrono-node/${locale}`],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    write: false,
    logLevel: 'warning',
  });
  await writeFile(join(out, `chrono-${locale}.cjs`), asciiOnly(built.outputFiles[0].text));
}

// `--metafile` writes what the bundle holds, for esbuild's analyser, outside dist/ (it is not shipped).
if (result.metafile) {
  const file = join(tmpdir(), 'tidepool-cli-bundle-meta.json');
  await writeFile(file, JSON.stringify(result.metafile));
  process.stdout.write(`${file}\n`);
}
