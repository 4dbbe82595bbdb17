/**
 * A seeded, held-out corpus for the secret and PII detectors, generated from the vendors' documented formats in
 * English and Chinese contexts, with near-misses; the hand-written fixtures were written with the detectors, this
 * one was not.
 */
import { createRng } from '../script/seeded-rng.js';
import type { CaseDraft, CaseFamily, CorpusLang } from './detector-corpus-text.js';
import { KNOWN_PERSONS, PII_FAMILIES } from './detector-corpus-pii.js';
import { SECRET_FAMILIES } from './detector-corpus-secrets.js';

export { KNOWN_PERSONS, ibanChecksumValid, luhnValid } from './detector-corpus-pii.js';
export type { CorpusLang } from './detector-corpus-text.js';

/** One labelled case of the generated corpus. */
export interface DetectorBenchCase extends CaseDraft {
  detector: 'secret' | 'pii';
  /** `aws-key-pair`, `phone-cn`, …; near-misses start with `near:`. */
  family: string;
  lang: CorpusLang;
  /** The names configured as known persons (PII cases only). */
  knownPersons?: readonly string[];
}

/** Every family, secrets first. */
export const DETECTOR_FAMILIES: readonly CaseFamily[] = [...SECRET_FAMILIES, ...PII_FAMILIES];

// Rounds 1, 4 and 7 of every 10 are Chinese: ~30 % Chinese, and any family drawn twice has both languages.
const ZH_ROUNDS = new Set([1, 4, 7]);

/**
 * `n` cases, stratified: families are shuffled once and then taken round-robin, so every family gets ⌊n/F⌋ or
 * ⌈n/F⌉ cases; the same `seed` gives the same corpus on every platform.
 * @example generateDetectorCorpus({ n: 500, seed: 1 }).filter((c) => c.lang === 'zh').length // ≈ 150
 */
export function generateDetectorCorpus(opts: { n: number; seed: number }): DetectorBenchCase[] {
  const rng = createRng(opts.seed);
  const order = [...DETECTOR_FAMILIES];
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j] as CaseFamily, order[i] as CaseFamily];
  }
  const cases: DetectorBenchCase[] = [];
  for (let i = 0; i < opts.n; i++) {
    const f = order[i % order.length] as CaseFamily;
    const lang: CorpusLang = ZH_ROUNDS.has(Math.floor(i / order.length) % 10) ? 'zh' : 'en';
    const draft = f.make(rng, lang);
    cases.push({
      ...draft,
      detector: f.detector,
      family: f.family,
      lang,
      ...(f.detector === 'pii' ? { knownPersons: KNOWN_PERSONS } : {}),
    });
  }
  return cases;
}
