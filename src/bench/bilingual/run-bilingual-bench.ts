// Runs the retrieval benchmark on a generated parallel corpus, English and Chinese side by side.
import { parseLocomo } from '../locomo.js';
import { MiniSearchPeer } from '../peers/minisearch-peer.js';
import { runRetrievalBench } from '../retrieval/run-retrieval-bench.js';
import type { RetrievalSystemRow } from '../retrieval/run-retrieval-bench.js';
import type { RetrievalSystem } from '../retrieval-system.js';
import { TidepoolRetrievalSystem } from '../tidepool-retrieval-system.js';
import { generateParallelCorpus, LANGS } from './parallel-corpus.js';
import type { Lang, ParallelCorpus } from './parallel-corpus.js';

export interface BilingualBenchOptions {
  readonly seed?: number;
  readonly conversations?: number;
  /** Fresh systems for one language's run; default Tidepool lexical (no embedder) and minisearch. */
  readonly systems?: () => RetrievalSystem[];
  /** An already generated corpus (else generated from `seed` and `conversations`). */
  readonly corpus?: ParallelCorpus;
  readonly onProgress?: (line: string) => void;
}

export interface BilingualLanguageRow {
  readonly lang: Lang;
  readonly systems: RetrievalSystemRow[];
}

/** `{ seed, conversations, questions, languages: [{ lang, systems }] }`; `questions` is per language (the same in both). */
export interface BilingualReport {
  readonly seed: number;
  readonly conversations: number;
  readonly questions: number;
  readonly languages: BilingualLanguageRow[];
}

/** The default systems: Tidepool lexical and the minisearch peer. */
export function defaultBilingualSystems(): RetrievalSystem[] {
  return [new TidepoolRetrievalSystem(), new MiniSearchPeer()];
}

/**
 * Generates the parallel corpus (seed, default 1; 10 conversations) and runs `runRetrievalBench` on each
 * language with fresh systems, categories 1, 2 and 4 (the generator asks no others).
 */
export async function runBilingualBench(options: BilingualBenchOptions = {}): Promise<BilingualReport> {
  const seed = options.seed ?? 1;
  const corpus = options.corpus ?? generateParallelCorpus({ seed, conversations: options.conversations ?? 10 });
  const makeSystems = options.systems ?? defaultBilingualSystems;
  const languages: BilingualLanguageRow[] = [];
  let questions = 0;
  for (const lang of LANGS) {
    const report = await runRetrievalBench({
      dataset: parseLocomo(corpus[lang]),
      datasetName: `bilingual-${lang}-seed${seed}`,
      systems: makeSystems(),
      onProgress: options.onProgress ? (l) => options.onProgress?.(`[${lang}] ${l}`) : undefined,
    });
    questions = report.questions;
    languages.push({ lang, systems: report.systems });
  }
  return { seed, conversations: corpus.en.length, questions, languages };
}

const CATEGORY_NAMES: Record<string, string> = { '1': 'multi-hop', '2': 'temporal', '4': 'single-hop' };

function cell(v: number | undefined): string {
  return v === undefined ? '–' : v.toFixed(3);
}

function delta(zh: number | undefined, en: number | undefined): string {
  if (zh === undefined || en === undefined) return '–';
  const d = zh - en;
  return `${d >= 0 ? '+' : '−'}${Math.abs(d).toFixed(3)}`;
}

/** Markdown: one row per system and language, and a zh − en row per system. */
export function renderBilingualMarkdown(report: BilingualReport): string {
  const cats = [...new Set(report.languages.flatMap((l) => l.systems.flatMap((s) => Object.keys(s.per_category))))].sort();
  const head = ['System', 'Lang', 'R@5', 'R@10', 'R@25', 'NDCG@10', 'Session R@5', ...cats.map((c) => `${CATEGORY_NAMES[c] ?? `cat ${c}`} R@10`), 'p50 ms'];
  const metrics = (r: RetrievalSystemRow | undefined): Array<number | undefined> => [
    r?.recall['5'], r?.recall['10'], r?.recall['25'], r?.ndcg10, r?.session_recall5, ...cats.map((c) => r?.per_category[c]),
  ];
  const lines = [
    `### Bilingual parallel corpus (seed ${report.seed}, ${report.conversations} conversations, ${report.questions} questions per language)`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`,
  ];
  const names = [...new Set(report.languages.flatMap((l) => l.systems.map((s) => `${s.name} (${s.mode})`)))];
  for (const name of names) {
    const rowOf = (lang: Lang): RetrievalSystemRow | undefined =>
      report.languages.find((l) => l.lang === lang)?.systems.find((s) => `${s.name} (${s.mode})` === name);
    for (const l of report.languages) {
      const r = rowOf(l.lang);
      lines.push(`| ${name} | ${l.lang} | ${metrics(r).map(cell).join(' | ')} | ${r ? r.p50_ms.toFixed(2) : '–'} |`);
    }
    const en = metrics(rowOf('en'));
    const zh = metrics(rowOf('zh'));
    lines.push(`| ${name} | zh − en | ${zh.map((z, i) => delta(z, en[i])).join(' | ')} | |`);
  }
  return `${lines.join('\n')}\n`;
}
