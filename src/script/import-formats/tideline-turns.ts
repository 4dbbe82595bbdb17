/** Tideline context rows as imported turns, so a Tideline raw log lands in the episode layer idempotently. */
import type { ImportedTurn } from './imported-turn.js';
import type { TidelineContext } from './decode-tideline-db.js';

const PREFIX = /^\s*\[(USER|ASSISTANT)\]\s?/i;

/**
 * One turn per context row: `[USER]`/`[ASSISTANT]` rows become user/assistant turns without the prefix; other rows
 * (context_record notes, weekly session summaries) were written by the agent and become assistant turns with
 * `meta.kind = 'note'`. Tideline's meta is kept under `meta.tideline`. Refs are `tideline:<fileId>:context:<id>`.
 */
export function tidelineContextTurns(rows: readonly TidelineContext[], fileId: string): ImportedTurn[] {
  return rows.map((r) => {
    const turn: ImportedTurn = {
      role: r.role ?? 'assistant',
      content: r.role ? r.content.replace(PREFIX, '') : r.content,
      ref: `tideline:${fileId}:context:${r.id}`,
      meta: {
        tidelineId: r.id,
        ...(r.role ? {} : { kind: 'note' }),
        ...(Object.keys(r.meta).length > 0 ? { tideline: r.meta } : {}),
      },
    };
    if (r.session) turn.session = r.session;
    if (r.createdAt !== null) turn.at = r.createdAt;
    return turn;
  });
}
