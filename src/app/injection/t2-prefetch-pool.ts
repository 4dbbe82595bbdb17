/** T2 prefetch pool: recent weighty narratives, reduced to a few that share no tag (SEEDS §1.6). */
import { DAY_MS } from '../../core/clock.js';
import type { Narrative } from '../../core/types.js';
import type { AppContext } from '../app-context.js';
import type { BlockItem } from './block-budget.js';
import { oneLine, stripBracketTags } from './inject-text.js';

const POOL_VALUE = 50;

/** `- gesture → cognition_direction`, bracket tags stripped (SEEDS §1.6). */
export function narrativeLine(n: Narrative): string {
  const gesture = oneLine(stripBracketTags(n.gesture ?? n.content));
  const direction = n.cognitionDirection ? oneLine(stripBracketTags(n.cognitionDirection)) : '';
  return direction ? `${gesture} → ${direction}` : gesture;
}

/**
 * Picks, from the `t2Pool` heaviest narratives above `t2MinWeight` of the last `t2Days` days, up to `t2Pick` in
 * weight order, skipping any that carries a tag an earlier pick already used.
 */
export function dedupeByTag(pool: readonly Narrative[], pick: number): Narrative[] {
  const used = new Set<string>();
  const out: Narrative[] = [];
  for (const n of pool) {
    if (out.length >= pick) break;
    if (n.tags.some((t) => used.has(t))) continue;
    for (const t of n.tags) used.add(t);
    out.push(n);
  }
  return out;
}

/** Builds the T2 items. */
export async function poolItems(ctx: AppContext): Promise<BlockItem[]> {
  const c = ctx.config.injection;
  const pool = await ctx.scope.derived.heaviestNarratives({
    since: ctx.clock.now() - c.t2Days * DAY_MS,
    minWeight: c.t2MinWeight,
    limit: c.t2Pool,
  });
  return dedupeByTag(pool, c.t2Pick).map((n, i) => ({
    section: 'pool' as const,
    text: `- ${narrativeLine(n)}`,
    value: POOL_VALUE + n.weight - i * 0.001,
    ref: { layer: 'narrative' as const, id: n.id },
  }));
}
