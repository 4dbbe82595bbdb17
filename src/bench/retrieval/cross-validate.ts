// Leave-one-conversation-out cross-validation of Tidepool's recall defaults on a LoCoMo-shaped dataset.
import type { ConfigInput } from '../../core/config.js';
import { loadLocomo } from '../locomo.js';
import type { BenchConversation, BenchDataset, BenchQuestion } from '../locomo.js';
import { dedupeRanked, recallAtK } from '../metrics.js';
import { roundTo } from '../percentile.js';
import type { RetrievalSystem } from '../retrieval-system.js';

/** One tuned default: its `recall` config key, the value Tidepool ships and the values tried. */
export interface TunedDefault {
  readonly key: string;
  readonly shipped: unknown;
  readonly values: readonly unknown[];
}

/**
 * The recall defaults chosen on LoCoMo's development split, each with the values a fold may choose from: off first
 * (or the weaker setting), the shipped value last, a half step between for some. A small grid: each value is one
 * pass over the split.
 */
export const TUNED_DEFAULTS: readonly TunedDefault[] = [
  { key: 'neighbourWeights', shipped: [0.5, 0.25], values: [[0.25, 0.125], [0.5, 0.25]] },
  { key: 'speakerBoost', shipped: 1, values: [0, 0.5, 1] },
  { key: 'whenBoost', shipped: 0.3, values: [0, 0.3] },
  { key: 'openingBoost', shipped: 0.8, values: [0, 0.4, 0.8] },
  { key: 'toldWithinDays', shipped: 7, values: [0, 7] },
  { key: 'recencyBoost', shipped: 0.05, values: [0, 0.05] },
  { key: 'contextTurns', shipped: 2, values: [0, 2] },
];

/** What a fold chose and scored. */
export interface CvFold {
  readonly held: string;
  readonly questions: number;
  /** Value chosen for each key on the other conversations. */
  readonly chosen: Record<string, unknown>;
  /** R@10 on the held-out conversation with the chosen values, and with the shipped ones. */
  readonly recall10: number;
  readonly shippedRecall10: number;
}

/** Per key and value: R@10 on each conversation, everything else shipped. */
export interface CvSweepRow {
  readonly key: string;
  readonly value: unknown;
  readonly perConversation: Record<string, number>;
  readonly all: number;
}

/** The cross-validation report (`tidepool bench retrieval --cv --json`). */
export interface CvReport {
  readonly dataset: string;
  readonly questions: number;
  /** R@10 with every default as shipped (the plain dev figure). */
  readonly shippedRecall10: number;
  /** R@10 of each conversation when it was held out, values chosen on the others, question-weighted. */
  readonly cvRecall10: number;
  readonly folds: CvFold[];
  readonly sweep: CvSweepRow[];
  /**
   * Keys whose shipped value beats "off" (their first value) on one conversation only: what helps only one
   * conversation (the issue asks to drop or weaken those).
   */
  readonly helpsOne: string[];
}

