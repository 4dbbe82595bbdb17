/** Hybrid retrieval: lexical BM25 + substring + vectors per layer → fused, adjusted, ranked hits (DESIGN §3). */
import type { Config } from '../core/config.js';
import type { Embedder } from '../core/embedder.js';
import type { Warn } from '../core/warning.js';
import { formatId } from '../core/ids.js';
import type { HitReason, Knowledge, KnowledgeStatus, Layer, Narrative, RecallContext, RecallHit } from '../core/types.js';
import { strengthNow } from '../script/strength.js';
import type { LexicalOptions, RecallEpisode, Store } from '../store/port.js';
import { atMostTogether, withStatementShare } from '../store/sql-driver.js';
import { hasCjk } from '../script/segment-text.js';
import { routedNarratives } from './cluster-route.js';
import { asksQuestion } from './query-kind.js';
import { queryTerms } from './query-terms.js';
import { smoothBySession } from './session-context.js';
import { fuseRanks, type RankedList } from './rank-fusion.js';
import { fitToBudget } from './token-budget.js';
import { asksWhen, inWindows, landsIn, mayTellOf, queryTime, saysWhen, tellingReach, type TimeWindow } from './time-expressions.js';

/** A parsed recall request. */
export interface RecallRequest {
  query: string;
  limit: number;
  layers?: readonly Layer[];
  kinds?: readonly string[];
  since?: number;
  until?: number;
  session?: string;
  minWeight?: number;
  maxTokens?: number;
  /** Archived episodes are searched unless this is false (they rank `recall.archivedWeight` times lower). */
  includeArchived?: boolean;
  /** Only knowledge whose key starts with this, filtered in each candidate query (the LangGraph store's namespace). */
  keyPrefix?: string;
}

/** Dependencies of the pipeline. */
export interface RecallDeps {
  store: Store;
  config: Config;
  embedder: Embedder | undefined;
  now: number;
  /** Told when the query could not be embedded (recall then answers from words only); silent when absent. */
  warn?: Warn;
}

/** Knowledge statuses recall may return: quarantined never appears (DESIGN §3). */
export const RECALLABLE: readonly KnowledgeStatus[] = ['provisional', 'reliable'];

type Row = { layer: 'episode'; row: RecallEpisode } | { layer: 'narrative'; row: Narrative } | { layer: 'knowledge'; row: Knowledge };

/** Normalises text for exact-phrase comparison: lower case, collapsed whitespace. */
export function normaliseForMatch(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Runs the query against the store and returns ranked hits (no side effects). On a pool (PostgreSQL through
 * node-postgres) its statements run two at a time however its searches nest (`withStatementShare`). SQLite and PGlite
 * have no pool, and the share's AsyncLocalStorage would slow every later promise of the process (Node 20 turns on a
 * promise hook for good: 2-3× an await in a loop).
 */
export async function runRecall(deps: RecallDeps, space: string, req: RecallRequest): Promise<RecallHit[]> {
  return deps.store.pooled ? withStatementShare(() => recallWithin(deps, space, req)) : recallWithin(deps, space, req);
}

