/** Reads of a space that was never written to are refused with a clear message (a typo must not look empty). */
import { TidepoolError } from '../core/errors.js';
import type { AppContext } from './app-context.js';

/** The space every fresh memory has; reading it before any write simply finds nothing. */
export const DEFAULT_SPACE = 'default';

/** Throws `not_found` when the context's space does not exist (except the default space). */
export async function requireSpace(ctx: AppContext): Promise<void> {
  if (ctx.space === DEFAULT_SPACE) return;
  if (await ctx.store.spaces.exists(ctx.space)) return;
  throw new TidepoolError('not_found', `space "${ctx.space}" does not exist yet: nothing was written to it (check --space)`, {
    field: 'space',
  });
}
