#!/usr/bin/env node
// Launches the compiled CLI: the bundle in dist/cli/ (quick to start) unless it is older than dist/boot/ (a `tsc`
// without the bundling step), else the modules in dist/boot/. `npm run build` writes both.
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const modules = fileURLToPath(new URL('../dist/boot/cli-main.js', import.meta.url));
const bundle = fileURLToPath(new URL('../dist/cli/cli-main.js', import.meta.url));
if (!existsSync(modules)) {
  process.stderr.write('tidepool: dist/ is missing; run `npm run build` (npm install does it for you in a clone)\n');
  process.exit(1);
}
const fresh = existsSync(bundle) && statSync(bundle).mtimeMs >= statSync(modules).mtimeMs;
await import(fresh ? bundle : modules);