async function recallWithin(deps: RecallDeps, space: string, req: RecallRequest): Promise<RecallHit[]> {
  const { store, config } = deps;
  const layers = req.layers ?? (['knowledge', 'narrative', 'episode'] as const);
  const time = config.recall.timeExpressions ? queryTime(req.query, deps.now) : { windows: [], rest: req.query };
  const restTerms = queryTerms(time.rest);
  const asked = restTerms.length > 0 ? restTerms : queryTerms(req.query);
  const terms = [...asked, ...latestLineTerms(time.rest, asked)];
  // A "when" question is answered by the turn that says when ("last week", a date) or that opens a session.
  const whenQuestion = config.recall.timeExpressions && asksWhen(req.query);
  // Only a question's answer sits beside its words; a statement's own turn is what it asks for (`withSessionContext`).
  const question = asksQuestion(req.query);
  const opts: LexicalOptions = {
    limit: config.recall.candidates, since: req.since, until: req.until, includeArchived: req.includeArchived !== false,
    statuses: RECALLABLE, kinds: req.kinds, session: req.session, minWeight: req.minWeight, keyPrefix: req.keyPrefix,
  };
  // A turn said shortly after a named window may tell of it ("last Friday I went to the castle").
  const toldMs = config.recall.toldWithinDays * 86_400_000;
  // Where each candidate came from: why it is a hit, or only the context of one (a neighbour holding no query word).
  const found = { substring: new Set<string>(), vector: new Set<string>() };
  const neighbourOf = new Map<number, number[]>();
  const qvec = await embedQuery(deps, req.query);
  // Rows read before the lists are fused (`loadRows`).
  const readEarly: Array<Promise<Row[]>> = [];
  // Substring hits catch what word search misses (inside compounds, a short CJK word, a code or id): asked for
  // short queries, CJK queries, or when the words found little. A long sentence is never a substring anyway.
  const substringAlways = terms.length <= 2 || hasCjk(req.query);
  const substring = (layer: Layer) => store.forSpace(space).search.substring(layer, req.query, { ...opts, limit: Math.min(50, opts.limit) });
  // A layer's lists (its words, substrings, vectors): the layers' searches are independent.
  const listsOf = async (layer: Layer): Promise<RankedList[]> => {
    const out: RankedList[] = [];
    // Asked with the word search when it will be asked anyway: on a server both run at once, on two connections.
    const early = substringAlways ? settledLater(substring(layer)) : undefined;
    const lex = await lexicalInTime(store, space, layer, terms, opts, time.windows, layer === 'episode' ? toldMs : 0);
    // On a pool the word hits' rows are read while the rest of the layer's lists are made (the session context, the
    // vectors): each list's rows are read in the end anyway, and for a keyword query that read was the last round
    // trip of the recall, after the session context's.
    if (store.pooled && lex.length > 0) readEarly.push(settledLater(rowsOf(store, space, layer, lex.map((h) => h.id))));
    const ranked = layer === 'episode' ? await withSessionContext(deps, space, req.query, whenQuestion, question, lex, neighbourOf) : lex;
    out.push({ keys: ranked.map((h) => `${layer}:${h.id}`), weight: 1 });
    if (early || lex.length < 3) {
      const sub = await (early ?? substring(layer));
      out.push({ keys: sub.map((h) => `${layer}:${h.id}`), weight: 0.5 });
      for (const h of sub) found.substring.add(`${layer}:${h.id}`);
    }
    if (qvec && deps.embedder) {
      const { vectorQuantizeAbove: quantizeAbove, vectorIndexAbove: indexAbove } = config.recall;
      const near = await store.forSpace(space).vectors.nearest(layer, deps.embedder.model, qvec, opts.limit, {
        ...(quantizeAbove === null ? {} : { quantizeAbove }),
        ...(indexAbove === null ? {} : { indexAbove }),
      });
      const kept = near.filter((h) => h.score > config.recall.minCosine);
      out.push({ keys: kept.map((h) => `${layer}:${h.id}`), weight: 1 });
      for (const h of kept) found.vector.add(`${layer}:${h.id}`);
      if (layer === 'narrative' && config.recall.routeClusters) {
        // One hop through the soft clusters reaches narratives near the query's neighbourhood, not only the query.
        const routed = await routedNarratives(store, space, qvec, opts.limit);
        out.push({ keys: routed.map((id) => `narrative:${id}`), weight: 0.5 });
      }
    }
    return out;
  };
  // On a pool the layers are searched at once, their statements sharing the recall's connections
  // (`withStatementShare`): one after another, a recall of all three waited for each layer's round trips in turn.
  // Elsewhere (SQLite, PGlite, a transaction's one client) one after another. Either way the lists keep the layers'
  // order, so the fused scores are summed in the same order.
  const lists = (await byLayer(store, layers.map((layer) => () => listsOf(layer)))).flat();
  const fused = fuseRanks(lists, config.recall.rrfK);
  if (fused.size === 0) return [];
  const rows = await loadRows(store, space, [...fused.keys()], readEarly);
  const q = normaliseForMatch(req.query);
  // A word of the query the raw text must contain for the phrase to be there: most rows skip normalising.
  const probe = q.split(' ').reduce((a, b) => (b.length > a.length ? b : a), '');
  const when = whenQuestion ? 1 + config.recall.whenBoost : 1;
  const timeBoost = 1 + config.recall.timeBoost;
  const scored: Scored[] = [];
  for (const r of rows) {
    if (!passes(r, req)) continue;
    const base = fused.get(`${r.layer}:${r.row.id}`) ?? 0;
    const text = r.row.content;
    const exact = q.length > 0 && text.length >= q.length && text.toLowerCase().includes(probe) && normaliseForMatch(text).includes(q);
    const at = r.layer === 'episode' ? r.row.occurredAt : r.row.createdAt;
    const inside = time.windows.length > 0 && inWindows(time.windows, at);
    let timed = inside ? timeBoost : 1;
    if (when > 1 && saysWhen(text)) timed *= when;
    const score = base * adjust(r, deps.now, config.recall) * timed;
    const bonus = exact ? config.recall.exactBoost : 0;
    // Whether the turn tells of the window (`toldOf`: the cheap half here, the chrono parse in settleTold) is read only
    // if that could bring it into the results.
    const mayTell = !inside && r.layer === 'episode' && toldMs > 0 && mayTellOf(time.windows, text, at, toldMs);
    const key = `${r.layer}:${r.row.id}`;
    const context = r.layer === 'episode' && neighbourOf.has(r.row.id) && !found.substring.has(key) && !found.vector.has(key);
    scored.push({ r, score: score + bonus, exact, at, inside, context, ...(context ? { neighbourOf: neighbourOf.get(r.row.id) } : {}), ...(mayTell ? { told: score * timeBoost + bonus } : {}) });
  }
  shareRepeatedLines(scored);
  // Hits are built for the winners only; of identical texts the best-ranked stays (a remembered fact and its
  // source episode).
  const unique: RecallHit[] = [];
  const tells = (s: Scored) => (s.inside = landsIn(time.windows, s.r.row.content, s.at));
  for (let need = req.limit; ; need *= 2) {
    const pending = settleTold(scored, need, tells);
    scored.sort((a, b) => b.score - a.score || b.at - a.at);
    unique.length = 0;
    const seen = new Map<string, RecallHit>();
    for (const s of scored) {
      if (unique.length >= req.limit) break;
      // A neighbour holding no query word is shown as context of its hit (below), never in a hit's place.
      if (s.context) continue;
      const key = normaliseForMatch(s.r.row.content);
      const first = seen.get(key);
      if (first) {
        // The same text again (a repeated line, a fact and its source turn): named on the first, not shown twice.
        first.repeats = [...(first.repeats ?? []), { id: formatId(s.r.layer, s.r.row.id), score: round(s.score) }];
        continue;
      }
      const hit: RecallHit = { ...toHit(s.r, s.score, s.exact), why: reason(s, terms, found) };
      seen.set(key, hit);
      unique.push(hit);
    }
    // Duplicates took places: settle more of the turns that may tell of the window, or stop when none is left.
    if (unique.length >= req.limit || pending === 0) break;
  }
  attachContext(unique, scored, deps.config.recall.neighbourTurns * 2);
  // The budget counts the detailed style, the one the tools answer with (and longer than the brief one).
  return fitToBudget(unique, (h) => renderHitBlock(h, 'detailed'), req.maxTokens);
}

