/** `prefetch`: per-turn recall (T1, the recall pipeline over every layer) with a keyword fallback (T4); never repeats what this session already saw. */
import { z } from 'zod';
import { formatId, parseId } from '../../core/ids.js';
import { label, parseInput } from '../../core/schemas.js';
import type { Episode, Knowledge, Layer, Narrative, RecallHit } from '../../core/types.js';
import { embedQuery, RECALLABLE } from '../../retrieval/recall-pipeline.js';
import { withinTokens } from '../../core/token-count.js';
import type { AppContext } from '../app-context.js';
import { noteWarning } from '../warnings.js';
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
  /** Neighbouring turns shown with a recalled turn (`e12`…); logged with it, so they are not repeated either. */
  also?: string[];
}

/** What prefetch found, rendered; `text` is empty when nothing new was found. */
export interface PrefetchResult {
  text: string;
  hits: PrefetchHit[];
  /** `short` when the message had fewer than 5 characters (SEEDS §1.6: the runtime reuses its queued result). */
  skipped?: 'short';
}

// SEEDS §1.6: messages under 5 characters are not searched. The query is the message's first 2,000 characters
// (recall embeds at most `embedder.maxChars` of it).
const MIN_QUERY_CHARS = 5;
const QUERY_CHARS = 2_000;
// A knowledge entry is one line; long ones are cut at a sentence so a single hit cannot take the whole turn.
const LINE_CHARS = 300;

type Row = { layer: 'narrative'; row: Narrative } | { layer: 'knowledge'; row: Knowledge };

// A turn is shown whole (speaker, date, every sentence): an agent needs the turn, not a fragment of it. Only a turn
// longer than this (a pasted log, a file) is cut, at a sentence end.
const TURN_CHARS = 1_200;

function render(r: Row, now: number, lang: 'en' | 'zh'): string {
  const when = relativeTime(r.row.createdAt, now, lang);
  if (r.layer === 'narrative') {
    const ctxText = r.row.context ? ` (${clipAtBoundary(oneLine(stripBracketTags(r.row.context)), 120)})` : '';
    return `- ${clipAtBoundary(narrativeLine(r.row), LINE_CHARS)}${ctxText} (${when})`;
  }
  return `- ${clipAtBoundary(oneLine(r.row.content), LINE_CHARS)} (${r.row.kind}, ${when})`;
}

/** A recalled episode as the agent sees it: `- [2023-05-08, 3 days ago] Caroline: the whole turn`. */
function renderTurn(h: RecallHit, now: number, lang: 'en' | 'zh'): string {
  const day = new Date(h.createdAt).toISOString().slice(0, 10);
  const who = h.speaker ? `${h.speaker}: ` : '';
  return `- [${day}, ${relativeTime(h.createdAt, now, lang)}] ${who}${clipAtBoundary(oneLine(h.text), TURN_CHARS)}`;
}

/**
 * T1: the recall pipeline itself (its fusion of words, vectors when an embedder is set, session context, speakers
 * and time) over every layer, episodes included, without side effects; what the session already has is skipped.
 */
