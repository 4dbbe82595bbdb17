/** Test helper: a real SQLite memory file in a fresh temp dir, with a controllable clock. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory, type OpenMemoryOptions } from '../../src/boot/open-memory.js';
import { FixedClock } from '../../src/core/clock.js';
import type { Tidepool } from '../../src/app/tidepool.js';

/** A memory under test and its cleanup. */
export interface TempMemory {
  memory: Tidepool;
  clock: FixedClock;
  dir: string;
  path: string;
  warnings: string[];
  cleanup(): Promise<void>;
}

/** 2026-11-01T12:00:00Z: tests start from a fixed moment. */
export const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);

/** Opens a fresh file-backed memory. */
export async function tempMemory(opts: Omit<OpenMemoryOptions, 'path' | 'clock'> = {}): Promise<TempMemory> {
  const dir = mkdtempSync(join(tmpdir(), 'tidepool-test-'));
  const path = join(dir, 'memory.db');
  const clock = new FixedClock(T0);
  const warnings: string[] = [];
  const memory = await openMemory({ ...opts, path, clock, warn: (m) => warnings.push(m) });
  return {
    memory,
    clock,
    dir,
    path,
    warnings,
    async cleanup() {
      await memory.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
