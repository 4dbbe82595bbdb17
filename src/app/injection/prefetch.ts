/** `prefetch`: per-turn recall (T1) with a keyword fallback (T4); never repeats what this session already saw. */
import { z } from 'zod';
import { formatId, parseId } from '../../core/ids.js';
import { label, parseInput } from '../../core/schemas.js';
import type { Knowledge, Narrative } from '../../core/types.js';
import { RECALLABLE } from '../../retrieval/recall-pipeline.js';
import { countTokens } from '../../core/token-count.js';
import type { AppContext } from '../app-context.js';
import type { InjectOptions } from './context-block.js';
import { noteHits, recall } from '../recall.js';
import { clipAtBoundary, oneLine, stripBracketTags } from './inject-text.js';
import { keyOf, keywordFallback } from './keyword-fallback.js';
import { labelLanguage, relativeTime } from './relative-time.js';
import { narrativeLine } from './t2-prefetch-pool.js';

/** `prefetch` input: the user's new message, the session, an optional token budget. */
export const prefetchInput = z.object({
  text: z.string().max(1_000_000),
  session: label.optional(),
  maxTokens: z.number().int().min(1).max(200_000).optional(),
});
/** Input of `prefetch`. */
export type PrefetchInput = z.input<typeof prefetchInput>;

/** One recalled memory. */
export interface PrefetchHit {
  id: string;
  via: 't1' | 't4';
  /** Cosine (embedder), fused lexical score, or weight for keyword hits. */
  score: number;
  line: string;
  createdAt: number;
}

/** What prefetch found, rendered; `text` is empty when nothing new was found. */
export interface PrefetchResult {
  text: string;
  hits: PrefetchHit[];
  /** `short` when the message had fewer than 5 characters (SEEDS §1.6: the runtime reuses its queued result). */
  skipped?: 'short';
}

// SEEDS §1.6: messages under 5 characters are not searched; the query embedded is the first 500 characters.
const MIN_QUERY_CHARS = 5;
const EMBED_CHARS = 500;
// A knowledge entry is one line; long ones are cut at a sentence so a single hit cannot take the whole turn.
const LINE_CHARS = 300;

type Row = { layer: 'narrative'; row: Narrative } | { layer: 'knowledge'; row: Knowledge };

function render(r: Row, now: number, lang: 'en' | 'zh'): string {
  const when = relativeTime(r.row.createdAt, now, lang);
  if (r.layer === 'narrative') {
    const ctxText = r.row.context ? ` (${clipAtBoundary(oneLine(stripBracketTags(r.row.context)), 120)})` : '';
    return `- ${clipAtBoundary(narrativeLine(r.row), LINE_CHARS)}${ctxText} (${when})`;
  }
  return `- ${clipAtBoundary(oneLine(r.row.content), LINE_CHARS)} (${r.row.kind}, ${when})`;
}

/** T1 candidates: cosine above `t1MinCosine` with an embedder, else the lexical recall path. */
async function semantic(ctx: AppContext, text: string, exclude: ReadonlySet<string>, top: number): Promise<Array<{ r: Row; score: number }>> {
  const c = ctx.config.injection;
  const want = top + exclude.size;
  let qvec: Float32Array | undefined;
  if (ctx.embedder) qvec = await ctx.embedder.embed([text.slice(0, EMBED_CHARS)]).then((v) => v[0]).catch(() => undefined);
  if (ctx.embedder && qvec) {
    const model = ctx.embedder.model;
    const near = [
      ...(await ctx.store.vectors.nearest(ctx.space, 'narrative', model, qvec, want)).map((h) => ({ ...h, layer: 'narrative' as const })),
      ...(await ctx.store.vectors.nearest(ctx.space, 'knowledge', model, qvec, want)).map((h) => ({ ...h, layer: 'knowledge' as const })),
    ].filter((h) => h.score > c.t1MinCosine && !exclude.has(formatId(h.layer, h.id)));
    near.sort((a, b) => b.score - a.score);
    const rows = await load(ctx, near.slice(0, top * 2));
    return near.map((h) => ({ r: rows.get(formatId(h.layer, h.id))!, score: h.score })).filter((x) => x.r !== undefined).slice(0, top);
  }
  // Lexical path (Tideline's FTS-only mode): the recall pipeline over narratives and knowledge, without side effects.
  const hits = await recall(ctx, { query: text.slice(0, 2000), layers: ['narrative', 'knowledge'], limit: want }, { sideEffects: false });
  const fresh = hits.filter((h) => !exclude.has(h.id));
  const rows = await load(ctx, fresh.map((h) => parseId(h.id) as { layer: 'narrative' | 'knowledge'; id: number }));
  return fresh.map((h) => ({ r: rows.get(h.id)!, score: h.score })).filter((x) => x.r !== undefined).slice(0, top);
}