/** Options of {@link crossValidate}. */
export interface CrossValidateOptions {
  readonly dataPath?: string;
  readonly dataset?: BenchDataset;
  readonly datasetName?: string;
  /** A fresh Tidepool system with the given recall overrides. */
  readonly system: (recall: Record<string, unknown>) => RetrievalSystem;
  readonly defaults?: readonly TunedDefault[];
  readonly categories?: readonly number[];
  readonly onProgress?: (line: string) => void;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Leave-one-conversation-out: for each conversation, every tuned default takes the value with the best R@10 on the
 * other conversations (one key at a time, the rest as shipped; a tie keeps the first listed, off or weaker), and the held-out
 * conversation is scored with all the chosen values together. Each conversation's R@10 under each single-key
 * change is measured once and reused by every fold.
 */
export async function crossValidate(o: CrossValidateOptions): Promise<CvReport> {
  const dataset = o.dataset ?? loadLocomo(o.dataPath ?? '');
  const categories = new Set(o.categories ?? [1, 2, 3, 4]);
  const defaults = o.defaults ?? TUNED_DEFAULTS;
  const asked = (c: BenchConversation): BenchQuestion[] => dataset.questions.filter((q) => q.convId === c.id && categories.has(q.category));
  const convs = dataset.conversations.filter((c) => asked(c).length > 0);
  // Sum of per-question R@10 of one conversation under a recall override.
  const memo = new Map<string, number>();
  const score = async (recall: Record<string, unknown>, conv: BenchConversation): Promise<number> => {
    const key = `${conv.id} ${JSON.stringify(recall)}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const system = o.system(recall);
    let sum = 0;
    try {
      await system.load(conv);
      for (const q of asked(conv)) sum += recallAtK(dedupeRanked(await system.search(q.question, 10)), q.evidence, 10);
    } finally {
      await system.close();
    }
    memo.set(key, sum);
    return sum;
  };
  const n = (cs: readonly BenchConversation[]) => cs.reduce((a, c) => a + asked(c).length, 0);
  const sweep: CvSweepRow[] = [];
  const sums = new Map<string, Map<string, number>>(); // `${key} ${value}` -> conv -> sum
  for (const d of defaults) {
    for (const v of d.values) {
      const per = new Map<string, number>();
      for (const c of convs) per.set(c.id, await score(same(v, d.shipped) ? {} : { [d.key]: v }, c));
      sums.set(`${d.key} ${JSON.stringify(v)}`, per);
      const perConversation: Record<string, number> = {};
      for (const c of convs) perConversation[c.id] = roundTo(per.get(c.id)! / asked(c).length, 3);
      sweep.push({ key: d.key, value: v, perConversation, all: roundTo([...per.values()].reduce((a, b) => a + b, 0) / n(convs), 3) });
      o.onProgress?.(`cv sweep ${d.key}=${JSON.stringify(v)}: R@10 ${sweep.at(-1)!.all}`);
    }
  }
  const folds: CvFold[] = [];
  let cvSum = 0;
  let shippedSum = 0;
  for (const held of convs) {
    const train = convs.filter((c) => c !== held);
    const chosen: Record<string, unknown> = {};
    for (const d of defaults) {
      let best = { v: d.values[0], s: -Infinity };
      for (const v of d.values) {
        const per = sums.get(`${d.key} ${JSON.stringify(v)}`)!;
        const s = train.reduce((a, c) => a + per.get(c.id)!, 0);
        // Strictly better only: a tie keeps the value listed first (off or weaker), so a default that helps no
        // training conversation is not carried to the held-out one.
        if (s > best.s + 1e-9) best = { v, s };
      }
      if (!same(best.v, d.shipped)) chosen[d.key] = best.v;
    }
    const s = await score(chosen, held);
    const base = await score({}, held);
    cvSum += s;
    shippedSum += base;
    folds.push({ held: held.id, questions: asked(held).length, chosen, recall10: roundTo(s / asked(held).length, 3), shippedRecall10: roundTo(base / asked(held).length, 3) });
    o.onProgress?.(`cv fold ${held.id}: ${JSON.stringify(chosen)} R@10 ${folds.at(-1)!.recall10} (shipped ${folds.at(-1)!.shippedRecall10})`);
  }
  const helpsOne = defaults
    .filter((d) => {
      const off = sums.get(`${d.key} ${JSON.stringify(d.values[0])}`)!;
      const on = sums.get(`${d.key} ${JSON.stringify(d.shipped)}`)!;
      if (same(d.values[0], d.shipped)) return false;
      const gains = convs.map((c) => on.get(c.id)! - off.get(c.id)!);
      return gains.filter((g) => g > 1e-9).length === 1;
    })
    .map((d) => d.key);
  const total = n(convs);
  return {
    dataset: o.datasetName ?? 'dataset',
    questions: total,
    shippedRecall10: roundTo(shippedSum / total, 3),
    cvRecall10: roundTo(cvSum / total, 3),
    folds,
    sweep,
    helpsOne,
  };
}

/** The report as Markdown. */
export function renderCvMarkdown(r: CvReport): string {
  const convs = Object.keys(r.sweep[0]?.perConversation ?? {});
  const lines = [
    `Leave-one-conversation-out cross-validation on \`${r.dataset}\`, ${r.questions} questions.`,
    '',
    `R@10 with the shipped defaults: **${r.shippedRecall10.toFixed(3)}**; cross-validated (each conversation scored with values chosen on the others): **${r.cvRecall10.toFixed(3)}**.`,
    '',
    '| held out | questions | chosen on the others (shipped unless named) | R@10 chosen | R@10 shipped |',
    '|---|---:|---|---:|---:|',
    ...r.folds.map((f) => `| ${f.held} | ${f.questions} | ${Object.keys(f.chosen).length === 0 ? 'all shipped' : Object.entries(f.chosen).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ')} | ${f.recall10.toFixed(3)} | ${f.shippedRecall10.toFixed(3)} |`),
    '',
    `| key | value | ${convs.join(' | ')} | all |`,
    `|---|---|${convs.map(() => '---:').join('|')}|---:|`,
    ...r.sweep.map((s) => `| ${s.key} | ${JSON.stringify(s.value)} | ${convs.map((c) => s.perConversation[c]!.toFixed(3)).join(' | ')} | ${s.all.toFixed(3)} |`),
    '',
    `Helps one conversation only (shipped vs off): ${r.helpsOne.length === 0 ? 'none' : r.helpsOne.join(', ')}.`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Recall overrides as a Tidepool config. */
export function recallConfig(recall: Record<string, unknown>): ConfigInput {
  return { recall } as ConfigInput;
}
