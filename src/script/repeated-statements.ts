/** Repeated statements: a sentence said again on another day is something the memory should know (issue 21, no model). */

import { contentTokens, jaccard, valueChange } from './contradiction-policy.js';

/** A sentence of a conversation turn, where it was said and when. */
export interface SaidSentence {
  episodeId: number;
  at: number;
  text: string;
}

/** A statement made on at least `minDays` UTC days: the newest wording, every occurrence, the distinct days. */
export interface RepeatedStatement {
  content: string;
  episodeIds: number[];
  days: number;
}

/**
 * Thresholds: the same statement is the night's own "same statement" rule (content words Jaccard ≥ 0.8, no changed
 * value); a statement is 4-40 words, not a question; repeated means said on ≥ 2 different UTC days (on one day it
 * is a conversation's own echo, not a habit of speech).
 */
export const REPEAT_RULES = { sameJaccard: 0.8, minWords: 4, maxWords: 40, minContentWords: 3, minDays: 2 } as const;

const DAY_MS = 86_400_000;

/**
 * The declarative sentences of a turn that can be a statement: split at sentence ends and line breaks, 4-40 words,
 * at least 3 content words, not a question, no code or URL (`{`, `}`, `://`).
 */
export function statementsOf(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/(?<=[.!?。！？])\s+|\n+/u)) {
    const s = raw.trim().replace(/\s+/gu, ' ');
    if (s === '' || /[?？]$/u.test(s) || /[{}]|:\/\//u.test(s)) continue;
    const words = s.split(' ').length;
    if (words < REPEAT_RULES.minWords || words > REPEAT_RULES.maxWords) continue;
    if (contentTokens(s).size < REPEAT_RULES.minContentWords) continue;
    out.push(s.replace(/[.!。！]+$/u, ''));
  }
  return out;
}

/**
 * Statements of `tonight` that `history` (which may include tonight's own sentences) shows on ≥ `minDays` UTC days.
 * Each group of the same statement is reported once, with its newest wording and every occurrence, sorted by days
 * (descending), then content; deterministic.
 */
export function findRepeatedStatements(
  tonight: readonly SaidSentence[],
  history: readonly SaidSentence[],
  options: { minDays?: number } = {},
): RepeatedStatement[] {
  const minDays = options.minDays ?? REPEAT_RULES.minDays;
  const all = dedupe([...tonight, ...history]);
  const tokens = new Map(all.map((s) => [s, contentTokens(s.text)]));
  const claimed = new Set<SaidSentence>();
  const out: RepeatedStatement[] = [];
  for (const s of [...tonight].sort((a, b) => b.at - a.at || b.episodeId - a.episodeId)) {
    const mine = all.find((x) => x.episodeId === s.episodeId && x.text === s.text)!;
    if (claimed.has(mine)) continue;
    const same = all.filter(
      (x) =>
        !claimed.has(x) &&
        jaccard(tokens.get(mine)!, tokens.get(x)!) >= REPEAT_RULES.sameJaccard &&
        valueChange(x.text, mine.text) === undefined,
    );
    const days = new Set(same.map((x) => Math.floor(x.at / DAY_MS)));
    if (days.size < minDays) continue;
    for (const x of same) claimed.add(x);
    const newest = same.reduce((a, b) => (b.at > a.at || (b.at === a.at && b.episodeId > a.episodeId) ? b : a));
    out.push({
      content: newest.text,
      episodeIds: [...new Set(same.map((x) => x.episodeId))].sort((a, b) => a - b),
      days: days.size,
    });
  }
  return out.sort((a, b) => b.days - a.days || (a.content < b.content ? -1 : a.content > b.content ? 1 : 0));
}

function dedupe(list: readonly SaidSentence[]): SaidSentence[] {
  const seen = new Map<string, SaidSentence>();
  for (const s of list) seen.set(`${s.episodeId}\u0000${s.text}`, seen.get(`${s.episodeId}\u0000${s.text}`) ?? s);
  return [...seen.values()];
}
