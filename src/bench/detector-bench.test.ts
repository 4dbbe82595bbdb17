// Tests of the held-out detector corpus (determinism, coverage, labels) and of the report's arithmetic.
import { describe, expect, it } from 'vitest';
import { findPii } from '../script/pii-scan.js';
import { findSecrets } from '../script/secret-scan.js';
import { renderDetectorBenchMarkdown, runDetectorBench } from './detector-bench.js';
import { DETECTOR_FAMILIES, generateDetectorCorpus, ibanChecksumValid, luhnValid, type DetectorBenchCase } from './detector-corpus.js';

const N = 500;
const corpus = generateDetectorCorpus({ n: N, seed: 1 });
const ofFamily = (family: string) => corpus.filter((c) => c.family === family);

const SECRET_KINDS = [
  'openai_key', 'anthropic_key', 'aws_access_key', 'aws_secret_key', 'github_token', 'gitlab_token', 'slack_token',
  'slack_webhook', 'stripe_key', 'google_api_key', 'npm_token', 'huggingface_token', 'sendgrid_key', 'jwt',
  'private_key', 'password', 'connection_string', 'bearer_token', 'basic_auth', 'api_key',
];
const PII_KINDS = ['email', 'phone', 'iban', 'card', 'address', 'person'];

describe('generateDetectorCorpus', () => {
  it('replays the same corpus for a seed and a different one for another seed', () => {
    expect(generateDetectorCorpus({ n: N, seed: 1 })).toEqual(corpus);
    expect(generateDetectorCorpus({ n: N, seed: 2 }).map((c) => c.text)).not.toEqual(corpus.map((c) => c.text));
    expect(corpus).toHaveLength(N);
  });

  it('covers every family in English and in Chinese, about 30 % Chinese', () => {
    for (const f of DETECTOR_FAMILIES) {
      const langs = new Set(ofFamily(f.family).map((c) => c.lang));
      expect([f.family, [...langs].sort()]).toEqual([f.family, ['en', 'zh']]);
    }
    const zh = corpus.filter((c) => c.lang === 'zh').length / N;
    expect(zh).toBeGreaterThan(0.25);
    expect(zh).toBeLessThan(0.35);
  });

  it('expects every secret and PII kind in both languages, and has near-misses for both detectors', () => {
    for (const [detector, kinds] of [['secret', SECRET_KINDS], ['pii', PII_KINDS]] as const) {
      for (const lang of ['en', 'zh'] as const) {
        const seen = new Set(corpus.filter((c) => c.detector === detector && c.lang === lang).flatMap((c) => c.expect));
        expect([detector, lang, [...seen].sort()]).toEqual([detector, lang, [...kinds].sort()]);
      }
      expect(corpus.filter((c) => c.detector === detector && c.expect.length === 0).length).toBeGreaterThan(50);
    }
  });

  it('labels each expected kind with a value that occurs in the text, and near-misses with none', () => {
    for (const c of corpus) {
      expect(c.values).toHaveLength(c.expect.length);
      for (const v of c.values) expect(c.text.includes(v) && v.length > 0).toBe(true);
      expect(c.family.startsWith('near:')).toBe(c.expect.length === 0);
    }
  });

  it('computes IBAN check digits and Luhn digits right (checked against published examples)', () => {
    expect(ibanChecksumValid('DE89 3704 0044 0532 0130 00')).toBe(true); // the ECBS example IBAN
    expect(ibanChecksumValid('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(ibanChecksumValid('GB83 WEST 1234 5698 7654 32')).toBe(false);
    expect(luhnValid('4111 1111 1111 1111')).toBe(true); // Visa test number
    expect(luhnValid('3782 822463 10005')).toBe(true); // Amex test number
    expect(luhnValid('4111 1111 1111 1112')).toBe(false);
  });

  it('generates valid IBANs and cards for positives and invalid ones for the near-misses', () => {
    const ibanIn = (text: string) => /[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4}){3,8}/.exec(text)?.[0] ?? '';
    for (const c of ofFamily('iban')) expect(ibanChecksumValid(c.values[0] ?? '')).toBe(true);
    for (const c of ofFamily('near:iban-invalid')) {
      const iban = ibanIn(c.text);
      expect(iban.replace(/\s/g, '').length).toBeGreaterThanOrEqual(15);
      expect(ibanChecksumValid(iban)).toBe(false);
    }
    for (const c of corpus.filter((x) => x.family.startsWith('card-'))) expect(luhnValid(c.values[0] ?? '')).toBe(true);
    for (const c of ofFamily('card-amex')) expect((c.values[0] ?? '').replace(/\D/g, '')).toMatch(/^3[47]\d{13}$/);
    for (const c of ofFamily('card-mastercard')) expect((c.values[0] ?? '').replace(/\D/g, '')).toMatch(/^(5[1-5]|2[2-7])\d{14}$/);
    for (const c of ofFamily('near:luhn-invalid')) {
      const digits = /\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}/.exec(c.text)?.[0] ?? '';
      expect(digits.replace(/\D/g, '')).toHaveLength(16);
      expect(luhnValid(digits)).toBe(false);
    }
  });

  it('follows the documented token formats', () => {
    const values = (family: string) => ofFamily(family).map((c) => c.values[0] ?? '');
    for (const v of values('aws-key-id')) expect(v).toMatch(/^(AKIA|ASIA)[A-Z0-9]{16}$/);
    for (const c of ofFamily('aws-key-pair')) expect(c.values[1]).toMatch(/^[A-Za-z0-9/+]{40}$/);
    for (const v of values('github-classic')) expect(v).toMatch(/^gh[pousr]_[A-Za-z0-9]{36}$/);
    for (const v of values('github-fine-grained')) expect(v).toMatch(/^github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}$/);
    for (const v of values('openai-legacy')) expect(v).toMatch(/^sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}$/);
    for (const v of values('anthropic')) expect(v).toMatch(/^sk-ant-(api03|admin01)-[\w-]{93}AA$/);
    for (const v of values('jwt')) {
      const [header, claims] = v.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>);
      expect(header?.['typ']).toBe('JWT');
      expect(typeof claims?.['exp']).toBe('number');
    }
  });
});

