/** T2b context bridge: the newest turns of one recent session, so a new session picks up where the last left off. */
import type { Episode } from '../../core/types.js';
import type { AppContext } from '../app-context.js';
import type { BlockItem } from './block-budget.js';
import { clipAtBoundary, oneLine } from './inject-text.js';
import { relativeTime, type LabelLanguage } from './relative-time.js';

const HOUR_MS = 3_600_000;
// SEEDS §1.6: at most 30 newest rows are considered per window.
const ROWS_PER_WINDOW = 30;
const BRIDGE_VALUE = 40;

/** The chosen session and its chunks, oldest first. */
export interface Bridge {
  session: string | null;
  rows: Episode[];
}

/**
 * Tries the windows in order (24 → 48 → 72 h): among the newest conversation rows of the first window that has
 * any, the session with the latest row wins, and its newest `bridgeChunks` rows are shown in time order (fixing
 * SEEDS T-9, which took the oldest five). When no window has any, the newest conversation of the memory is taken.
 */
export async function findBridge(ctx: AppContext): Promise<Bridge | undefined> {
  const c = ctx.config.injection;
  const now = ctx.clock.now();
  for (const hours of c.bridgeWindowsHours) {
    const page = await ctx.scope.episodes.timeline({
      from: now - hours * HOUR_MS, to: now, limit: ROWS_PER_WINDOW * 4, offset: 0, order: 'desc', includeArchived: false,
    });
    // Conversation texture only: tool output and remembered facts have their own ways in.
    const rows = page.items.filter((e) => e.kind === 'turn' || e.kind === 'note').slice(0, ROWS_PER_WINDOW);
    if (rows.length === 0) continue;
    const session = rows[0]!.session;
    const mine = rows.filter((e) => e.session === session).slice(0, c.bridgeChunks);
    return { session, rows: mine.reverse() };
  }
  // No conversation in the windows (a history imported today, a memory left alone for a week): the newest
  // conversation there is, whenever it was; its note says how long ago.
  const page = await ctx.scope.episodes.timeline({ limit: ROWS_PER_WINDOW * 4, offset: 0, order: 'desc', includeArchived: false });
  const rows = page.items.filter((e) => e.kind === 'turn' || e.kind === 'note').slice(0, ROWS_PER_WINDOW);
  if (rows.length === 0) return undefined;
  const session = rows[0]!.session;
  return { session, rows: rows.filter((e) => e.session === session).slice(0, c.bridgeChunks).reverse() };
}

/** Builds the T2b items and the section note naming the session and when it was. */
export async function bridgeItems(ctx: AppContext, lang: LabelLanguage): Promise<{ items: BlockItem[]; note?: string }> {
  const bridge = await findBridge(ctx);
  if (!bridge) return { items: [] };
  const chars = ctx.config.injection.bridgeChars;
  const n = bridge.rows.length;
  const items = bridge.rows.map((e, i) => ({
    section: 'bridge' as const,
    text: `- ${e.speaker ?? e.role ?? e.kind}: ${clipAtBoundary(oneLine(e.content), chars)}`,
    // Newer chunks are worth more: the oldest go first when the budget is tight.
    value: BRIDGE_VALUE + (i + 1) / (n + 1),
    ref: { layer: 'episode' as const, id: e.id },
  }));
  const last = bridge.rows[n - 1]!;
  const note = `${bridge.session ? `session ${bridge.session}, ` : ''}${relativeTime(last.occurredAt, ctx.clock.now(), lang)}`;
  return { items, note };
}
