/** Knowledge gaps: topics that are mentioned often but barely linked, shown as "worth exploring" (SEEDS §3.5). */

/** How often a topic or entity is mentioned, and how many knowledge links touch it. */
export interface TopicStat {
  topic: string;
  mentions: number;
  degree: number;
}

/**
 * Thresholds (SEEDS §3.8 leaves them open): mentioned ≥ 3 times, the same floor as a topic cluster's document
 * frequency (SEEDS §1.7, DF ≥ 3), and at most 1 link, i.e. isolated or hanging on a single edge. At most 10 gaps.
 */
export const GAP_RULES = { minMentions: 3, maxDegree: 1, limit: 10 } as const;

/** Topics with `mentions ≥ minMentions` and `degree ≤ maxDegree`, most mentioned first (then fewest links, then name). */
export function detectGaps(
  stats: readonly TopicStat[],
  options: { minMentions?: number; maxDegree?: number; limit?: number } = {},
): TopicStat[] {
  const minMentions = options.minMentions ?? GAP_RULES.minMentions;
  const maxDegree = options.maxDegree ?? GAP_RULES.maxDegree;
  return stats
    .filter((s) => s.mentions >= minMentions && s.degree <= maxDegree)
    .sort(
      (a, b) =>
        b.mentions - a.mentions ||
        a.degree - b.degree ||
        (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0),
    )
    .slice(0, options.limit ?? GAP_RULES.limit);
}

/** Degree of every node in an undirected link list (a self-link counts once; duplicate links count each time). */
export function linkDegrees<Id>(links: ReadonlyArray<{ from: Id; to: Id }>): Map<Id, number> {
  const degree = new Map<Id, number>();
  for (const l of links) {
    degree.set(l.from, (degree.get(l.from) ?? 0) + 1);
    if (l.to !== l.from) degree.set(l.to, (degree.get(l.to) ?? 0) + 1);
  }
  return degree;
}
