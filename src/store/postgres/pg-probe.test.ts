// node-postgres probes for Cloudflare when it loads; on Node 20 (no `navigator`) the probe loaded Node's fetch
// implementation, ~37 ms of every PostgreSQL process's start (pg-probe.ts). Checked in a fresh process, where nothing
// else has loaded it: the driver leaves undici unloaded and no `navigator` behind, where loading pg alone loads it.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function loadIn(what: string): { undici: boolean; navigator: string } {
  const code = `const before = typeof navigator; await import(${JSON.stringify(what)});
    console.log(JSON.stringify({ undici: process.moduleLoadList.some((m) => m.includes('undici')), navigator: before === typeof navigator ? 'unchanged' : typeof navigator }));`;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }).trim()) as never;
}

describe('loading the PostgreSQL driver', () => {
  it.skipIf(typeof (globalThis as { navigator?: unknown }).navigator === 'object')(
    "skips node-postgres's Cloudflare probe and leaves no navigator behind (Node 20)",
    () => {
      expect(loadIn('./src/store/postgres/pg-driver.ts')).toEqual({ undici: false, navigator: 'unchanged' });
      // The probe this avoids: node-postgres alone loads undici here.
      expect(loadIn('pg')).toEqual({ undici: true, navigator: 'unchanged' });
    },
    30_000,
  );
});
