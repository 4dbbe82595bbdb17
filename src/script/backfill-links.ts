/** Heuristic source_links for old narratives: nearby episodes that share keywords (SEEDS §1.7 backfill_source_links). */

/** A narrative reduced to what the backfill reads. */
export interface BackfillNarrative {
  id: number;
  /** The narrative's text (gesture, context, …) whose keywords are matched. */
  text: string;
  createdAt: number;
  sourceLinks: readonly number[] | null;
}

/** An episode reduced to what the backfill reads. */
export interface BackfillEpisode {
  id: number;
  content: string;
  createdAt: number;
}

/** Options of {@link backfillSourceLinks}. */
export interface BackfillOptions {
  /** Keyword extractor, normally `createKeywordExtractor({ stopwords })`. */
  extract: (text: string) => readonly string[];
  /** Half-width of the time window (SEEDS §1.7: ±2 h). */
  windowMs?: number;
  /** Links per narrative (SEEDS §1.7: 20). */
  maxLinks?: number;
}

/** Links found for one narrative, ascending episode ids (numbers throughout: SEEDS T-17 mixed ints and strings). */
export interface BackfillResult {
  narrativeId: number;
  sourceLinks: number[];
}

/** SEEDS §1.7 defaults. */
export const BACKFILL_DEFAULTS = { windowMs: 2 * 3_600_000, maxLinks: 20 } as const;

const ROLE_TAG = /^\s*\[[A-Z_]+\]\s*/;

/**
 * For every narrative without source_links: the episodes within ±windowMs of its creation that share at least one
 * keyword with it, best first (more shared keywords, then nearer in time, then lower id), at most `maxLinks`.
 * Narratives that find nothing are left out of the result.
 */
export function backfillSourceLinks(
  narratives: readonly BackfillNarrative[],
  episodes: readonly BackfillEpisode[],
  opts: BackfillOptions,
): BackfillResult[] {
  const windowMs = opts.windowMs ?? BACKFILL_DEFAULTS.windowMs;
  const maxLinks = opts.maxLinks ?? BACKFILL_DEFAULTS.maxLinks;
  const sorted = [...episodes].sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
  const times = sorted.map((e) => e.createdAt);
  const keywordCache = new Map<number, Set<string>>();
  const keywordsOf = (e: BackfillEpisode) => {
    let kw = keywordCache.get(e.id);
    if (!kw) {
      kw = new Set(opts.extract(e.content.replace(ROLE_TAG, '')));
      keywordCache.set(e.id, kw);
    }
    return kw;
  };
  const out: BackfillResult[] = [];
  for (const n of [...narratives].sort((a, b) => a.id - b.id)) {
    if (n.sourceLinks && n.sourceLinks.length > 0) continue;
    const mine = new Set(opts.extract(n.text));
    if (mine.size === 0) continue;
    const candidates: Array<{ id: number; shared: number; dt: number }> = [];
    for (
      let i = lowerBound(times, n.createdAt - windowMs);
      i < sorted.length && times[i]! <= n.createdAt + windowMs;
      i++
    ) {
      const e = sorted[i]!;
      let shared = 0;
      for (const w of keywordsOf(e)) if (mine.has(w)) shared++;
      if (shared > 0) candidates.push({ id: e.id, shared, dt: Math.abs(e.createdAt - n.createdAt) });
    }
    if (candidates.length === 0) continue;
    candidates.sort((a, b) => b.shared - a.shared || a.dt - b.dt || a.id - b.id);
    out.push({
      narrativeId: n.id,
      sourceLinks: candidates
        .slice(0, maxLinks)
        .map((c) => c.id)
        .sort((a, b) => a - b),
    });
  }
  return out;
}

function lowerBound(xs: readonly number[], v: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
