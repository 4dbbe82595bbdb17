/** Deterministic pre-check: does a new provisional entry contradict a reliable one? (SEEDS §3.4 quarantine) */

/** The fields of a knowledge entry the check reads. */
export interface ContradictionEntry {
  id: number;
  content: string;
  key?: string | null;
  subject?: string | null;
}

/** The reliable entry contradicted, how the pair was matched and the token overlap, or none. */
export type ContradictionVerdict =
  | {
      kind: 'contradicts';
      with: number;
      match: 'same_key' | 'same_subject' | 'near_duplicate' | 'value_change';
      overlap: number;
      /** For `value_change`: the attribute whose value differs, and the two values (reliable's first). */
      change?: { attribute: string; from: string; to: string };
    }
  | { kind: 'none' };

/**
 * Thresholds: a pair with the same key or subject contradicts when, with opposite negation, the overlap
 * coefficient |A∩B| / min(|A|,|B|) of their content tokens is ≥ 0.5 (it tolerates the extra words a negated
 * sentence carries). A pair with neither must be nearly the same sentence: Jaccard |A∩B| / |A∪B| ≥ 0.6, so a long
 * negated sentence that merely contains a short reliable one is not enough.
 */
export const CONTRADICTION_RULES = {
  sameSubjectOverlap: 0.5,
  unrelatedJaccard: 0.6,
  valueChangeOverlap: 0.6,
  valueChangeShared: 2,
} as const;

// English, German and Chinese negation markers. `n't` is expanded to `not` before matching.
// prettier-ignore
const NEGATION_WORDS = new Set([
  'not', 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'cannot', 'anymore', 'longer',
  'nicht', 'kein', 'keine', 'keinen', 'keiner', 'nie', 'niemals', 'nimmer',
]);
// Longest first, so 不再 is removed whole before 不.
// prettier-ignore
const CJK_NEGATIONS = ['再也不', '不再', '从不', '从未', '没有', '并非', '毫无', '不', '没', '无', '未', '非', '别', '勿'];
// Words that contain a negation character but do not negate (不错 "good", 非常 "very", 无论 "regardless" …).
// prettier-ignore
const CJK_NOT_NEGATIONS = ['不错', '不过', '不同', '不少', '不断', '不久', '不仅', '不管', '不但', '不论', '不得不', '无论', '非常', '没关系', '别人', '别的'];
// prettier-ignore
const STOPWORDS = new Set([
  'the', 'a', 'an', 'is', 'are', 'was', 'were', 'be', 'been', 'am', 'do', 'does', 'did', 'to', 'of', 'and', 'or',
  'in', 'on', 'at', 'for', 'with', 'it', 'its', 'this', 'that', 'as', 'by', 'has', 'have', 'had', 'will', 'would',
  'der', 'die', 'das', 'und', 'ist', 'sind', 'mit', 'zu', 'von', 'ein', 'eine', 'mehr',
]);
const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff]+/gu;

/** True when `text` carries a negation marker (English, German or Chinese). */
export function hasNegation(text: string): boolean {
  const lower = expand(text);
  if ((lower.match(/[\p{L}\p{N}]+/gu) ?? []).some((w) => NEGATION_WORDS.has(w))) return true;
  let cjk = (lower.match(CJK_RUN) ?? []).join(' ');
  for (const w of CJK_NOT_NEGATIONS) cjk = cjk.split(w).join(' ');
  return CJK_NEGATIONS.some((n) => cjk.includes(n));
}

/** Content tokens without negations or stop words: Latin words (a trailing plural `s` cut), CJK character bigrams. */
export function contentTokens(text: string): Set<string> {
  const lower = expand(text);
  const tokens = new Set<string>();
  for (const w of lower.replace(CJK_RUN, ' ').match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (NEGATION_WORDS.has(w) || STOPWORDS.has(w)) continue;
    tokens.add(w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);
  }
  for (const run of lower.match(CJK_RUN) ?? []) {
    let kept = run;
    for (const n of CJK_NEGATIONS) kept = kept.split(n).join('');
    if (kept.length === 1) tokens.add(kept);
    for (let i = 0; i + 2 <= kept.length; i++) tokens.add(kept.slice(i, i + 2));
  }
  return tokens;
}

/** |A∩B| / min(|A|,|B|); 0 when either side is empty. */
export function overlapCoefficient(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared += 1;
  return shared / Math.min(a.size, b.size);
}

/**
 * Compares `candidate` (new, provisional) with every `reliable` entry and returns the strongest contradiction:
 * opposite negation plus enough token overlap (see `CONTRADICTION_RULES`; `overlap` reports the measure used). A same-key or same-subject pair is
 * preferred over a near duplicate. This only catches "X" vs "not X"; the librarian model may flag subtler
 * contradictions ("likes tea" vs "likes coffee"), which the night treats the same way.
 */
