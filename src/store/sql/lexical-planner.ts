/** The lexical search plan of one space: which query words are common there, from that space's own statistics. */
import type { Layer } from '../../core/types.js';
import { atMostTogether, TOGETHER, type SqlDriver } from '../sql-driver.js';
import { num } from './sql-util.js';

/** Below this many rows in a space every query term is used as given. */
export const PRUNE_MIN_DOCS = 5000;
/**
 * A term in more than this share of a space's rows adds little to BM25 (idf < 3) but costs a score per row: it
 * leaves the OR query, and the rows holding every term are fetched first instead. On the scale bench's 100k corpus,
 * the query's source row in the top 10: every term scored 0.555, the 10 % cut without that first fetch 0.455, this
 * 0.550, at a quarter of the time (docs/scaling.md).
 */
export const COMMON_SHARE = 0.05;
/**
 * …and a term in more rows than this counts as common in any space: the cost of the OR query is the rows it scores
 * (~0.45 µs each), not their share. At 1M rows the cut falls at 3 %: p95 59 -> 37 ms with the same known-item
 * recall (0.285); at 100k the 5 % share stays the lower cut (3 % there lost 5 points).
 */
export const COMMON_ROWS = 30_000;
/** When every term is that common, only the space's newest this-many rows are scored. */
export const COMMON_WINDOW = 20_000;
/** Terms whose commonness the planner remembers before starting over. */
const COMMON_MEMO = 10_000;
/** Newest matches read per term to tell which of several common terms is rarest lately. */
export const RECENT_SAMPLE = 2000;

/**
 * The counts an engine answers for the planner, over the word index of one space's rows in a layer. `alone` says the
 * space holds every row of the layer: an engine whose index is shared by the spaces (PostgreSQL) may then count in
 * its index alone, without asking each row's space.
 */
export interface PlanCounter {
  /**
   * Highest id in the word index the space's rows are in (SQLite: the space's own table; PostgreSQL: the layer's):
   * it grows with every write, so it tells the memos when to recount.
   */
  top(space: string, layer: Layer): Promise<number>;
  /** Rows of the layer in `space`, and whether no other space has any. */
  spaceRows(space: string, layer: Layer): Promise<{ rows: number; alone: boolean }>;
  /** Rows of the space holding `term`: exact up to `cap`, any number above it when more hold it. */
  termRows(space: string, layer: Layer, term: string, cap: number, alone: boolean): Promise<number>;
  /** Optional: `termRows` of several terms at once (one round trip to a server), in their order. */
  termsRows?(space: string, layer: Layer, terms: readonly string[], cap: number, alone: boolean): Promise<number[]>;
  /** The lowest id among the space's newest `window` rows (0 when it has fewer). */
  windowFloor(space: string, layer: Layer, window: number, alone: boolean): Promise<number>;
  /** Of the term's newest `sample` matches in the space: how many, and the lowest id among them. */
  recentMatches(space: string, layer: Layer, term: string, sample: number, alone: boolean): Promise<{ count: number; low: number }>;
}

/** A lexical query's plan: the terms scored and, when all are common, the oldest id left out. */
export interface LexicalPlan {
  /** The terms BM25 scores; with `rarestOfLate`, every asked term, of which `scoredTerms` picks two. */
  terms: readonly string[];
  /**
   * Every term is common and there are more than two: BM25 scores the two rarest of late (`scoredTerms`), counted
   * only when a search ranks. A search the newest rows holding every term answer never needs them (14 of the 20
   * such queries of `bench scale` at 100k, whose counts took 2-20 ms each).
   */
  rarestOfLate?: boolean;
  /** Some asked terms were left out of the OR query as too common in this space. */
  dropped?: boolean;
  /** Highest id in the word index the space's rows are in (`PlanCounter.top`): what a walk over the index costs. */
  top: number;
  /** Rows of the space in the layer. */
  rows: number;
  /** The space holds every row of the layer. */
  alone: boolean;
  /** When every term is common: only rows above this id are scored (the space's newest `commonWindow`). */
  minRowid?: number;
  /** The space's rows holding each term that is not common, where counted: exact (a common term's count stopped). */
  counts?: ReadonlyMap<string, number>;
}

