/** Bad input of each kind gets a precise error and changes nothing. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory } from '../src/boot/open-memory.js';
import { isTidepoolError } from '../src/core/errors.js';
import { tempMemory, type TempMemory } from './helpers/temp-memory.js';

let t: TempMemory;
beforeEach(async () => {
  t = await tempMemory();
});
afterEach(async () => t.cleanup());

async function exportLines(): Promise<string[]> {
  const out: string[] = [];
  for await (const l of t.memory.export()) out.push(l);
  return out;
}

describe('bad input', () => {
  it('wrong types, empty text and over-size text are refused and the store is unchanged', async () => {
    await t.memory.remember({ text: 'baseline' });
    const before = await exportLines();
    const huge = 'x'.repeat(1_000_001);
    const cases: Array<[() => Promise<unknown>, RegExp]> = [
      [() => t.memory.remember({ text: 123 as unknown as string }), /^text/],
      [() => t.memory.remember({ text: '' }), /^text: must not be empty/],
      [() => t.memory.remember({ text: huge }), /^text: must be at most 1000000 bytes/],
      [() => t.memory.remember({ text: '字'.repeat(400_000) }), /bytes/], // 1.2 MB in UTF-8
      [() => t.memory.remember({ text: 'ok', importance: 'high' as unknown as number }), /^importance/],
      [() => t.memory.record({ turns: [] }), /turns/],
      [() => t.memory.record({ content: huge }), /bytes/],
      [() => t.memory.record({ turns: [{ content: 'x', role: 'robot' as 'user' }] }), /role/],
      [() => t.memory.write({ gesture: 'x', source_links: ['abc'] }), /source_links/],
      [() => t.memory.forget({ id: 'zz9' }), /^id/],
      [() => t.memory.forget({ all: true, confirm: false as unknown as true }), /confirm/],
      [() => t.memory.timeline({ limit: -1 }), /^limit/],
    ];
    for (const [call, msg] of cases) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isTidepoolError(err, 'invalid_input'), String(msg)).toBe(true);
      expect((err as Error).message).toMatch(msg);
    }
    expect(await exportLines()).toEqual(before);
  });

  it('an invalid space name is refused before anything opens', async () => {
    await expect(openMemory({ path: t.path, space: '../etc' })).rejects.toThrow(/space must be/);
    await expect(openMemory({ path: t.path, space: '' })).rejects.toThrow(/space must be/);
  });

  it('forgetting something that does not exist is not_found', async () => {
    const err = await t.memory.forget({ id: 'k42' }).catch((e: unknown) => e);
    expect(isTidepoolError(err, 'not_found')).toBe(true);
  });
});
