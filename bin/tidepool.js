#!/usr/bin/env node
// Launches the compiled CLI; `npm install` builds dist/ through the prepare script.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/boot/cli-main.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write('tidepool: dist/ is missing; run `npm run build` (npm install does it for you)\n');
  process.exit(1);
}
await import(main);