/** Options of {@link LexicalPlanner}. */
export interface LexicalPlannerOptions {
  /** Share of a space's rows above which a term counts as common (default 0.05). */
  commonShare?: number;
  /** Newest rows of the space scored when every term is common (default 20,000). */
  commonWindow?: number;
}

interface SpaceStats {
  rows: number;
  alone: boolean;
  /** `top` when counted. */
  at: number;
  floor?: number;
}

/**
 * Plans lexical queries per space: a word is common when it is common in the asking space, so one space's data
 * never changes what another finds (issue 17). Every count is remembered per space and recounted once the index
 * has grown by more than 1 % of that space's rows since (the space cannot have grown by more than that).
 */
export class LexicalPlanner {
  readonly #counter: PlanCounter;
  readonly #commonShare: number;
  readonly #commonWindow: number;
  readonly #spaces = new Map<string, SpaceStats>();
  readonly #common = new Map<string, { common: boolean; count: number; rows: number; at: number }>();
  /** Each common term's density among its newest matches, as of `at` (the index's top id then; `#rarestOfLate`). */
  readonly #recent = new Map<string, { density: number; at: number }>();
  /**
   * Counts being taken, by what they count: a query's searches (the whole memory and each time window) plan at once,
   * and each would otherwise take the same counts again (a fresh process asked every walk twice).
   */
  readonly #pending = new Map<string, Promise<unknown>>();

  /** `count()`, or the same count already being taken under `key`. */
  #once<T>(key: string, count: () => Promise<T>): Promise<T> {
    const known = this.#pending.get(key) as Promise<T> | undefined;
    if (known) return known;
    const p = count().finally(() => this.#pending.delete(key));
    this.#pending.set(key, p);
    return p;
  }

  constructor(counter: PlanCounter, opts: LexicalPlannerOptions = {}) {
    this.#counter = counter;
    this.#commonShare = opts.commonShare ?? COMMON_SHARE;
    this.#commonWindow = opts.commonWindow ?? COMMON_WINDOW;
  }

  /** Rows scored when every term is common. */
  get commonWindow(): number {
    return this.#commonWindow;
  }

