import { afterEach, describe, expect, it } from 'vitest';
import { tempMemory, T0, type TempMemory } from '../../test/helpers/temp-memory.js';
import { openSqliteStore } from '../store/sqlite/open-sqlite.js';
import { noteWarning, readWarnings } from './warnings.js';
import { appContextOf } from './tidepool.js';

let t: TempMemory | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe('warnings', () => {
  it('keeps per kind a count, first and last time and only the 5 latest messages, per space', async () => {
    t = await tempMemory();
    const ctx = appContextOf(t.memory);
    for (let i = 1; i <= 8; i++) {
      t.clock.set(T0 + i);
      noteWarning(ctx, 'embed_failed', `failure ${i}`);
    }
    t.clock.set(T0 + 100);
    noteWarning(ctx, 'corrupt_column', 'bad row');
    noteWarning({ ...ctx, space: 'other' }, 'query_embed_failed', 'elsewhere');
    expect(t.warnings).toHaveLength(10);
    expect(await readWarnings(ctx.store, 'default')).toEqual([
      { kind: 'corrupt_column', count: 1, firstAt: T0 + 100, lastAt: T0 + 100, recent: ['bad row'] },
      { kind: 'embed_failed', count: 8, firstAt: T0 + 1, lastAt: T0 + 8, recent: ['failure 4', 'failure 5', 'failure 6', 'failure 7', 'failure 8'] },
    ]);
    expect((await readWarnings(ctx.store, 'other')).map((w) => w.kind)).toEqual(['query_embed_failed']);
  });

  it('a warning that cannot be kept (a read-only connection) is said in the log, never thrown', async () => {
    t = await tempMemory();
    const readonly = await openSqliteStore(t.path, { readonly: true });
    try {
      noteWarning({ ...appContextOf(t.memory), store: readonly }, 'embed_failed', 'down');
      expect(await readWarnings(readonly, 'default')).toEqual([]);
      expect(t.warnings[0]).toBe('down');
      expect(t.warnings[1]).toMatch(/^the warning could not be kept for doctor: .*readonly/);
    } finally {
      await readonly.close();
    }
  });
});
