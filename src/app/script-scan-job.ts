/** `script scan`: the Layer-0 unindexed scan, as markdown for a human or an agent and JSON for the sleep layer. */
import type { Layer } from '../core/types.js';
import { renderScanMarkdown, scanUnindexed, type Layer0Scan } from '../script/layer0-scan.js';
import type { AppContext } from './app-context.js';
import { embedPending } from './embed-items.js';
import { elapsed } from './script-cluster-jobs.js';

/** Ids listed per embedding track (C, D); the counts are always exact. */
const LISTED_IDS = 100;

/** What the scan found. */
export interface ScanResult {
  job: 'scan';
  scan: Layer0Scan;
  markdown: string;
  /** Items embedded by this run before scanning (only when an embedder is configured). */
  reembedded: Record<Layer, number> | null;
  ms: number;
}

/**
 * Runs the four tracks (SEEDS §1.7 scan_unindexed). Track B reads the episodes stored after `since` (default: the
 * newest narrative's creation) that no sleep has consolidated yet, and chunks them by when they happened, so an
 * imported old session counts as unread. Tracks C/D are the items whose embedding waits (`embed_pending`); with an
 * embedder configured they are embedded first, so the tracks list only what still failed.
 */
export async function scanJob(ctx: AppContext, since?: number): Promise<ScanResult> {
  const started = performance.now();
  const reembedded = ctx.embedder ? await embedPending(ctx) : null;
  const narratives = await ctx.scope.narratives.linkRows();
  const from =
    since ??
    (narratives.length > 0 ? narratives.reduce((m, n) => Math.max(m, n.createdAt), -Infinity) : null);
  const episodes = await ctx.scope.episodes.storedAfter(from);
  const scan = scanUnindexed(
    narratives.map((n) => ({
      id: n.id,
      sourceLinks: n.sourceLinks,
      createdAt: n.createdAt,
      hasEmbedding: !n.embedPending,
    })),
    episodes.map((e) => ({
      id: e.id,
      content: e.content,
      role: e.role,
      session: e.session,
      createdAt: e.occurredAt,
      hasEmbedding: true,
    })),
    // The store already applied `since` to storage time; the scan must not filter again by event time.
    { since: Number.MIN_SAFE_INTEGER },
  );
  scan.trackB.since = from;
  scan.trackC.narrativeIds = scan.trackC.narrativeIds.slice(0, LISTED_IDS);
  const pendingEpisodes = await ctx.scope.vectors.pendingEmbeddings('episode', LISTED_IDS);
  scan.trackD = { count: pendingEpisodes.count, episodeIds: pendingEpisodes.ids };
  return { job: 'scan', scan, markdown: renderScanMarkdown(scan), reembedded, ms: elapsed(started) };
}
