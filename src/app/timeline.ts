/** `timeline`: the raw verbatim history in time order, archive included. */
import { parseInput, timelineInput, type TimelineInput } from '../core/schemas.js';
import type { Episode } from '../core/types.js';
import type { AppContext } from './app-context.js';
import { requireSpace } from './require-space.js';

/** One page of the timeline. */
export interface TimelinePage {
  items: Episode[];
  total: number;
  offset: number;
}

/** Reads episodes between `from` and `to` (archived ones too: the archive is read transparently). */
export async function timeline(ctx: AppContext, raw: TimelineInput = {}): Promise<TimelinePage> {
  const q = parseInput(timelineInput, raw);
  await requireSpace(ctx);
  const page = await ctx.store.episodes.timeline(ctx.space, {
    from: q.from, to: q.to, session: q.session, limit: q.limit, offset: q.offset, order: q.order, includeArchived: true,
  });
  return { ...page, offset: q.offset };
}
