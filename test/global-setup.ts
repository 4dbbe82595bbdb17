/** Vitest global setup: rebuilds dist/ (server) and dist/web/ (dashboard) when their sources are newer, so CLI and browser tests run the real thing. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(dir: string, skip = ''): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (p === skip) continue;
    t = Math.max(t, e.isDirectory() ? newest(p, skip) : statSync(p).mtimeMs);
  }
  return t;
}

const stale = (output: string, sources: number) => !existsSync(output) || statSync(output).mtimeMs < sources;

/** Rebuilds the server when any server source is newer than its entry point, and the dashboard likewise. */
export default function setup(): void {
  const root = join(import.meta.dirname, '..');
  const web = join(root, 'src', 'surfaces', 'web', 'app');
  if (stale(join(root, 'dist', 'boot', 'cli-main.js'), newest(join(root, 'src'), web))) {
    // Type errors are reported by `tsc --noEmit` in `npm test`; tsc still emits, which is all the CLI tests need.
    spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
      { stdio: 'ignore' },
    );
  }
  // The CLI's bundle (dist/cli/, what bin/tidepool.js runs when it is fresh) follows the modules it is made of.
  if (stale(join(root, 'dist', 'cli', 'cli-main.cjs'), statSync(join(root, 'dist', 'boot', 'cli-main.js')).mtimeMs)) {
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'bundle-cli.mjs')], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`bundling the CLI failed:\n${r.stderr || r.stdout}`);
  }
  const viteConfig = join(root, 'vite.config.ts');
  if (stale(join(root, 'dist', 'web', 'index.html'), Math.max(newest(web), statSync(viteConfig).mtimeMs))) {
    const r = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', viteConfig],
      { cwd: root, encoding: 'utf8' },
    );
    // The browser tests cannot run without the dashboard: say why here rather than as a blank page there.
    if (r.status !== 0) throw new Error(`vite build failed:\n${r.stderr || r.stdout}`);
  }
}