  /**
   * Which terms to score: in a large space, terms in more than 5 % of its rows are dropped when rarer ones exist
   * (their IDF is near zero); when all are that common, the two rarest of late are scored over the space's newest
   * rows only. `counter` answers instead of the planner's own for this call (an engine that read the query's
   * statistics at once).
   */
  async plan(space: string, layer: Layer, terms: readonly string[], counter: PlanCounter = this.#counter): Promise<LexicalPlan> {
    const top = await counter.top(space, layer);
    const s = await this.#space(counter, space, layer, top);
    const base = { top, rows: s.rows, alone: s.alone };
    if (s.rows < PRUNE_MIN_DOCS) return { terms, ...base };
    // Count each term's rows as the index matches it (stemming included), stopping once it is common.
    const cap = Math.floor(Math.min(s.rows * this.#commonShare, COMMON_ROWS));
    const counts = await this.#termCounts(counter, space, layer, terms, s, top, cap);
    const rare = terms.filter((w) => counts.get(w)! <= cap);
    const exact = new Map([...counts].filter(([, n]) => n <= cap));
    if (rare.length > 0) return { terms: rare, ...base, dropped: rare.length < terms.length, counts: exact };
    s.floor ??= await this.#once(`floor ${layer} ${space} ${top}`, () => counter.windowFloor(space, layer, this.#commonWindow, s.alone));
    return { terms, ...base, minRowid: s.floor, ...(terms.length > 2 ? { rarestOfLate: true } : {}) };
  }

  /**
   * The terms BM25 scores under `plan`: its terms, or, when every term is common and there are more than two, the two
   * rarest of late (counted now, and remembered while the index is unchanged).
   */
  async scoredTerms(plan: LexicalPlan, space: string, layer: Layer, counter: PlanCounter = this.#counter): Promise<readonly string[]> {
    if (!plan.rarestOfLate) return plan.terms;
    return this.#rarestOfLate(counter, space, layer, plan.terms, plan.alone, plan.top, plan.rows);
  }

  async #space(counter: PlanCounter, space: string, layer: Layer, top: number): Promise<SpaceStats> {
    const key = `${layer} ${space}`;
    const known = this.#spaces.get(key);
    if (known && fresh(known.at, known.rows, top)) return known;
    const { rows, alone } = await this.#once(`rows ${key} ${top}`, () => counter.spaceRows(space, layer));
    const s: SpaceStats = { rows, alone, at: top };
    if (this.#spaces.size >= COMMON_MEMO) this.#spaces.clear();
    this.#spaces.set(key, s);
    return s;
  }

  /**
   * Each term's rows in the space, counted up to `cap + 1` (more: the term is common); remembered as the space's size
   * is. Terms not remembered are counted together when the engine can (`termsRows`).
   */
  async #termCounts(counter: PlanCounter, space: string, layer: Layer, terms: readonly string[], s: SpaceStats, top: number, cap: number): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const unknown: string[] = [];
    for (const w of new Set(terms)) {
      const known = this.#common.get(`${layer} ${space} ${w}`);
      // A count taken under another cap still answers when it is on the same side of this one.
      if (known && fresh(known.at, known.rows, top) && (known.common ? known.count > cap : known.count <= cap)) {
        out.set(w, known.count);
      } else unknown.push(w);
    }
    if (unknown.length === 0) return out;
    const counted = await this.#once(`terms ${layer} ${space} ${top} ${cap} ${unknown.join('\u0000')}`, async () => {
      if (counter.termsRows) return counter.termsRows(space, layer, unknown, cap, s.alone);
      const out: number[] = [];
      for (const w of unknown) out.push(await counter.termRows(space, layer, w, cap, s.alone));
      return out;
    });
    if (this.#common.size + unknown.length > COMMON_MEMO) this.#common.clear();
    unknown.forEach((w, i) => {
      const count = counted[i]!;
      out.set(w, count);
      this.#common.set(`${layer} ${space} ${w}`, { common: count > cap, count, rows: s.rows, at: top });
    });
    return out;
  }

