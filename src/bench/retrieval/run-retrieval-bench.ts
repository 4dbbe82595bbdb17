// Runs the LoCoMo retrieval benchmark over any set of systems and reports recall, NDCG, budget recall and latency.
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadLocomo } from '../locomo.js';
import type { BenchConversation, BenchDataset, BenchQuestion } from '../locomo.js';
import {
  budgetRecall,
  countBenchTokens,
  dedupeRanked,
  ndcgAtK,
  recallAtK,
  sessionRecallAtK,
} from '../metrics.js';
import type { TokenCounter } from '../metrics.js';
import { mean, percentile, roundTo } from '../percentile.js';
import { renderHitsBlock } from '../retrieval-system.js';
import type { RetrievalSystem } from '../retrieval-system.js';

/** Options of {@link runRetrievalBench}; give `dataPath` or an already loaded `dataset`. */
export interface RetrievalBenchOptions {
  readonly dataPath?: string;
  readonly dataset?: BenchDataset;
  /** Report's `dataset` field; default the file's base name. */
  readonly datasetName?: string;
  readonly systems: readonly RetrievalSystem[];
  /** Recall cut-offs; default 5, 10, 25. */
  readonly ks?: readonly number[];
  /** Token budgets of budget recall; default 500, 1000, 2000. */
  readonly budgets?: readonly number[];
  /** Only the first n conversations of the file. */
  readonly limitConversations?: number;
  /** Question categories asked; default 1-4 (5 is adversarial and has no answer to retrieve). */
  readonly categories?: readonly number[];
  /** Hits rendered into the block when a system has no `renderBlock`; default 200 (> 2,000 tokens). */
  readonly blockHits?: number;
  readonly countTokens?: TokenCounter;
  readonly onProgress?: (line: string) => void;
}

/** One system × mode row, in the `--json` shape of `tidepool bench retrieval`. */
export interface RetrievalSystemRow {
  readonly name: string;
  readonly mode: string;
  readonly recall: Record<string, number>;
  readonly ndcg10: number;
  readonly session_recall5: number;
  readonly budget_recall: Record<string, number>;
  readonly p50_ms: number;
  readonly p95_ms: number;
  /** Recall@10 per question category ("1" … "4"). */
  readonly per_category: Record<string, number>;
}

/** The whole report: `{"dataset","questions","systems":[…]}`. */
export interface RetrievalReport {
  readonly dataset: string;
  /** Questions asked (categories 1-4; one without evidence ids counts as a miss, as in the calibration). */
  readonly questions: number;
  readonly systems: RetrievalSystemRow[];
}

const DIGITS = 3;

interface Scored {
  readonly category: number;
  readonly recall: number[];
  readonly recall10: number;
  readonly ndcg10: number;
  readonly session5: number;
  readonly budget: Record<string, number>;
  readonly ms: number;
}

function conversationIndex(conv: BenchConversation): {
  sessionOf: (id: string) => string | undefined;
  exists: (id: string) => boolean;
} {
  const session = new Map<string, string>();
  const sessions = new Set<string>();
  for (const s of conv.sessions) {
    sessions.add(String(s.n));
    for (const t of s.turns) session.set(t.diaId, String(s.n));
  }
  return {
    exists: (id) => session.has(id),
    sessionOf: (id) => {
      const known = session.get(id);
      if (known !== undefined) return known;
      // A missing turn of an existing session still names that session ("D10:19" → 10).
      const m = /^D(\d+):/u.exec(id);
      return m && sessions.has(String(Number(m[1]))) ? String(Number(m[1])) : undefined;
    },
  };
}