/** Why a candidate is a hit: the query words its text holds, the window it lies in, the lists that found it. */
function reason(s: Scored, terms: readonly string[], found: { substring: Set<string>; vector: Set<string> }): HitReason {
  const key = `${s.r.layer}:${s.r.row.id}`;
  const text = s.r.row.content.toLowerCase();
  return { words: terms.filter((t) => text.includes(t)), window: s.inside, substring: found.substring.has(key), vector: found.vector.has(key) };
}

/** Gives each listed hit the neighbours it brought in (at most `max`, in session order). */
function attachContext(hits: RecallHit[], scored: readonly Scored[], max: number): void {
  const byId = new Map(hits.map((h) => [h.id, h]));
  for (const s of scored) {
    if (!s.context || s.r.layer !== 'episode') continue;
    // Shown under the listed hit that gave it most.
    const hit = (s.neighbourOf ?? []).map((id) => byId.get(formatId('episode', id))).find((h) => h !== undefined);
    if (!hit || (hit.context?.length ?? 0) >= max) continue;
    const e = s.r.row;
    const c: RecallContext = { id: formatId('episode', e.id), text: e.content, createdAt: e.occurredAt, session: e.session, speaker: e.speaker ?? e.role, score: round(s.score), neighbourOf: hit.id };
    hit.context = [...(hit.context ?? []), c].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }
}

