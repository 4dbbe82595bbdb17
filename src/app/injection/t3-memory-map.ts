/** T3 memory map: the largest topic clusters and the profiles (self and pinned in full, others one line). */
import type { Profile } from '../../core/types.js';
import type { AppContext } from '../app-context.js';
import type { BlockItem } from './block-budget.js';
import { clipAtBoundary, oneLine, stripBracketTags } from './inject-text.js';

const VALUE = { self: 80, pinned: 60, topic: 20, other: 10 } as const;

/** Topic-cluster items `name(size)`, largest first. */
export async function topicItems(ctx: AppContext): Promise<BlockItem[]> {
  const c = ctx.config.injection;
  const clusters = await ctx.scope.derived.topicClusters({ minSize: c.t3MinMembers, limit: c.t3Clusters });
  return clusters.map((t, i) => ({ section: 'map' as const, text: `${t.name}(${t.size})`, value: VALUE.topic + 1 - i / (clusters.length + 1) }));
}

/** True for the entities whose profiles are always shown in full (SEEDS §1.6 T3b: fixed `self`). */
function isSelf(entity: string, agentName: string): boolean {
  const e = entity.trim().toLowerCase();
  return e === 'self' || e === agentName.trim().toLowerCase();
}

/**
 * Profile items: self in full, the `t3Pinned` most recently updated pinned entities in full (SEEDS §1.6 T3b: at most
 * 2), every other entity as one line of at most `profileLineChars`.
 */
export async function profileItems(ctx: AppContext): Promise<BlockItem[]> {
  const profiles = await ctx.scope.identity.profiles();
  const byEntity = new Map<string, Profile[]>();
  for (const p of profiles) byEntity.set(p.entity, [...(byEntity.get(p.entity) ?? []), p]);
  const items: BlockItem[] = [];
  let rank = 0;
  let pinned = 0;
  for (const [entity, rows] of byEntity) {
    rank++;
    const self = isSelf(entity, ctx.config.agentName) || rows.some((r) => r.ptype === 'self');
    // Profiles come newest first, so the pins shown in full are the most recently updated ones.
    const full = self || (rows.some((r) => r.pinned) && pinned++ < ctx.config.injection.t3Pinned);
    if (full) {
      const lines = rows.map((r) => `  - ${r.ptype}: ${stripBracketTags(r.content)}`);
      items.push({ section: 'people', text: `- ${entity}${self ? '' : ' (pinned)'}\n${lines.join('\n')}`, value: self ? VALUE.self : VALUE.pinned });
      continue;
    }
    // SEEDS §1.6 T3b: the contact profile if there is one, else the newest; one line.
    const line = rows.find((r) => r.ptype === 'contact') ?? rows[0]!;
    const text = clipAtBoundary(oneLine(stripBracketTags(line.content)), ctx.config.injection.profileLineChars);
    items.push({ section: 'people', text: `- ${entity}: ${text}`, value: VALUE.other + 1 / (rank + 1) });
  }
  // Self first, then pinned, then the most recently updated others.
  return items.sort((a, b) => b.value - a.value);
}