async function scoreQuestion(
  system: RetrievalSystem,
  conv: BenchConversation,
  q: BenchQuestion,
  index: ReturnType<typeof conversationIndex>,
  o: Required<Pick<RetrievalBenchOptions, 'ks' | 'budgets' | 'blockHits' | 'countTokens'>>,
): Promise<Scored> {
  const searchK = Math.max(...o.ks, 10);
  const t0 = performance.now();
  const raw = await system.search(q.question, searchK);
  const ms = performance.now() - t0;
  const ranked = dedupeRanked(raw);
  const retrievable = q.evidence.filter((id) => index.exists(id)).length;
  const block = system.renderBlock
    ? await system.renderBlock(q.question)
    : renderHitsBlock(conv, dedupeRanked(await system.search(q.question, o.blockHits)));
  return {
    category: q.category,
    recall: o.ks.map((k) => recallAtK(ranked, q.evidence, k)),
    recall10: recallAtK(ranked, q.evidence, 10),
    ndcg10: ndcgAtK(ranked, q.evidence, retrievable, 10),
    session5: sessionRecallAtK(ranked, q.evidence, index.sessionOf, 5),
    budget: budgetRecall(block, q.evidence, o.budgets, o.countTokens),
    ms,
  };
}

function summarise(system: RetrievalSystem, scored: readonly Scored[], ks: readonly number[], budgets: readonly number[]): RetrievalSystemRow {
  const r = (v: number): number => roundTo(v, DIGITS);
  const recall: Record<string, number> = {};
  ks.forEach((k, i) => (recall[String(k)] = r(mean(scored.map((s) => s.recall[i] as number)))));
  const budget_recall: Record<string, number> = {};
  for (const b of budgets) budget_recall[String(b)] = r(mean(scored.map((s) => s.budget[String(b)] as number)));
  const per_category: Record<string, number> = {};
  for (const c of [...new Set(scored.map((s) => s.category))].sort((a, b) => a - b)) {
    per_category[String(c)] = r(mean(scored.filter((s) => s.category === c).map((s) => s.recall10)));
  }
  const ms = scored.map((s) => s.ms);
  return {
    name: system.name,
    mode: system.mode,
    recall,
    ndcg10: r(mean(scored.map((s) => s.ndcg10))),
    session_recall5: r(mean(scored.map((s) => s.session5))),
    budget_recall,
    p50_ms: roundTo(percentile(ms, 50), 3),
    p95_ms: roundTo(percentile(ms, 95), 3),
    per_category,
  };
}

/**
 * Loads each conversation into a fresh memory of every system, asks every question of the chosen
 * categories (a question whose evidence list is empty scores 0 everywhere, as in the README's
 * calibration, so the denominator is every question asked) and reports
 * the metrics of `metrics.ts` averaged over questions. Systems run one after another, so their
 * latencies do not interfere.
 */
export async function runRetrievalBench(options: RetrievalBenchOptions): Promise<RetrievalReport> {
  const dataset = options.dataset ?? loadLocomo(options.dataPath ?? '');
  const name = options.datasetName ?? (options.dataPath ? basename(options.dataPath) : 'dataset');
  const o = {
    ks: options.ks ?? [5, 10, 25],
    budgets: options.budgets ?? [500, 1000, 2000],
    blockHits: options.blockHits ?? 200,
    countTokens: options.countTokens ?? countBenchTokens,
  };
  const categories = new Set(options.categories ?? [1, 2, 3, 4]);
  const conversations = dataset.conversations.slice(0, options.limitConversations ?? dataset.conversations.length);
  const asked = (conv: BenchConversation): BenchQuestion[] =>
    dataset.questions.filter((q) => q.convId === conv.id && categories.has(q.category));
  const questionCount = conversations.reduce((n, c) => n + asked(c).length, 0);
  const rows: RetrievalSystemRow[] = [];
  for (const system of options.systems) {
    const scored: Scored[] = [];
    try {
      for (const conv of conversations) {
        const t0 = performance.now();
        await system.load(conv);
        const index = conversationIndex(conv);
        const loadMs = performance.now() - t0;
        for (const q of asked(conv)) scored.push(await scoreQuestion(system, conv, q, index, o));
        options.onProgress?.(
          `${system.name}/${system.mode} ${conv.id}: loaded in ${loadMs.toFixed(0)} ms, ${scored.length}/${questionCount} questions`,
        );
      }
    } finally {
      await system.close();
    }
    rows.push(summarise(system, scored, o.ks, o.budgets));
  }
  return { dataset: name, questions: questionCount, systems: rows };
}
