/** Reads of a space that was never written to are refused with a clear message (a typo must not look empty). */
import { TidepoolError } from '../core/errors.js';
import type { AppContext } from './app-context.js';

/** The space every fresh memory has; reading it before any write simply finds nothing. */
export const DEFAULT_SPACE = 'default';

/**
 * Spaces seen to exist, per store: a space is erased only by `forget --all` (which forgets it here), so a read need
 * not ask again each time (a round trip of every recall on PostgreSQL). Erased by another process, the space's reads
 * here find nothing instead of being refused.
 */
const seen = new WeakMap<object, Set<string>>();

/** Forgets that the context's space was seen to exist (its erasure). */
export function spaceErased(ctx: AppContext): void {
  seen.get(ctx.store)?.delete(ctx.space);
}

/** Throws `not_found` when the context's space does not exist (except the default space). */
export async function requireSpace(ctx: AppContext): Promise<void> {
  if (ctx.space === DEFAULT_SPACE) return;
  const known = seen.get(ctx.store);
  if (known?.has(ctx.space)) return;
  if (await ctx.store.spaces.exists(ctx.space)) {
    if (known === undefined) seen.set(ctx.store, new Set([ctx.space]));
    else known.add(ctx.space);
    return;
  }
  throw new TidepoolError('not_found', `space "${ctx.space}" does not exist yet: nothing was written to it (check --space)`, {
    field: 'space',
  });
}
