/** `journal index`: rebuilds both INDEX.md files and re-indexes every section, picking up edits made by hand. */
import type { z } from 'zod';
import { parseInput } from '../core/schemas.js';
import type { AgentsHintKind } from './agents-hint.js';
import { loadUsage, openWorkspace, syncHint, type JournalContext } from './journal-context.js';
import { refreshIndexes, type IndexRefresh } from './journal-indexing.js';
import { JournalRootInput } from './journal-inputs.js';

/** What the rebuild wrote. */
export interface JournalIndexResult extends IndexRefresh {
  root: string;
  hint: AgentsHintKind;
}

/** Rebuilds the indexes of the workspace and syncs the AGENTS.md hint. */
export async function rebuildIndexes(
  ctx: JournalContext,
  raw: z.input<typeof JournalRootInput>,
): Promise<JournalIndexResult> {
  const input = parseInput(JournalRootInput, raw);
  const ws = await openWorkspace(ctx, input.root, { bootstrap: true });
  return ctx.locks.run(ws.dir.path, async () => {
    const refreshed = await refreshIndexes(ctx, ws, (await loadUsage(ws.dir)).book);
    const hint = (await syncHint(ctx, ws)).kind;
    return { root: ws.dir.root, ...refreshed, hint };
  });
}
