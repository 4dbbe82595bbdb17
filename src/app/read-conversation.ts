/** A search hit in its conversation: the turns of its session around one episode (the dashboard's "open in context"). */
import { z } from 'zod';
import { TidepoolError } from '../core/errors.js';
import { parseId } from '../core/ids.js';
import { parseInput } from '../core/schemas.js';
import type { Episode } from '../core/types.js';
import type { AppContext } from './app-context.js';
import { requireSpace } from './require-space.js';

/** Input: the item (`e12`, `n3`, `k7`) and how many turns before and after its episode to show. */
export const conversationInput = z
  .object({ id: z.string().trim().min(1), turns: z.number().int().min(1).max(100).default(8) })
  .strict();

/** The turns around an episode, oldest first; `session` is null for an episode outside any session (then only it). */
export interface Conversation {
  focus: Episode;
  session: string | null;
  items: Episode[];
}

/**
 * Reads the session's turns around an episode (archived turns included: the archive is a colder tier, not a wall).
 * A narrative opens at the first episode it came from, a knowledge entry at the first episode of its evidence, so
 * every search hit can be read where it was said.
 */
export async function readConversation(ctx: AppContext, raw: unknown): Promise<Conversation> {
  const input = parseInput(conversationInput, raw);
  await requireSpace(ctx);
  const episodeId = await sourceEpisode(ctx, input.id);
  const focus = episodeId === undefined ? undefined : await ctx.scope.episodes.get(episodeId);
  if (!focus) throw new TidepoolError('not_found', `no conversation for ${input.id} in space "${ctx.space}": it has no stored source episode`, { field: 'id' });
  if (focus.session === null) return { focus, session: null, items: [focus] };
  return { focus, session: focus.session, items: await ctx.scope.episodes.neighbours(focus.id, input.turns) };
}

async function sourceEpisode(ctx: AppContext, ref: string): Promise<number | undefined> {
  const { layer, id } = parseId(ref);
  if (layer === 'episode') return id;
  if (layer === 'narrative') return (await ctx.scope.narratives.get(id))?.sourceLinks[0];
  return (await ctx.scope.knowledge.get(id))?.evidence.episodes[0];
}