describe('runDetectorBench', () => {
  const report = runDetectorBench({ n: N, seed: 1 });

  /** Recall and false-positive rate recomputed here straight from the detectors, to check the report's arithmetic. */
  function recompute(cases: DetectorBenchCase[], detect: (c: DetectorBenchCase) => string[]) {
    let expected = 0;
    let found = 0;
    let flagged = 0;
    const negatives = cases.filter((c) => c.expect.length === 0);
    for (const c of cases) {
      const got = detect(c);
      if (c.expect.length === 0) flagged += Number(got.length > 0);
      for (const k of new Set(c.expect)) {
        const want = c.expect.filter((x) => x === k).length;
        expected += want;
        found += Math.min(want, got.filter((x) => x === k).length);
      }
    }
    return { recall: found / expected, fp: flagged / negatives.length };
  }

  it('reports the recall and false-positive rate the detectors give on the corpus', () => {
    const secrets = recompute(corpus.filter((c) => c.detector === 'secret'), (c) => findSecrets(c.text).map((f) => f.kind));
    const pii = recompute(corpus.filter((c) => c.detector === 'pii'), (c) => findPii(c.text, { knownPersons: c.knownPersons ?? [] }).map((f) => f.kind));
    expect(report.secrets.overall.recall).toBeCloseTo(secrets.recall, 10);
    expect(report.secrets.overall.falsePositiveRate).toBeCloseTo(secrets.fp, 10);
    expect(report.pii.overall.recall).toBeCloseTo(pii.recall, 10);
    expect(report.pii.overall.falsePositiveRate).toBeCloseTo(pii.fp, 10);
  });

  it('splits the cases exactly by language, family and kind', () => {
    for (const s of [report.secrets, report.pii]) {
      expect(s.byLang.en.cases + s.byLang.zh.cases).toBe(s.overall.cases);
      expect(s.byFamily.reduce((n, f) => n + f.cases, 0)).toBe(s.overall.cases);
      expect(s.byKind.reduce((n, k) => n + k.expected, 0)).toBe(s.overall.expected);
      for (const f of s.byFamily) expect(f.en.cases + f.zh.cases).toBe(f.cases);
      for (const r of [s.overall, ...s.byFamily, ...s.byKind]) {
        expect(r.covered).toBeLessThanOrEqual(r.caught);
        for (const x of [r.recall, r.caught, r.covered, r.falsePositiveRate]) expect(x >= 0 && x <= 1).toBe(true);
      }
    }
    expect(report.secrets.overall.cases + report.pii.overall.cases).toBe(N);
    expect(report.secrets.byKind.map((k) => k.kind)).toEqual([...SECRET_KINDS].sort());
  });

  it('stays above the measured floor (a regression guard, not a claim of perfection)', () => {
    // Each floor is the figure measured here (n=500, seed 1) when this test was written, minus a margin:
    // measured recall, caught and per-kind recall were 100 % for both detectors (99.2 % secret recall at n=3000) and
    // no near-miss was flagged. Margins: 3 points overall, 5 per language, one missed value in seven per kind
    // (~7 per kind here, so losing a whole format fails), one flagged text in seven per near-miss family.
    for (const s of [report.secrets, report.pii]) {
      expect(s.overall.recall).toBeGreaterThanOrEqual(0.97);
      expect(s.overall.caught).toBeGreaterThanOrEqual(0.97);
      expect(s.overall.falsePositiveRate).toBeLessThanOrEqual(0.02);
      for (const lang of ['en', 'zh'] as const) expect(s.byLang[lang].recall).toBeGreaterThanOrEqual(0.95);
      for (const k of s.byKind) expect([k.kind, k.recall >= 0.85]).toEqual([k.kind, true]);
      for (const f of s.byFamily.filter((x) => x.expected === 0)) expect([f.family, f.falsePositiveRate <= 0.15]).toEqual([f.family, true]);
    }
  });

  it('renders Markdown tables with examples', () => {
    const md = renderDetectorBenchMarkdown(report);
    expect(md).toContain('n = 500, seed 1');
    expect(md).toContain('| **all** |');
    expect(md).toContain('| near:git-sha |');
    expect(md).toContain('## Personal data');
  });
});
