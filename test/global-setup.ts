/** Vitest global setup: builds dist/ once when it is older than src/, so CLI tests run the real binary. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Rebuilds when any source file is newer than the compiled entry point. */
export default function setup(): void {
  const root = join(import.meta.dirname, '..');
  const entry = join(root, 'dist', 'boot', 'cli-main.js');
  if (existsSync(entry) && statSync(entry).mtimeMs >= newest(join(root, 'src'))) return;
  // Type errors are reported by `tsc --noEmit` in `npm test`; tsc still emits, which is all the CLI tests need.
  spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], {
    stdio: 'ignore',
  });
}