async function load(ctx: AppContext, refs: ReadonlyArray<{ layer: 'narrative' | 'knowledge'; id: number }>): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  const nIds = refs.filter((r) => r.layer === 'narrative').map((r) => r.id);
  const kIds = refs.filter((r) => r.layer === 'knowledge').map((r) => r.id);
  for (const row of await ctx.store.narratives.getMany(ctx.space, nIds)) out.set(formatId('narrative', row.id), { layer: 'narrative', row });
  for (const row of await ctx.store.knowledge.getMany(ctx.space, kIds)) {
    if (RECALLABLE.includes(row.status)) out.set(formatId('knowledge', row.id), { layer: 'knowledge', row });
  }
  return out;
}

/**
 * Recalls memories for a new message: T1 keeps the top `t1Top`; when fewer than 2 are new to the session, T4
 * adds keyword hits. Every hit is logged as `t1_prefetch` in the session, so it is not shown again there (unless
 * `opts.sideEffects` is false: then nothing is written).
 */
export async function prefetch(ctx: AppContext, raw: PrefetchInput, opts: InjectOptions = {}): Promise<PrefetchResult> {
  const input = parseInput(prefetchInput, raw);
  const text = input.text.trim();
  if ([...text].length < MIN_QUERY_CHARS) return { text: '', hits: [], skipped: 'short' };
  const now = ctx.clock.now();
  const lang = labelLanguage(ctx.config);
  const top = ctx.config.injection.t1Top;
  const session = input.session ?? null;
  const seen = session ? await ctx.store.attention.injectedInSession(ctx.space, session) : [];
  const exclude = new Set(seen.filter((s) => s.layer !== 'episode').map((s) => formatId(s.layer, s.itemId)));
  const t1 = await semantic(ctx, text, exclude, top);
  const hits: PrefetchHit[] = t1.map(({ r, score }) => ({ id: formatId(r.layer, r.row.id), via: 't1', score, line: render(r, now, lang), createdAt: r.row.createdAt }));
  // SEEDS §1.6: T4 runs when T1 found fewer than 2.
  if (hits.length < 2) {
    const shown = new Set([...exclude, ...hits.map((h) => h.id)]);
    for (const f of await keywordFallback(ctx, text, shown, top - hits.length)) {
      hits.push({ id: keyOf(f), via: 't4', score: f.weight, line: render(f, now, lang), createdAt: f.row.createdAt });
    }
  }
  const kept = input.maxTokens === undefined ? hits : fitPrefetch(hits, input.maxTokens);
  if (kept.length > 0 && opts.sideEffects !== false) await noteHits(ctx, kept.map((h) => ({ id: h.id, score: h.score })), 't1_prefetch', session, now);
  return { text: renderPrefetch(kept), hits: kept };
}

/** Keeps hits in rank order while the rendered block, headings included, fits `maxTokens` (whole lines only). */
function fitPrefetch(hits: readonly PrefetchHit[], maxTokens: number): PrefetchHit[] {
  const kept: PrefetchHit[] = [];
  for (const h of hits) if (countTokens(renderPrefetch([...kept, h])) <= maxTokens) kept.push(h);
  return kept;
}

/** The per-turn block: T1 hits under one heading, T4 hits under another; empty when there are none. */
export function renderPrefetch(hits: readonly PrefetchHit[]): string {
  const t1 = hits.filter((h) => h.via === 't1');
  const t4 = hits.filter((h) => h.via === 't4');
  const parts: string[] = [];
  if (t1.length > 0) parts.push(`## Related memories (auto-recalled)\n${t1.map((h) => h.line).join('\n')}`);
  if (t4.length > 0) parts.push(`## Older memories (keyword match)\n${t4.map((h) => h.line).join('\n')}`);
  return parts.join('\n\n');
}
