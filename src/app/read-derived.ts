/**
 * Reads of what the script layer and the sleep derive: briefings, self-image, gaps, topic clusters. Empty tables
 * are answered with an explanation of what fills them, never an error.
 */
import { z } from 'zod';
import { utcDay } from '../core/clock.js';
import { parseInput } from '../core/schemas.js';
import { isSelfConceptField, SELF_IMAGE_PREFIX, type SelfConcept } from '../core/types.js';
import { detectGaps, GAP_RULES, type TopicStat } from '../script/gap-detection.js';
import type { BriefingRow, TopicClusterRow } from '../store/port.js';
import type { AppContext } from './app-context.js';
import { topicStatsOf } from '../sleep/topic-stats.js';
import { RECALLABLE } from '../retrieval/recall-pipeline.js';
import { requireSpace } from './require-space.js';

/** `briefing` input: a UTC day `YYYY-MM-DD`; omitted means the newest briefing. */
export const briefingInput = z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a UTC day YYYY-MM-DD').optional() });
/** `gaps` input. */
export const gapsInput = z.object({ limit: z.number().int().min(1).max(100).default(GAP_RULES.limit) });

/** A briefing, or why there is none. */
export type BriefingResult = { kind: 'found'; briefing: BriefingRow; today: boolean } | { kind: 'none'; message: string };

/** The morning briefing of `day` (default: the newest). */
export async function readBriefing(ctx: AppContext, raw: unknown = {}): Promise<BriefingResult> {
  const input = parseInput(briefingInput, raw ?? {});
  await requireSpace(ctx);
  const today = utcDay(ctx.clock.now());
  const found = input.day ? await ctx.scope.derived.briefing(input.day) : await ctx.scope.derived.latestBriefing();
  if (found) return { kind: 'found', briefing: found, today: found.day === today };
  const latest = input.day ? await ctx.scope.derived.latestBriefing() : undefined;
  if (latest) return { kind: 'none', message: `no briefing for ${input.day}; the newest is from ${latest.day} (call briefing without a day to read it)` };
  return { kind: 'none', message: "no briefing yet: the first night's sleep writes one (run `tidepool sleep`, or wait for the nightly run)" };
}

/** Today's briefing only (the `tidepool://briefing/today` resource). */
export async function readTodayBriefing(ctx: AppContext): Promise<BriefingResult> {
  const day = utcDay(ctx.clock.now());
  const found = await ctx.scope.derived.briefing(day);
  if (found) return { kind: 'found', briefing: found, today: true };
  const latest = await ctx.scope.derived.latestBriefing();
  return {
    kind: 'none',
    message: latest
      ? `no briefing for today (${day}) yet; the newest is from ${latest.day}: ${latest.headline}`
      : "no briefing yet: the first night's sleep writes one",
  };
}

/** The self-image (Tulimoa) and self-concept (Tideline) of the space. */
export interface SelfView {
  /** Tideline self-concept fields (fact, terrain, self_reflection). */
  concept: SelfConcept[];
  /** The sleep's self-image: works_on, user_wants, stuck_on; null until a night wrote it. */
  image: Record<string, string> | null;
  knowledgeCount: number;
  /** Set when both are empty: what fills them. */
  message?: string;
}

/** Reads the self-concept and the self-image. */
export async function readSelf(ctx: AppContext): Promise<SelfView> {
  await requireSpace(ctx);
  const rows = await ctx.scope.identity.selfConcept();
  const concept = rows.filter((r) => isSelfConceptField(r.field));
  const imageRows = rows.filter((r) => r.field.startsWith(SELF_IMAGE_PREFIX));
  const image = imageRows.length > 0 ? Object.fromEntries(imageRows.map((r) => [r.field.slice(SELF_IMAGE_PREFIX.length), r.content])) : null;
  const knowledgeCount = await ctx.scope.knowledge.count(RECALLABLE);
  const view: SelfView = { concept, image, knowledgeCount };
  if (concept.length === 0 && !image) {
    view.message =
      `no self-image yet: the sleep writes one once there are at least 5 knowledge entries (${knowledgeCount} now); ` +
      'self-concept fields can be written with memory_write_self_concept';
  }
  return view;
}

/** Gaps: topics mentioned often but barely linked ("worth exploring"). */
export async function readGaps(ctx: AppContext, raw: unknown = {}): Promise<{ gaps: TopicStat[]; message?: string }> {
  const input = parseInput(gapsInput, raw ?? {});
  await requireSpace(ctx);
  const stats = await topicStatsOf(ctx.store, ctx.space);
  const gaps = detectGaps(stats, { limit: input.limit });
  if (gaps.length > 0) return { gaps };
  const message =
    stats.length === 0
      ? 'no gaps yet: gaps are topics (topic clusters, knowledge subjects, graph entities) mentioned at least 3 times but barely linked; none are known so far (tidepool script all builds topics and the graph)'
      : `no gaps: none of ${stats.length} known topics is mentioned at least ${GAP_RULES.minMentions} times with at most ${GAP_RULES.maxDegree} link`;
  return { gaps, message };
}

/** Topic clusters with at least `minSize` members, largest first (the T3 memory map). */
export async function readTopicClusters(ctx: AppContext, q: { minSize: number; limit: number }): Promise<TopicClusterRow[]> {
  return ctx.scope.derived.topicClusters(q);
}

/** The newest briefing's day and headline, for the wake state; undefined before the first night. */
export async function latestHeadline(ctx: AppContext): Promise<{ day: string; headline: string } | undefined> {
  const b = await ctx.scope.derived.latestBriefing();
  return b ? { day: b.day, headline: b.headline } : undefined;
}
