/** `timeline`: the raw verbatim history in time order; ranges reaching past 14 days read the cold archive too. */
import { DAY_MS, MAX_TIME_MS } from '../core/clock.js';
import { TidepoolError } from '../core/errors.js';
import { parseInput, timelineInput, type TimelineInput } from '../core/schemas.js';
import type { Episode } from '../core/types.js';
import { LIFECYCLE } from '../script/lifecycle-policy.js';
import type { AppContext } from './app-context.js';
import { requireSpace } from './require-space.js';

/** One page of the timeline. */
export interface TimelinePage {
  items: Episode[];
  total: number;
  offset: number;
}

/** SEEDS §3.7: a request that reads the archive covers at most 62 days. */
export const ARCHIVE_RANGE_DAYS = 62;

/**
 * Reads episodes between `from` and `to`, archived ones included (transparently: the archive is a colder tier of
 * the same history). When `from` lies more than 14 days back (where the archive starts, SEEDS §3.7) the range may
 * span at most 62 days, else `invalid_input` says how to split it.
 */
export async function timeline(ctx: AppContext, raw: TimelineInput = {}): Promise<TimelinePage> {
  const q = parseInput(timelineInput, raw);
  await requireSpace(ctx);
  const now = ctx.clock.now();
  const to = q.to ?? now;
  if (
    q.from !== undefined &&
    q.from < now - LIFECYCLE.archiveAfterDays * DAY_MS &&
    to - q.from > ARCHIVE_RANGE_DAYS * DAY_MS
  ) {
    const days = Math.ceil((to - q.from) / DAY_MS);
    const until = new Date(q.from + ARCHIVE_RANGE_DAYS * DAY_MS).toISOString().slice(0, 10);
    throw new TidepoolError(
      'invalid_input',
      `to: a range reaching into the archive (older than ${LIFECYCLE.archiveAfterDays} days) may span at most ${ARCHIVE_RANGE_DAYS} days, ` +
        `this one spans ${days}; ask for it in parts, e.g. from ${new Date(q.from).toISOString().slice(0, 10)} to ${until}`,
      { field: 'to', details: { maxDays: ARCHIVE_RANGE_DAYS, days } },
    );
  }
  const page = await ctx.scope.episodes.timeline({
    from: q.from,
    to: q.to,
    session: q.session,
    limit: q.limit,
    offset: q.offset,
    order: q.order,
    // The archive is a colder tier, not a wall: every page reads it (DESIGN §6).
    includeArchived: true,
  });
  // A row written before times were checked reads clamped (store `timeOf`); say so instead of failing the page.
  const clamped = page.items.filter((e) => e.occurredAt === MAX_TIME_MS).length;
  if (clamped > 0) ctx.warn(`timeline: ${clamped} episode(s) hold a time past 9999-12-31 (written before times were checked); shown at 9999-12-31`);
  return { ...page, offset: q.offset };
}