  /**
   * The two terms with the fewest matches among the space's newest rows, judged by each one's newest matches. A
   * term's density is remembered as the other counts are, until the index has grown by more than 1 % of the space's
   * rows: common words recur across queries, and a walk over the newest 2,000 matches of a word in 5 % of 100k rows
   * reads 40,000 rows on PostgreSQL (5-10 ms). Remembered only while the index was unchanged, every write asked them
   * again, so that a server recording turns between recalls walked on every such recall (PostgreSQL at 100k, a turn
   * recorded before each recall of three common words: p50 25.3 against 16.6-16.9 ms, `bench/recall-between-writes.ts`).
   * A near tie between two words may then be settled as it stood up to 1 % of the rows ago, as a word's commonness is.
   * Terms not remembered are asked two at a time (a server answers them on two connections at once; `TOGETHER`).
   */
  async #rarestOfLate(counter: PlanCounter, space: string, layer: Layer, terms: readonly string[], alone: boolean, top: number, rows: number): Promise<string[]> {
    const key = (w: string) => `${layer} ${space} ${w}`;
    const density = new Map<string, number>();
    for (const w of terms) {
      const known = this.#recent.get(key(w));
      if (known && fresh(known.at, rows, top)) density.set(w, known.density);
    }
    const unknown = [...new Set(terms)].filter((w) => !density.has(w));
    const found = await atMostTogether(
      unknown.map((w) => () => this.#once(`recent ${key(w)} ${top}`, () => counter.recentMatches(space, layer, w, RECENT_SAMPLE, alone))),
      TOGETHER,
    );
    if (this.#recent.size + unknown.length > COMMON_MEMO) this.#recent.clear();
    unknown.forEach((w, i) => {
      const d = found[i]!.count / (top - found[i]!.low + 1);
      density.set(w, d);
      this.#recent.set(key(w), { density: d, at: top });
    });
    return terms.map((w) => ({ w, d: density.get(w)! })).sort((a, b) => a.d - b.d).slice(0, 2).map((x) => x.w);
  }
}

/**
 * Whether a count taken when the index's top id was `at`, over a space of `rows` rows, still holds at `top`: the index
 * has not grown by more than 1 % of the space's rows since (the space cannot have grown by more).
 */
export function fresh(at: number, rows: number, top: number): boolean {
  return top >= at && top - at <= rows / 100;
}

/** A stretch of ids a search scans: every id from `lo` to `hi`. */
export interface IdRun {
  lo: number;
  hi: number;
}

/** The most window ids listed to find the window's runs; a larger window is scanned as one span. */
const RUN_IDS = 5000;
/** The most runs a window is searched in (one statement each); a window in more pieces is scanned as one span. */
export const MAX_RUNS = 8;

/**
 * The id runs of a space's rows in a time window, lowest first (`undefined`: no window asked; `null`: the window is
 * empty). Both engines search a window within these runs; rows of a run outside the window are dropped by the filters
 * after. Ids follow the order rows were written, so a window's rows usually form one short run. History imported
 * after live use breaks that: the window's live rows then have ids on both sides of the imported ones, and one span
 * from the lowest to the highest would scan the whole import (a time-scoped query went to the filtered join, 40-100
 * ms at 100k). So a window whose ids fill less than half of its span, and that holds at most `RUN_IDS` rows, is cut
 * wherever two of its ids lie further apart than it has rows: a gap longer than the window costs more to scan than
 * the window itself.
 */
export async function windowIdRuns(
  db: SqlDriver,
  at: { table: string; time: string },
  space: string,
  o: { since?: number | undefined; until?: number | undefined },
): Promise<IdRun[] | null | undefined> {
  if (o.since === undefined && o.until === undefined) return undefined;
  const range = [space, o.since ?? Number.MIN_SAFE_INTEGER, o.until ?? Number.MAX_SAFE_INTEGER];
  // `id + 0`: with statistics, PostgreSQL answered MIN and MAX by walking the primary key from either end, filtering
  // each row by space and time (16-50 ms at 100k for a recent window); the space-and-time index reads the window's
  // rows alone (0.1 ms).
  const where = `FROM ${at.table} WHERE space = ? AND ${at.time} >= ? AND ${at.time} <= ?`;
  const b = await db.get<{ lo: unknown; hi: unknown; n: unknown }>(`SELECT MIN(id + 0) AS lo, MAX(id + 0) AS hi, COUNT(*) AS n ${where}`, range);
  if (b?.lo === null || b?.lo === undefined) return null;
  const span = { lo: num(b.lo), hi: num(b.hi) };
  const n = num(b.n);
  if (span.hi - span.lo + 1 <= 2 * n || n > RUN_IDS) return [span];
  const ids = (await db.all<{ id: unknown }>(`SELECT id + 0 AS id ${where}`, range)).map((r) => num(r.id)).sort((x, y) => x - y);
  const runs: IdRun[] = [];
  for (const id of ids) {
    const last = runs[runs.length - 1];
    if (last && id - last.hi <= n) last.hi = id;
    else runs.push({ lo: id, hi: id });
    if (runs.length > MAX_RUNS) return [span];
  }
  return runs.length > 0 ? runs : [span];
}
