/** Text every engine can store: lone surrogates and NUL are bound as U+FFFD by both adapters. */
import { describe, expect, it } from 'vitest';
import { pgParams } from './postgres/positional-params.js';
import { atMostTogether, currentStatementShare, storableParams, TOGETHER, withStatementShare } from './sql-driver.js';

describe('storableParams', () => {
  it('replaces NUL and lone surrogates in strings, keeps pairs, other types and the array when nothing changes', () => {
    const bytes = new Uint8Array([0, 0xd8]);
    const clean: readonly (string | number | null | Uint8Array)[] = ['plain', '😀', 1, null, bytes];
    expect(storableParams(clean)).toBe(clean);
    expect(storableParams(['a\u0000b', '\ud800', 'x\udfffy', '\udc00\ud800', '😀\u0000', 7, bytes])).toEqual([
      'a\ufffdb', '\ufffd', 'x\ufffdy', '\ufffd\ufffd', '😀\ufffd', 7, bytes,
    ]);
  });

  it('is applied to the parameters of both PostgreSQL drivers', () => {
    // Found by fuzz-mcp: PGlite refused "a\0b" with `invalid byte sequence for encoding "UTF8": 0x00`.
    expect(pgParams(['a\u0000b', 'x\ud800', 1n])).toEqual(['a\ufffdb', 'x\ufffd', '1']);
  });
});

describe('atMostTogether', () => {
  it('runs every task, never more than the limit at once, and gives the results in order', async () => {
    let running = 0;
    let most = 0;
    const task = (i: number) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, (7 - i) % 3));
      running--;
      return i * 10;
    };
    expect(await atMostTogether(Array.from({ length: 7 }, (_, i) => task(i)), 2)).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(most).toBe(2);
    most = 0;
    expect(await atMostTogether([task(1), task(2)], 5)).toEqual([10, 20]);
    expect(most).toBe(2);
    expect(await atMostTogether([], 2)).toEqual([]);
  });
});

describe('withStatementShare', () => {
  // A stand-in for a pool's statement: takes the caller's share while it runs, as PgDriver does.
  let running = 0;
  let most = 0;
  const statement = async (ms: number) => {
    const run = async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      running--;
    };
    const share = currentStatementShare();
    await (share ? share.run(run) : run());
  };

  it('keeps a caller to TOGETHER statements at once however its parts are nested, and every statement runs', async () => {
    most = 0;
    let done = 0;
    const part = async (n: number) => {
      // Parts each running statements together, themselves run together: five at once without the share.
      await Promise.all(Array.from({ length: n }, async (_, i) => {
        await statement(2 + (i % 3));
        done++;
      }));
    };
    await withStatementShare(() => Promise.all([part(2), part(2), statement(3).then(() => done++)]));
    expect(done).toBe(5);
    expect(most).toBe(TOGETHER);
  });

  it('gives each caller its own share, and none outside one', async () => {
    most = 0;
    expect(currentStatementShare()).toBeUndefined();
    // Two callers at once: each may run TOGETHER, so four at once in all.
    const caller = () => withStatementShare(() => Promise.all(Array.from({ length: 4 }, () => statement(5))));
    await Promise.all([caller(), caller()]);
    expect(most).toBe(2 * TOGETHER);
    most = 0;
    await Promise.all(Array.from({ length: 5 }, () => statement(2)));
    expect(most).toBe(5);
  });

  it('passes a slot on when a statement fails, so the caller goes on', async () => {
    await withStatementShare(async () => {
      const share = currentStatementShare()!;
      const failing = () =>
        share.run(async () => {
          throw new Error('refused');
        });
      await Promise.allSettled([failing(), failing(), failing()]);
      await Promise.all([statement(1), statement(1)]);
    });
  });
});
