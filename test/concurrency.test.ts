/** Two processes writing the same SQLite file at once lose nothing and never surface "database is locked". */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openMemory } from '../src/boot/open-memory.js';
import { tempMemory } from './helpers/temp-memory.js';

function writer(path: string, tag: string, n: number): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'concurrent-writer.mts'), path, tag, String(n)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe('concurrency', () => {
  it('keeps every write of two concurrent writer processes', async () => {
    const t = await tempMemory();
    await t.memory.remember({ text: 'created before the writers start' });
    await t.memory.close();
    const n = 150;
    const [a, b] = await Promise.all([writer(t.path, 'alpha', n), writer(t.path, 'beta', n)]);
    expect(a).toEqual({ code: 0, out: 'done alpha\n' });
    expect(b).toEqual({ code: 0, out: 'done beta\n' });
    const m = await openMemory({ path: t.path });
    try {
      const all = await m.timeline({ limit: 1000 });
      expect(all.items.filter((e) => e.session === 'alpha')).toHaveLength(n);
      expect(all.items.filter((e) => e.session === 'beta')).toHaveLength(n);
      const report = await m.doctor();
      expect(report.integrity).toBe('ok');
    } finally {
      await m.close();
      await t.cleanup().catch(() => {});
    }
  }, 120_000);
});
