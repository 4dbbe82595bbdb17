/** `forget`: removes one item (by id or key) or erases a whole space. */
import { TidepoolError } from '../core/errors.js';
import { parseId } from '../core/ids.js';
import { forgetInput, parseInput, type ForgetInput } from '../core/schemas.js';
import type { AppContext } from './app-context.js';

/** What `forget` removed. */
export type ForgetResult =
  | { kind: 'item'; id: string; removed: number }
  | { kind: 'key'; key: string; removed: number }
  | { kind: 'space'; space: string };

/** Deletes for real: forgetting is the user's right, not a status change. */
export async function forget(ctx: AppContext, raw: ForgetInput): Promise<ForgetResult> {
  const input = parseInput(forgetInput, raw);
  if ('all' in input) {
    await ctx.store.transaction((tx) => tx.rows.eraseSpace(ctx.space));
    return { kind: 'space', space: ctx.space };
  }
  if ('key' in input) {
    const removed = await ctx.store.transaction(async (tx) => {
      return tx.knowledge.delete(ctx.space, await tx.knowledge.idsByKey(ctx.space, input.key));
    });
    if (removed === 0) throw new TidepoolError('not_found', `no memory with key "${input.key}"`, { field: 'key' });
    return { kind: 'key', key: input.key, removed };
  }
  const { layer, id } = parseId(input.id);
  const removed = await ctx.store.transaction(async (tx) => {
    if (layer === 'episode') return tx.episodes.delete(ctx.space, [id]);
    if (layer === 'narrative') return tx.narratives.delete(ctx.space, [id]);
    return tx.knowledge.delete(ctx.space, [id]);
  });
  if (removed === 0) throw new TidepoolError('not_found', `no item ${input.id} in space "${ctx.space}"`, { field: 'id' });
  return { kind: 'item', id: input.id, removed };
}