async function semantic(ctx: AppContext, text: string, exclude: ReadonlySet<string>, now: number, lang: 'en' | 'zh'): Promise<PrefetchHit[]> {
  const { t1Top, t1Turns } = ctx.config.injection;
  const limit = Math.min(200, (t1Top + t1Turns) * 2 + exclude.size);
  const hits = (await recall(ctx, { query: text.slice(0, QUERY_CHARS), limit }, { sideEffects: false })).filter((h) => !exclude.has(h.id));
  const floor = await cosineFloor(ctx, text, hits);
  // In recall's order: up to t1Top memories (narratives, knowledge: Tideline's 3-5) and up to t1Turns raw turns, which
  // say less each, so more of them are needed to carry the same.
  let memories = 0;
  let turns = 0;
  const fresh = hits.filter((h) => {
    if (!floor(h.id)) return false;
    if (h.layer === 'episode') return turns++ < t1Turns;
    return memories++ < t1Top;
  });
  const refs = fresh.filter((h) => h.layer !== 'episode').map((h) => parseId(h.id) as { layer: 'narrative' | 'knowledge'; id: number });
  const rows = await load(ctx, refs);
  const around = await neighbours(ctx, fresh, exclude);
  const out: PrefetchHit[] = [];
  for (const h of fresh) {
    if (h.layer === 'episode') {
      const near = around.get(h.id) ?? { before: [], after: [] };
      const lines = [...near.before.map((e) => `  before: ${said(e)}`), ...near.after.map((e) => `  after: ${said(e)}`)];
      const line = [renderTurn(h, now, lang), ...lines].join('\n');
      const also = [...near.before, ...near.after].map((e) => formatId('episode', e.id));
      out.push({ id: h.id, via: 't1', score: h.score, line, createdAt: h.createdAt, ...(also.length > 0 ? { also } : {}) });
      continue;
    }
    const r = rows.get(h.id);
    if (r) out.push({ id: h.id, via: 't1', score: h.score, line: render(r, now, lang), createdAt: h.createdAt });
  }
  return out;
}

function said(e: Episode): string {
  return `${e.speaker ?? e.role ?? e.kind}: ${clipAtBoundary(oneLine(e.content), TURN_CHARS)}`;
}

/**
 * The `t1Neighbours` turns before and after each recalled turn in its session (by id, as recorded), so the agent reads
 * the exchange a turn belongs to ("What did you research?" → "Adoption agencies."). A neighbour that is itself a hit, is
 * already a neighbour of a better hit, or was already shown in the session is not repeated.
 */
async function neighbours(ctx: AppContext, hits: readonly RecallHit[], exclude: ReadonlySet<string>): Promise<Map<string, { before: Episode[]; after: Episode[] }>> {
  const n = ctx.config.injection.t1Neighbours;
  const turns = hits.filter((h) => h.layer === 'episode');
  const out = new Map<string, { before: Episode[]; after: Episode[] }>();
  if (n === 0 || turns.length === 0) return out;
  const ids = turns.map((h) => parseId(h.id).id);
  const pos = await ctx.scope.episodes.around(ids, n * 3);
  const session = new Map(pos.map((p) => [p.id, p.session]));
  const used = new Set<number>(ids);
  const want = new Map<string, { before: number[]; after: number[] }>();
  for (const h of turns) {
    const id = parseId(h.id).id;
    const same = pos.filter((p) => p.session === session.get(id) && p.session !== null && !exclude.has(formatId('episode', p.id))).map((p) => p.id).sort((a, b) => a - b);
    const before = same.filter((x) => x < id).slice(-n).filter((x) => !used.has(x));
    const after = same.filter((x) => x > id).slice(0, n).filter((x) => !used.has(x));
    for (const x of [...before, ...after]) used.add(x);
    want.set(h.id, { before, after });
  }
  const rows = new Map((await ctx.scope.episodes.getMany([...used].filter((x) => !ids.includes(x)))).map((e) => [e.id, e]));
  // Conversation only: a remembered fact has its knowledge entry, tool output is not an exchange.
  const keep = (x: number) => rows.get(x)?.kind === 'turn' ? [rows.get(x)!] : [];
  for (const [k, w] of want) out.set(k, { before: w.before.flatMap(keep), after: w.after.flatMap(keep) });
  return out;
}

/**
 * With an embedder, T1 keeps a hit only if its cosine to the message is above `t1MinCosine` (DESIGN §4); an item
 * without a vector yet (embedding pending) keeps its place. Without an embedder every hit passes.
 */
