/** Groups a night's episodes by meaning for the librarian, then packs groups so each model call is worth its prompt. */

import { contentTokens } from '../script/contradiction-policy.js';

/** An episode as grouping sees it. */
export interface GroupItem {
  id: number;
  text: string;
  session: string | null;
  at: number;
  /** Estimated prompt tokens of this episode. */
  cost: number;
}

/**
 * Thresholds (SEEDS §3.8 leaves the method open). An episode joins the group that already holds at least 34 % of
 * its content words (stop words and negations left out, CJK as character bigrams). A turn of the same session
 * within 30 minutes of the group's last one gets +0.15 (a conversation stays on its topic). Whole groups are then
 * packed, in time order, into packets of at most `maxCost` prompt tokens: one model call pays its system prompt once
 * for several small groups, and the related episodes of a group stay side by side.
 */
export const GROUPING = { join: 0.34, sessionBonus: 0.15, sessionGapMs: 30 * 60_000 } as const;

interface Group {
  ids: number[];
  words: Set<string>;
  session: string | null;
  lastAt: number;
  cost: number;
  firstAt: number;
}

/**
 * Deterministic single pass in time order (ties by id): each episode joins its best-scoring group when the score
 * reaches the threshold and the group still has room, else it starts a new group. Returns packets of episode ids,
 * oldest first.
 */
export function groupEpisodes(items: readonly GroupItem[], opts: { maxCost: number }): number[][] {
  const sorted = [...items].sort((a, b) => a.at - b.at || a.id - b.id);
  const groups: Group[] = [];
  for (const item of sorted) {
    const words = contentTokens(item.text);
    let best: Group | undefined;
    let bestScore = -Infinity;
    for (const g of groups) {
      if (g.cost + item.cost > opts.maxCost) continue;
      const s = score(item, words, g);
      if (s > bestScore) {
        bestScore = s;
        best = g;
      }
    }
    if (best !== undefined && bestScore >= GROUPING.join) {
      best.ids.push(item.id);
      for (const w of words) best.words.add(w);
      best.session = item.session;
      best.lastAt = item.at;
      best.cost += item.cost;
    } else {
      groups.push({
        ids: [item.id],
        words: new Set(words),
        session: item.session,
        lastAt: item.at,
        firstAt: item.at,
        cost: item.cost,
      });
    }
  }
  return pack(groups, opts.maxCost);
}

function score(item: GroupItem, words: ReadonlySet<string>, g: Group): number {
  let shared = 0;
  for (const w of words) if (g.words.has(w)) shared++;
  let s = words.size === 0 ? 0 : shared / words.size;
  if (item.session !== null && item.session === g.session && item.at - g.lastAt <= GROUPING.sessionGapMs)
    s += GROUPING.sessionBonus;
  return s;
}

function pack(groups: readonly Group[], maxCost: number): number[][] {
  const ordered = [...groups].sort((a, b) => a.firstAt - b.firstAt || a.ids[0]! - b.ids[0]!);
  const out: number[][] = [];
  let open: { ids: number[]; cost: number } | undefined;
  for (const g of ordered) {
    if (open !== undefined && open.cost + g.cost <= maxCost) {
      open.ids.push(...g.ids);
      open.cost += g.cost;
      continue;
    }
    open = { ids: [...g.ids], cost: g.cost };
    out.push(open.ids);
  }
  return out;
}
