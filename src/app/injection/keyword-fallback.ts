/** T4 keyword fallback: when semantic recall finds too little, a few query keywords search the word index. */
import { fromTidelineWeight } from '../../core/weight-scale.js';
import type { Knowledge, Narrative } from '../../core/types.js';
import { RECALLABLE } from '../../retrieval/recall-pipeline.js';
import { queryTerms } from '../../retrieval/query-terms.js';
import type { AppContext } from '../app-context.js';

// SEEDS §1.6 T4: "≥ 2 consecutive CJK chars or ≥ 3 ASCII letters" from the first 200 characters.
const KEYWORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{2,}|[A-Za-z][A-Za-z0-9_-]{2,}/gu;
const QUERY_CHARS = 200;
// SEEDS §1.6: 3 hits per keyword.
const PER_KEYWORD = 3;

/** Keywords of `text` in order of appearance, stop words dropped, at most `max`. */
export function fallbackKeywords(text: string, max: number): string[] {
  const out: string[] = [];
  for (const m of text.slice(0, QUERY_CHARS).matchAll(KEYWORD)) {
    const kw = m[0];
    // queryTerms drops English stop words ("the", "and"…) and segments CJK runs.
    if (queryTerms(kw).length === 0 || out.some((k) => k.toLowerCase() === kw.toLowerCase())) continue;
    out.push(kw);
    if (out.length >= max) break;
  }
  return out;
}

/** One fallback hit; `weight` orders them (narrative weight; knowledge importance on the same scale, (importance − 1) / 4). */
export type FallbackHit = { layer: 'narrative'; row: Narrative; weight: number } | { layer: 'knowledge'; row: Knowledge; weight: number };

/**
 * For each keyword, the word index of narratives and knowledge; each keyword keeps its 3 heaviest hits not in
 * `exclude` (keys `n3`, `k7`); all are merged, heaviest first, up to `limit`. Segmented CJK words reach the word
 * index, so 2-character keywords match (SEEDS T-6 sent them to a trigram index that needs 3).
 */
export async function keywordFallback(ctx: AppContext, text: string, exclude: ReadonlySet<string>, limit: number): Promise<FallbackHit[]> {
  const found = new Map<string, FallbackHit>();
  for (const kw of fallbackKeywords(text, ctx.config.injection.t4Keywords)) {
    const terms = queryTerms(kw);
    const nIds = (await ctx.scope.search.lexical('narrative', terms, { limit: 50 })).map((h) => h.id);
    const kIds = (await ctx.scope.search.lexical('knowledge', terms, { limit: 50, statuses: RECALLABLE })).map((h) => h.id);
    const hits: FallbackHit[] = [
      ...(await ctx.scope.narratives.getMany(nIds)).map((row) => ({ layer: 'narrative' as const, row, weight: row.weight })),
      ...(await ctx.scope.knowledge.getMany(kIds))
        .filter((row) => RECALLABLE.includes(row.status))
        .map((row) => ({ layer: 'knowledge' as const, row, weight: fromTidelineWeight(row.importance / 5) })),
    ];
    const fresh = hits
      .filter((h) => !exclude.has(keyOf(h)) && !found.has(keyOf(h)))
      .sort((a, b) => b.weight - a.weight || b.row.createdAt - a.row.createdAt)
      .slice(0, PER_KEYWORD);
    for (const h of fresh) found.set(keyOf(h), h);
  }
  return [...found.values()].sort((a, b) => b.weight - a.weight || b.row.createdAt - a.row.createdAt).slice(0, limit);
}

/** `n3` / `k7`. */
export function keyOf(h: { layer: 'narrative' | 'knowledge'; row: { id: number } }): string {
  return `${h.layer === 'narrative' ? 'n' : 'k'}${h.row.id}`;
}