/**
 * A query of several lines is a conversation: its last line is what is being said now, so its terms are asked once
 * more (BM25 sums a repeated query term; MADial archive-recall R@10 0.635 -> see docs/BENCHMARKS.md). One line: none.
 */
function latestLineTerms(query: string, asked: readonly string[]): string[] {
  const lines = query.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  if (lines.length < 2) return [];
  const known = new Set(asked);
  return queryTerms(lines.at(-1)!).filter((t) => known.has(t));
}

/**
 * A line said in n sessions (a greeting, a filler reply, a tool's boilerplate) tells as little about any one of them
 * as a common word does: each copy's score is divided by n, as an IDF over whole lines would. Copies within one
 * session (a line said again in the same conversation) count once. Only episodes have sessions; a turn without one
 * counts as its own. The generated bilingual corpus repeats 66 filler lines across sessions: R@10 en 0.654 -> 0.706,
 * zh 0.701 -> 0.743; LoCoMo dev and MADial dialogue unchanged, archive 0.663 -> 0.665 (docs/BENCHMARKS.md).
 */
function shareRepeatedLines(scored: Scored[]): void {
  const sessions = new Map<string, Set<string>>();
  const keyOf = new Map<Scored, string>();
  for (const s of scored) {
    if (s.r.layer !== 'episode') continue;
    const key = normaliseForMatch(s.r.row.content);
    keyOf.set(s, key);
    const set = sessions.get(key) ?? new Set<string>();
    set.add(s.r.row.session ?? `#${s.r.row.id}`);
    sessions.set(key, set);
  }
  for (const [s, key] of keyOf) {
    const n = sessions.get(key)!.size;
    if (n < 2) continue;
    s.score /= n;
    if (s.told !== undefined) s.told /= n;
  }
}

/** A scored candidate; `told` is its score if it turns out to tell of a named window (not read yet). */
interface Scored {
  r: Row;
  score: number;
  exact: boolean;
  at: number;
  /** In (or, once settled, telling of) a named window. */
  inside: boolean;
  /** Only a neighbour of a hit (no query word, no other list found it): shown as that hit's context. */
  context: boolean;
  /** The hits whose neighbour it is, the one that gave it most first. */
  neighbourOf?: number[];
  told?: number;
}

/**
 * Reads whether candidates tell of the named window (a chrono parse each) only while that can change the best
 * `need`: in the order of what each could score, stopping once none left could beat the `need`-th best score
 * settled so far. The ones left keep their lower score, which equals or ranks below what they could have had, so the
 * top `need` is the one every candidate read would give. Returns how many are left unread.
 */
export function settleTold<T extends { score: number; told?: number }>(scored: T[], need: number, tells: (s: T) => boolean): number {
  scored.sort((a, b) => (b.told ?? b.score) - (a.told ?? a.score));
  const best: number[] = [];
  let left = scored.filter((s) => s.told !== undefined).length;
  for (const s of scored) {
    if (left === 0) break;
    if (best.length >= need && (s.told ?? s.score) < best[need - 1]!) break;
    if (s.told !== undefined) {
      if (tells(s)) s.score = s.told;
      delete s.told;
      left--;
    }
    // Keep the `need` best settled scores, best first.
    let i = best.length;
    while (i > 0 && best[i - 1]! < s.score) i--;
    best.splice(i, 0, s.score);
    if (best.length > need) best.pop();
  }
  return left;
}

