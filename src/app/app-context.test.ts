/** A context is bound to its space once: its scope, the facade's other spaces and a re-bound copy each see their own rows. */
import { afterEach, describe, expect, it } from 'vitest';
import { tempMemory, type TempMemory } from '../../test/helpers/temp-memory.js';
import { bindSpace } from './app-context.js';
import { appContextOf } from './tidepool.js';

let t: TempMemory | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe('bindSpace', () => {
  it("binds the scope to the context's space, and a change of space re-binds it", async () => {
    t = await tempMemory();
    await t.memory.remember({ text: 'The staging port is 6543' });
    const own = appContextOf(t.memory);
    expect(own.scope.space).toBe(own.space);
    expect(await own.scope.knowledge.count()).toBe(1);
    // Through the facade and through bindSpace, even from a copy that still carries the old scope.
    const team = appContextOf(t.memory.withSpace('team'));
    const copied = bindSpace({ ...own }, 'team');
    for (const ctx of [team, copied]) {
      expect([ctx.space, ctx.scope.space]).toEqual(['team', 'team']);
      expect(await ctx.scope.knowledge.count()).toBe(0);
    }
  });
});