export function findContradiction(
  candidate: ContradictionEntry,
  reliable: readonly ContradictionEntry[],
): ContradictionVerdict {
  const negated = hasNegation(candidate.content);
  const tokens = contentTokens(candidate.content);
  let best: ContradictionVerdict = { kind: 'none' };
  let bestRank = -1;
  for (const r of reliable) {
    if (r.id === candidate.id) continue;
    if (hasNegation(r.content) === negated) {
      const change = valueChange(candidate.content, r.content);
      // A changed value ranks with a same-key or same-subject pair: it names the subject and the attribute.
      if (change !== undefined && 2 + change.overlap > bestRank) {
        bestRank = 2 + change.overlap;
        best = { kind: 'contradicts', with: r.id, match: 'value_change', overlap: round(change.overlap), change: change.change };
      }
      continue;
    }
    const match = sameText(candidate.key, r.key)
      ? 'same_key'
      : sameText(candidate.subject, r.subject)
        ? 'same_subject'
        : 'near_duplicate';
    const other = contentTokens(r.content);
    const overlap = match === 'near_duplicate' ? jaccard(tokens, other) : overlapCoefficient(tokens, other);
    const needed =
      match === 'near_duplicate'
        ? CONTRADICTION_RULES.unrelatedJaccard
        : CONTRADICTION_RULES.sameSubjectOverlap;
    if (overlap < needed) continue;
    const rank = (match === 'near_duplicate' ? 0 : 2) + overlap;
    if (rank > bestRank) {
      bestRank = rank;
      best = { kind: 'contradicts', with: r.id, match, overlap: round(overlap) };
    }
  }
  return best;
}

/** A value as a sentence writes it: a word with a digit (`6543`, `v3.2`, `14:30`, `2026-11-03`). */
const VALUE = /\d/u;
const WORD = /[\p{L}\p{N}](?:[\p{L}\p{N}.:/-]*[\p{L}\p{N}])?/gu;

/**
 * The values a sentence states, each under its attribute: the nearest content word before it (`port 6543` →
 * port = 6543; `moved to port 5433` → port = 5433), or after it when the sentence opens with the value.
 */
export function valueSlots(text: string): Array<{ attribute: string; value: string }> {
  const words = (expand(text).match(WORD) ?? []).filter((w) => !STOPWORDS.has(w) && !NEGATION_WORDS.has(w));
  const slots: Array<{ attribute: string; value: string }> = [];
  words.forEach((w, i) => {
    if (!VALUE.test(w)) return;
    const before = words.slice(0, i).reverse().find((x) => !VALUE.test(x));
    const after = words.slice(i + 1).find((x) => !VALUE.test(x));
    const attribute = before ?? after;
    if (attribute !== undefined) slots.push({ attribute: stem(attribute), value: w });
  });
  return slots;
}

/**
 * A changed value without a negation ("staging Postgres moved to port 5433" against "… listens on port 6543"): both
 * sentences give the same attribute a value, the values share nothing, and the rest of the sentences is about the
 * same thing — at least `valueChangeShared` shared content words (the attribute included) and an overlap
 * coefficient ≥ `valueChangeOverlap` over the words that are not values. A sentence that states both values
 * ("moved from 6543 to 5433") agrees with either and is no contradiction.
 */
export function valueChange(
  candidate: string,
  reliable: string,
): { overlap: number; change: { attribute: string; from: string; to: string } } | undefined {
  const mine = valueSlots(candidate);
  const theirs = valueSlots(reliable);
  if (mine.length === 0 || theirs.length === 0) return undefined;
  const words = (t: string) => new Set([...contentTokens(t)].filter((w) => !VALUE.test(w)));
  const a = words(candidate);
  const b = words(reliable);
  let shared = 0;
  for (const w of a) if (b.has(w)) shared += 1;
  const overlap = overlapCoefficient(a, b);
  if (shared < CONTRADICTION_RULES.valueChangeShared || overlap < CONTRADICTION_RULES.valueChangeOverlap) return undefined;
  for (const t of theirs) {
    const mineHere = mine.filter((m) => m.attribute === t.attribute).map((m) => m.value);
    const theirsHere = theirs.filter((x) => x.attribute === t.attribute).map((x) => x.value);
    if (mineHere.length === 0 || mineHere.some((v) => theirsHere.includes(v))) continue;
    if (theirsHere.some((v) => mine.some((m) => m.value === v))) continue;
    return { overlap, change: { attribute: t.attribute, from: t.value, to: mineHere[0]! } };
  }
  return undefined;
}

/** |A∩B| / |A∪B|; 0 when both are empty. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

function expand(text: string): string {
  return text.toLowerCase().replace(/n['’]t\b/g, ' not');
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The plural `s` cut as `contentTokens` cuts it, so "ports" and "port" are one attribute. */
function stem(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

function sameText(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return false;
  const x = a.trim().toLowerCase();
  return x.length > 0 && x === b.trim().toLowerCase();
}
