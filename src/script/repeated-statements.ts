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
 * value); a statement is 4-40 words with 3 keywords (see `statementsOf`); one whose rarest words each occur in more
 * than 500 sentences is too generic to compare; repeated means said on ≥ 2 different UTC days (on one day it
 * is a conversation's own echo, not a habit of speech).
 */
export const REPEAT_RULES = { sameJaccard: 0.8, minWords: 4, maxWords: 40, minKeywords: 3, minDays: 2, maxCandidates: 500 } as const;

const DAY_MS = 86_400_000;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * The declarative sentences of a turn that can be a statement: split at sentence ends, colons and line breaks, 4-40 words,
 * not a question, no code, URL or media caption (`{`, `}`, `://`, `[image: …]`), and saying something: 3 keywords
 * (the script layer's, stop words out), or 2 and an anchor — a value (`5433`) or a name that is not only the person
 * spoken to. Small talk said every day ("That sounds great, Caroline", "Your words mean a lot") is no knowledge.
 */
export function statementsOf(text: string, keywords: (text: string) => string[]): string[] {
  const out: string[] = [];
  const prose = text.replace(/\[[a-z]+:[^\]]*\]/gu, '\n');
  // A lead-in before a colon ("Heads up: …", "Reminder: …") is its own sentence, so the statement after it matches.
  // Chinese and Japanese sentences end without a space.
  for (const raw of prose.split(/(?<=[.!?:])\s+|(?<=[。！？：])|\n+/u)) {
    const s = raw.trim().replace(/\s+/gu, ' ');
    if (s === '' || /[?？]$/u.test(s) || /[{}]|:\/\//u.test(s)) continue;
    // Han or kana text has no spaces: about two characters make a word.
    const words = CJK.test(s) ? Math.ceil([...s].length / 2) : s.split(' ').length;
    if (words < REPEAT_RULES.minWords || words > REPEAT_RULES.maxWords) continue;
    const spoken = withoutVocatives(s);
    const n = keywords(spoken).length;
    if (n < REPEAT_RULES.minKeywords && !(n >= REPEAT_RULES.minKeywords - 1 && hasAnchor(spoken))) continue;
    out.push(s.replace(/[.!。！]+$/u, ''));
  }
  return out;
}

/** The sentence without the names of the person addressed ("Wow, Caroline, that's awesome" → "Wow, that's awesome"). */
function withoutVocatives(s: string): string {
  let out = s.replace(/,\s+\p{Lu}\p{Ll}+(?=,|[.!]*$)/gu, '');
  while (/^\p{Lu}\p{Ll}+,\s+/u.test(out)) out = out.replace(/^\p{Lu}\p{Ll}+,\s+/u, '');
  return out;
}

// Capitalised words that fill sentences without naming anyone.
const NOT_NAMES = /^(I|I'm|I've|I'd|I'll|OK|Okay)$/u;

/** A value (a word with a digit) or a capitalised name inside the sentence (its first word may be any opener). */
function hasAnchor(s: string): boolean {
  if (/\p{N}/u.test(s)) return true;
  return s
    .split(/\s+/u)
    .slice(1)
    .some((w) => /^\p{Lu}\p{Ll}/u.test(w) && !NOT_NAMES.test(w.replace(/[,.!;:]+$/u, '')));
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
  const tokens = new Map([...all.values()].map((s) => [s, contentTokens(s.text)]));
  const postings = new Map<string, SaidSentence[]>();
  for (const [s, ts] of tokens) {
    for (const t of ts) {
      const list = postings.get(t);
      if (list === undefined) postings.set(t, [s]);
      else list.push(s);
    }
  }
  const claimed = new Set<SaidSentence>();
  const out: RepeatedStatement[] = [];
  for (const s of [...tonight].sort((a, b) => b.at - a.at || b.episodeId - a.episodeId)) {
    const mine = all.get(keyOf(s))!;
    if (claimed.has(mine)) continue;
    // Jaccard ≥ 0.8 leaves a same statement without at most a quarter of mine's tokens, so it holds one of mine's
    // ⌊n/4⌋+1 rarest tokens: only their postings are compared (a 45,000-turn import stays near linear).
    const mineTokens = tokens.get(mine)!;
    const rarest = [...mineTokens]
      .sort((a, b) => postings.get(a)!.length - postings.get(b)!.length || (a < b ? -1 : 1))
      .slice(0, Math.floor(mineTokens.size / 4) + 1);
    const candidates = new Set(rarest.flatMap((t) => postings.get(t)!));
    // Even its rarest words fill hundreds of sentences: it says nothing specific (and comparing it would be quadratic).
    if (candidates.size > REPEAT_RULES.maxCandidates) continue;
    const same = [...candidates].filter(
      (x) =>
        !claimed.has(x) &&
        jaccard(mineTokens, tokens.get(x)!) >= REPEAT_RULES.sameJaccard &&
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

function keyOf(s: SaidSentence): string {
  return `${s.episodeId}\u0000${s.text}`;
}

function dedupe(list: readonly SaidSentence[]): Map<string, SaidSentence> {
  const seen = new Map<string, SaidSentence>();
  for (const s of list) if (!seen.has(keyOf(s))) seen.set(keyOf(s), s);
  return seen;
}