/**
 * `p`, marked as handled until it is awaited: a search started early whose caller fails before awaiting it must not
 * end the process with an unhandled rejection. Awaiting the returned promise still throws its error.
 */
function settledLater<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/** Windows searched on their own besides the whole memory (a query rarely names more). */
const MAX_SEARCHED_WINDOWS = 3;

/**
 * Word search over the whole memory and, when the query names time windows, inside each of them (and the stretch
 * after it where it may still be told of, `toldMs`) as well: the scores share one BM25 (same terms, same index
 * statistics), so the lists merge by id and a hit ranked too low overall to be a candidate still is one when it
 * lies in the named window.
 */
async function lexicalInTime(
  store: Store,
  space: string,
  layer: Layer,
  terms: readonly string[],
  opts: LexicalOptions,
  windows: readonly TimeWindow[],
  toldMs: number,
): Promise<Array<{ id: number; score: number }>> {
  const search = store.forSpace(space).search;
  const ranges = windows.slice(0, MAX_SEARCHED_WINDOWS).flatMap((w) => {
    const since = Math.max(w.start, opts.since ?? -Infinity);
    const until = Math.min(w.end + tellingReach(w, toldMs), opts.until ?? Infinity);
    return since > until ? [] : [{ since, until }];
  });
  // The searches are independent: on a server they run at once, each on connections of its own.
  const [all, ...inWindows] = await Promise.all([search.lexical(layer, terms, opts), ...ranges.map((r) => search.lexical(layer, terms, { ...opts, ...r }))]);
  if (windows.length === 0) return all!;
  const best = new Map(all!.map((h) => [h.id, h.score]));
  for (const h of inWindows.flat()) best.set(h.id, Math.max(best.get(h.id) ?? -Infinity, h.score));
  return [...best].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || b.id - a.id);
}

/**
 * Re-scores episode hits with what the memory knows and a search engine does not: for a question, the neighbouring
 * turns of the same session share each hit's score (the answer to "What did Caroline research?" is often the turn
 * after the one holding its words); turns spoken by the person the query names first weigh more, and for a "when"
 * question so do the turns that open a session. A statement or keywords ("Bart和爸爸一起看电影", "deadlock staging
 * retry") ask for the turns holding them: their neighbours would only take those turns' places (MADial dialogue.json
 * R@10 0.960 with them, 0.975 without; docs/BENCHMARKS.md).
 */
async function withSessionContext(
  deps: RecallDeps,
  space: string,
  query: string,
  whenQuestion: boolean,
  question: boolean,
  lex: ReadonlyArray<{ id: number; score: number }>,
  neighbourOf: Map<number, number[]>,
): Promise<Array<{ id: number; score: number }>> {
  const { neighbourWeights, speakerBoost, openingBoost, openingTurns } = deps.config.recall;
  const neighbourTurns = question ? deps.config.recall.neighbourTurns : 0;
  if (lex.length === 0) return [];
  const weights = neighbourWeights.slice(0, neighbourTurns);
  // Read a little wider than the neighbours themselves, so interleaved sessions still find their turns.
  const rows = await deps.store.forSpace(space).episodes.around(lex.map((h) => h.id), neighbourTurns + 2);
  const scores = smoothBySession(new Map(lex.map((h) => [h.id, h.score])), rows, weights, neighbourOf);
  if (speakerBoost > 0) {
    const named = namedSpeakers(query, [...new Set(rows.map((r) => r.speaker).filter((x): x is string => x !== null))]);
    if (named.size > 0) {
      // The person named first is the question's subject ("What does Melanie think of Caroline's plan?").
      const ql = query.toLowerCase();
      const subject = [...named].sort((a, b) => ql.indexOf(a) - ql.indexOf(b))[0];
      for (const r of rows) {
        const s = scores.get(r.id);
        if (s !== undefined && r.speaker !== null && r.speaker.toLowerCase() === subject) scores.set(r.id, s * (1 + speakerBoost));
      }
    }
  }
  // A conversation opens with what happened since the last one.
  if (whenQuestion && openingBoost > 0 && openingTurns > 0) {
    const sessions = [...new Set(rows.map((r) => r.session).filter((x): x is string => x !== null))];
    for (const id of await deps.store.forSpace(space).episodes.openingTurns(sessions, openingTurns)) {
      const s = scores.get(id);
      if (s !== undefined) scores.set(id, s * (1 + openingBoost));
    }
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || b.id - a.id);
}