async function cosineFloor(ctx: AppContext, text: string, hits: readonly RecallHit[]): Promise<(id: string) => boolean> {
  if (!ctx.embedder || hits.length === 0) return () => true;
  const qvec = await embedQuery({ embedder: ctx.embedder, config: ctx.config, warn: (kind, m) => noteWarning(ctx, kind, `${m} (injection: no cosine floor)`) }, text);
  if (!qvec) return () => true;
  const k = ctx.config.recall.candidates;
  const min = ctx.config.injection.t1MinCosine;
  const above = new Set<string>();
  const seen = new Set<string>();
  const full = new Set<Layer>();
  for (const layer of new Set(hits.map((h) => h.layer))) {
    const near = await ctx.scope.vectors.nearest(layer, ctx.embedder.model, qvec, k);
    if (near.length >= k) full.add(layer);
    for (const n of near) {
      seen.add(formatId(layer, n.id));
      if (n.score > min) above.add(formatId(layer, n.id));
    }
  }
  // Not among the nearest: below all of them when the list was full, else the item has no vector.
  return (id) => above.has(id) || (!seen.has(id) && !full.has(parseId(id).layer));
}

async function load(ctx: AppContext, refs: ReadonlyArray<{ layer: 'narrative' | 'knowledge'; id: number }>): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  const nIds = refs.filter((r) => r.layer === 'narrative').map((r) => r.id);
  const kIds = refs.filter((r) => r.layer === 'knowledge').map((r) => r.id);
  for (const row of await ctx.scope.narratives.getMany(nIds)) out.set(formatId('narrative', row.id), { layer: 'narrative', row });
  for (const row of await ctx.scope.knowledge.getMany(kIds)) {
    if (RECALLABLE.includes(row.status)) out.set(formatId('knowledge', row.id), { layer: 'knowledge', row });
  }
  return out;
}

/**
 * Recalls memories for a new message: T1 keeps, in recall's order, the top `t1Top` memories and `t1Turns` turns; when
 * fewer than 2 are new to the session, T4 adds keyword hits. The block fits `maxTokens` (default
 * `injection.prefetchMaxTokens`) with whole lines. Every hit is logged as `t1_prefetch` in the session, so it is not
 * shown again there (unless `opts.sideEffects` is false: then nothing is written).
 */
export async function prefetch(ctx: AppContext, raw: PrefetchInput, opts: InjectOptions = {}): Promise<PrefetchResult> {
  const input = parseInput(prefetchInput, raw);
  const text = input.text.trim();
  if ([...text].length < MIN_QUERY_CHARS) return { text: '', hits: [], skipped: 'short' };
  const now = ctx.clock.now();
  const lang = labelLanguage(ctx.config);
  const top = ctx.config.injection.t1Top;
  const session = input.session ?? null;
  const seen = session ? await ctx.scope.attention.injectedInSession(session) : [];
  const exclude = new Set(seen.map((s) => formatId(s.layer, s.itemId)));
  const hits = await semantic(ctx, text, exclude, now, lang);
  // SEEDS §1.6: T4 runs when T1 found fewer than 2.
  if (hits.length < 2) {
    const shown = new Set([...exclude, ...hits.map((h) => h.id)]);
    for (const f of await keywordFallback(ctx, text, shown, top - hits.length)) {
      hits.push({ id: keyOf(f), via: 't4', score: f.weight, line: render(f, now, lang), createdAt: f.row.createdAt });
    }
  }
  const kept = fitPrefetch(hits, input.maxTokens ?? ctx.config.injection.prefetchMaxTokens);
  const logged = kept.flatMap((h) => [{ id: h.id, score: h.score }, ...(h.also ?? []).map((id) => ({ id, score: 0 }))]);
  if (logged.length > 0 && opts.sideEffects !== false) await noteHits(ctx, logged, 't1_prefetch', session, now);
  return { text: renderPrefetch(kept), hits: kept };
}

/** Keeps hits in rank order while the rendered block, headings included, fits `maxTokens` (whole lines only). */
function fitPrefetch(hits: readonly PrefetchHit[], maxTokens: number): PrefetchHit[] {
  const kept: PrefetchHit[] = [];
  for (const h of hits) if (withinTokens(renderPrefetch([...kept, h]), maxTokens)) kept.push(h);
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
