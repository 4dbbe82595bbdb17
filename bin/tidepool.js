#!/usr/bin/env node
// Launches the compiled CLI: the bundle dist/cli/cli-main.cjs (quick to start), or in a clone where it is older than
// dist/boot/ (a `tsc` without the bundling step) the modules in dist/boot/. `npm run build` writes both.
//
// The bundle is compiled with V8's code cache, kept in the user's cache folder ($XDG_CACHE_HOME/tidepool, else
// ~/.cache/tidepool): the first command writes it, later ones skip parsing a megabyte of JavaScript. A cache V8
// rejects (another Node, another bundle) is written again; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
'use strict';
// CommonJS (bin/package.json): a CommonJS main module starts without Node's ES module loader, ~10 ms of every command.
const { isAscii } = require('node:buffer');
const { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { createRequire } = require('node:module');
const { homedir, tmpdir } = require('node:os');
const { basename, dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

/** How scripts/bundle-cli.mjs opens the bundle: the function it is. */
const BUNDLE_HEAD = '(function (exports, require, module, __filename, __dirname, __tidepoolImport) { ';

const modules = join(__dirname, '..', 'dist', 'boot', 'cli-main.js');
const bundle = join(__dirname, '..', 'dist', 'cli', 'cli-main.cjs');
if (!existsSync(modules)) {
  process.stderr.write('tidepool: dist/ is missing; run `npm run build` (npm install does it for you in a clone)\n');
  process.exit(1);
}
// In a clone, a `tsc` after the last bundling leaves the bundle stale. An installed package has no sources and its
// files' times are when npm unpacked them, so there the bundle is always the one that was built with the modules.
const clone = existsSync(join(__dirname, '..', 'src', 'boot', 'cli-main.ts'));
const fresh = existsSync(bundle) && (!clone || statSync(bundle).mtimeMs >= statSync(modules).mtimeMs);
// The modules when the bundle is stale or was written by an older build (not the function `loadBundle` runs). An ES
// module's import() is asked of this file, not of the bundle's script: see `loadBundle`.
const cli = fresh ? loadBundle(bundle) : undefined;
const run = cli ? () => cli.main(process.argv.slice(2)) : () => import(pathToFileURL(join(__dirname, '..', 'dist', 'boot', 'cli.js')).href);
// main() reports the command's failures and sets the exit code; anything else is left unhandled, so that Node prints
// it and exits with 1, as the top-level await of the ES module this launcher was did.
run();

/**
 * Runs the CommonJS bundle `file` as Node would, with V8's code cache when there is one; returns its exports, or
 * undefined when the file is not the function scripts/bundle-cli.mjs writes.
 */
function loadBundle(file) {
  // ASCII (scripts/bundle-cli.mjs escapes the rest) is read as Latin-1, which copies bytes, where UTF-8 decodes them.
  const bytes = readFileSync(file);
  const source = isAscii(bytes) ? bytes.latin1Slice(0, bytes.length) : bytes.toString('utf8');
  // The file is one function of Module.wrap's parameters and one more (the bundle's `import()`s call
  // __tidepoolImport), written so by scripts/bundle-cli.mjs: compiled as it is, with no copy of the source.
  if (!source.startsWith(BUNDLE_HEAD)) return undefined;
  const cache = process.env.NODE_DISABLE_COMPILE_CACHE ? undefined : cacheFile(file, source.length);
  let cachedData;
  try {
    if (cache) cachedData = readFileSync(cache);
  } catch {
    // no cache yet: this run writes it
  }
  const script = new Script(source, { filename: file, cachedData });
  const module = { exports: {} };
  const base = pathToFileURL(file);
  const load = (specifier) => import(specifier.startsWith('.') ? new URL(specifier, base).href : specifier);
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), load);
  // Written at exit, so the cache holds the functions this command compiled as well as the top level.
  if (cache && (cachedData === undefined || script.cachedDataRejected)) process.once('exit', () => writeCache(cache, script));
  return module.exports;
}

/**
 * The cache file for this bundle, this Node and this command: a new bundle or a new Node gets a new name, and each
 * command keeps the functions it compiled (a cache written by `--version` would leave `recall` compiling its own).
 * Named `cli-<command>-<where>-<what>`: the bundle's path, then its time, size and Node; a cache of the same command and
 * path under another `what` (an upgrade, a rebuild) is removed when the new one is written, and two installs in two
 * places keep one each.
 */
function cacheFile(file, length) {
  const command = /^[a-z][a-z-]{0,30}$/.test(process.argv[2] ?? '') ? process.argv[2] : 'other';
  const base = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : tmpdir());
  const hash = (text) => createHash('sha256').update(text).digest('hex');
  const where = hash(`${file}\0${command}`).slice(0, 8);
  const what = hash(`${statSync(file).mtimeMs}\0${length}\0${process.version}\0${process.arch}`).slice(0, 16);
  return join(base, 'tidepool', `cli-${command}-${where}-${what}.v8cache`);
}

/** Best effort: a cache folder that cannot be written only means the next command parses the bundle again. */
function writeCache(cache, script) {
  try {
    mkdirSync(dirname(cache), { recursive: true });
    const tmp = `${cache}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, cache);
    // The same command's caches of this bundle's earlier builds (or of another Node) are of no further use, nor are
    // those named as earlier builds named them (`cli-<command>-<16 hex>`, without the path).
    // A path's hash of letters alone would read as part of a command: the earlier form is the one the current does not fit.
    const name = basename(cache);
    const own = name.slice(0, name.lastIndexOf('-') + 1);
    const current = (f) => /^cli-[a-z][a-z-]*-[0-9a-f]{8}-[0-9a-f]{16}\.v8cache$/.test(f);
    const earlier = (f) => /^cli-[a-z][a-z-]*-[0-9a-f]{16}\.v8cache$/.test(f) && !current(f);
    const stale = (f) => f !== name && ((f.startsWith(own) && f.endsWith('.v8cache')) || earlier(f));
    for (const f of readdirSync(dirname(cache))) if (stale(f)) rmSync(join(dirname(cache), f), { force: true });
  } catch {
    // read-only home or full disk: start-up stays correct, only slower
  }
}
