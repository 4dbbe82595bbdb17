/** The wire convention: snake_case field names, opaque config and user JSON kept, data-shaped keys untouched. */
import { describe, expect, it } from 'vitest';
import { snakeKeys } from './wire-format.js';

describe('snakeKeys', () => {
  it('renames camelCase fields deeply, in arrays too', () => {
    expect(snakeKeys({ createdAt: 1, trackB: { chunkCount: 2 }, items: [{ occurredAt: 3, ok: true }] })).toEqual({
      created_at: 1, track_b: { chunk_count: 2 }, items: [{ occurred_at: 3, ok: true }],
    });
  });

  it('keeps config keys, user JSON and keys that are data (names, already snake_case) as they are', () => {
    expect(snakeKeys({ config: { hotKeepDays: 14 }, meta: { clientId: 'x' }, counts: { McDonald: 1, already_snake: 2, 'two words': 3 } })).toEqual({
      config: { hotKeepDays: 14 }, meta: { clientId: 'x' }, counts: { McDonald: 1, already_snake: 2, 'two words': 3 },
    });
    expect(snakeKeys([1, 'a', null])).toEqual([1, 'a', null]);
  });
});