/** Speakers whose name appears in the query as a whole word (case-insensitive). */
function namedSpeakers(query: string, speakers: readonly string[]): Set<string> {
  const q = ` ${query.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  const out = new Set<string>();
  for (const s of speakers) {
    const name = s.toLowerCase().trim();
    if (name.length >= 2 && (q.includes(` ${name} `) || (/[^ -~]/.test(name) && query.includes(s)))) out.add(name);
  }
  return out;
}

/** The line an agent sees for a hit. */
export function renderHitLine(h: RecallHit): string {
  const who = h.speaker ? `${h.speaker}: ` : '';
  return `- [${h.id} ${new Date(h.createdAt).toISOString().slice(0, 10)}] ${who}${h.text}`;
}

/** The line of a context turn, indented under its hit. */
export function renderContextLine(c: RecallContext): string {
  const who = c.speaker ? `${c.speaker}: ` : '';
  return `  [${c.id} ${new Date(c.createdAt).toISOString().slice(0, 10)}] ${who}${c.text}`;
}

/**
 * How a hit is written for an agent. `brief` is the line the benchmark's answer context shows; `detailed` is what the
 * tools answer and what recall's token budget counts: the layer, a status other than reliable and the time to the
 * minute, and each context turn marked as context.
 */
export type HitStyle = 'brief' | 'detailed';

/** A hit's line and its context lines, in one of the two styles: the one renderer of a hit (issue #19). */
export function renderHitBlock(h: RecallHit, style: HitStyle = 'brief'): string {
  if (style === 'brief') return [renderHitLine(h), ...(h.context ?? []).map(renderContextLine)].join('\n');
  const minute = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
  const who = h.speaker ? `${h.speaker}: ` : '';
  const status = h.status && h.status !== 'reliable' ? `, ${h.status}` : '';
  const ctx = (h.context ?? []).map((c) => `\n  [${c.id} context ${minute(c.createdAt)}] ${c.speaker ? `${c.speaker}: ` : ''}${c.text}`);
  return `- [${h.id} ${h.layer}${status} ${minute(h.createdAt)}] ${who}${h.text}${ctx.join('')}`;
}

/** The query's vector, or undefined without an embedder or when embedding it failed (then `deps.warn` is told). */
export async function embedQuery(deps: Pick<RecallDeps, 'embedder' | 'config' | 'warn'>, query: string): Promise<Float32Array | undefined> {
  if (!deps.embedder) return undefined;
  try {
    return (await deps.embedder.embed([query.slice(0, deps.config.embedder.maxChars)]))[0];
  } catch (e) {
    // Lexical results still answer (Tideline's FTS-only mode), and the caller is told they are all there is.
    deps.warn?.('query_embed_failed', `embedder ${deps.embedder.model} unavailable, recall answered from words only: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** The rows of a layer's ids, in the space (a row of another space is not read). */
async function rowsOf(store: Store, space: string, layer: Layer, ids: readonly number[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  const scope = store.forSpace(space);
  if (layer === 'episode') return (await scope.episodes.getForRecall(ids)).map((row) => ({ layer, row }));
  if (layer === 'narrative') return (await scope.narratives.getMany(ids)).map((row) => ({ layer, row }));
  return (await scope.knowledge.getMany(ids)).map((row) => ({ layer, row }));
}

const LAYER_ORDER: Readonly<Record<Layer, number>> = { episode: 0, narrative: 1, knowledge: 2 };

/**
 * The rows of the fused keys: those `early` read already (`recallWithin`), the rest now. Layer by layer and by id, so
 * that the order they were read in never decides a tie of score and time.
 */
async function loadRows(store: Store, space: string, keys: readonly string[], early: ReadonlyArray<Promise<Row[]>> = []): Promise<Row[]> {
  const wanted = new Set(keys);
  const read = new Map<string, Row>();
  for (const r of (await Promise.all(early)).flat()) {
    const key = `${r.layer}:${r.row.id}`;
    if (wanted.has(key)) read.set(key, r);
  }
  const ids: Record<Layer, number[]> = { episode: [], narrative: [], knowledge: [] };
  for (const k of keys) {
    if (read.has(k)) continue;
    const [layer, id] = k.split(':') as [Layer, string];
    ids[layer].push(Number(id));
  }
  const layers = Object.keys(LAYER_ORDER) as Layer[];
  const late = (await byLayer(store, layers.map((layer) => () => rowsOf(store, space, layer, ids[layer])))).flat();
  return [...read.values(), ...late].sort((a, b) => LAYER_ORDER[a.layer] - LAYER_ORDER[b.layer] || a.row.id - b.row.id);
}

/** Each layer's work, at once on a pool and one after another elsewhere (`recallWithin`); results in their order. */
function byLayer<T>(store: Store, tasks: ReadonlyArray<() => Promise<T>>): Promise<T[]> {
  return atMostTogether(tasks, store.pooled ? tasks.length : 1);
}

function passes(r: Row, req: RecallRequest): boolean {
  const t = r.layer === 'episode' ? r.row.occurredAt : r.row.createdAt;
  if (req.since !== undefined && t < req.since) return false;
  if (req.until !== undefined && t > req.until) return false;
  if (r.layer === 'knowledge' && !RECALLABLE.includes(r.row.status)) return false;
  if (r.layer === 'episode' && r.row.archivedAt !== null && req.includeArchived === false) return false;
  // A remembered text lives on as its knowledge entry; its source episode would only repeat it (or, once the key
  // is superseded, bring back the outdated value).
  if (r.layer === 'episode' && r.row.kind === 'memory') return false;
  if (r.layer === 'episode' && req.session && r.row.session !== req.session) return false;
  if (r.layer === 'narrative' && req.minWeight !== undefined && r.row.weight < req.minWeight) return false;
  if (req.kinds && req.kinds.length > 0 && r.layer !== 'episode' && !req.kinds.includes(r.row.kind)) return false;
  // Vector neighbours are not filtered by key in their query; a prefix keeps only knowledge under it.
  if (req.keyPrefix !== undefined && (r.layer !== 'knowledge' || !(r.row.key ?? '').startsWith(req.keyPrefix))) return false;
  return true;
}

/** What the memory knows beyond the text: narrative weight, knowledge strength, recency. */
function adjust(r: Row, now: number, o: Config['recall']): number {
  const t = r.layer === 'episode' ? r.row.occurredAt : r.row.createdAt;
  const ageDays = Math.max(0, (now - t) / 86_400_000);
  const recency = 1 + o.recencyBoost * Math.exp(-ageDays / o.recencyDays);
  if (r.layer === 'narrative') return recency * (0.8 + 0.4 * r.row.weight);
  if (r.layer === 'knowledge') {
    const s = strengthNow(r.row.strength, r.row.lastReinforcedAt, now);
    return recency * (0.9 + 0.3 * s) * (r.row.status === 'reliable' ? 1.1 : 1);
  }
  // The archive is a colder tier: searched like the live memory, an archived turn weighs a little less.
  return r.row.archivedAt !== null ? recency * o.archivedWeight : recency;
}

function toHit(r: Row, score: number, exact: boolean): RecallHit {
  const base = { id: formatId(r.layer, r.row.id), layer: r.layer, text: r.row.content, score: round(score), exact };
  if (r.layer === 'episode') {
    return { ...base, createdAt: r.row.occurredAt, session: r.row.session, speaker: r.row.speaker ?? r.row.role, kind: r.row.kind };
  }
  if (r.layer === 'narrative') {
    return { ...base, createdAt: r.row.createdAt, kind: r.row.kind, weight: r.row.weight, tags: r.row.tags };
  }
  return { ...base, createdAt: r.row.createdAt, kind: r.row.kind, status: r.row.status, tags: r.row.tags };
}

function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

