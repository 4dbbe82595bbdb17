/** `tidepool bench detectors`: the secret and PII detectors over the generated held-out corpus, by language, kind and family. */
import { measureDetector } from '../script/detector-metrics.js';
import { findPii } from '../script/pii-scan.js';
import { findSecrets } from '../script/secret-scan.js';
import { generateDetectorCorpus, type DetectorBenchCase } from './detector-corpus.js';

/** Recall and false positives of one group of cases. */
export interface DetectorRates {
  cases: number;
  /** Expected kind occurrences (a text can hold several). */
  expected: number;
  /** Found with the expected kind (multiset match, as `measureDetector` counts). */
  recall: number;
  /** Found under any kind: some finding overlaps the value, so refusing or redacting still happens. */
  caught: number;
  /** The whole value lies inside findings: nothing of it survives redaction. */
  covered: number;
  negatives: number;
  /** Near-miss texts with any finding / near-miss texts. */
  falsePositiveRate: number;
}

/** One detector's results. */
export interface DetectorSection {
  overall: DetectorRates;
  byLang: Record<'en' | 'zh', DetectorRates>;
  byKind: (DetectorRates & { kind: string })[];
  byFamily: (DetectorRates & { family: string; en: DetectorRates; zh: DetectorRates })[];
  /** Expected values no finding touched, `family [lang] kind: …context…`. */
  misses: string[];
  /** Values found, but under another kind. */
  wrongKind: string[];
  /** Values touched but not wholly inside findings: redaction would leave part of them. */
  partial: string[];
  falsePositives: string[];
}

/** The whole report; `examples` caps each example list. */
export interface DetectorBenchReport {
  n: number;
  seed: number;
  secrets: DetectorSection;
  pii: DetectorSection;
}

interface Span {
  kind: string;
  start: number;
  end: number;
}

/**
 * Generates `n` cases from `seed`, runs `findSecrets` on the secret cases and `findPii` (with the configured
 * names) on the PII cases, and measures each group.
 * @example renderDetectorBenchMarkdown(runDetectorBench({ n: 2000, seed: 1 }))
 */
export function runDetectorBench(opts: { n: number; seed: number; examples?: number }): DetectorBenchReport {
  const corpus = generateDetectorCorpus(opts);
  const examples = opts.examples ?? 8;
  const secrets = measureSection(
    corpus.filter((c) => c.detector === 'secret'),
    (c) => findSecrets(c.text),
    examples,
  );
  const pii = measureSection(
    corpus.filter((c) => c.detector === 'pii'),
    (c) => findPii(c.text, { knownPersons: c.knownPersons ?? [] }),
    examples,
  );
  return { n: opts.n, seed: opts.seed, secrets, pii };
}

function measureSection(
  cases: readonly DetectorBenchCase[],
  detect: (c: DetectorBenchCase) => readonly Span[],
  examples: number,
): DetectorSection {
  const found = new Map<DetectorBenchCase, readonly Span[]>(cases.map((c) => [c, detect(c)]));
  // measureDetector sees only text; every case of one detector shares its options, so text alone is a safe key.
  const byText = new Map<string, string[]>(cases.map((c) => [c.text, (found.get(c) ?? []).map((f) => f.kind)]));
  // Per expected value: touched by any finding (caught) and wholly inside findings (covered), computed once.
  const outcomes = new Map(
    cases.map((c) => {
      const spans = found.get(c) ?? [];
      return [c, c.expect.map((kind, i) => {
        const s = locate(c.text, c.values[i] ?? '');
        return { kind, caught: spans.some((f) => f.start < s.end && f.end > s.start), covered: isCovered(spans, s) };
      })];
    }),
  );
  const rates = (group: readonly DetectorBenchCase[], kind?: string): DetectorRates => {
    const scoped = kind === undefined ? group : group.map((c) => ({ ...c, expect: c.expect.filter((k) => k === kind) }));
    const m = measureDetector(scoped, (t) => byText.get(t) ?? []);
    const values = group.flatMap((c) => outcomes.get(c) ?? []).filter((o) => kind === undefined || o.kind === kind);
    const share = (n: number) => (values.length === 0 ? 1 : n / values.length);
    return {
      cases: group.length,
      expected: values.length,
      recall: m.recall,
      caught: share(values.filter((o) => o.caught).length),
      covered: share(values.filter((o) => o.covered).length),
      negatives: group.filter((c) => c.expect.length === 0).length,
      falsePositiveRate: m.falsePositiveRate,
    };
  };

  const lang = (l: 'en' | 'zh') => cases.filter((c) => c.lang === l);
  const kinds = [...new Set(cases.flatMap((c) => c.expect))].sort();
  const families = [...new Set(cases.map((c) => c.family))].sort();
  return {
    overall: rates(cases),
    byLang: { en: rates(lang('en')), zh: rates(lang('zh')) },
    byKind: kinds.map((kind) => ({ kind, ...rates(cases.filter((c) => c.expect.includes(kind)), kind) })),
    byFamily: families.map((family) => {
      const group = cases.filter((c) => c.family === family);
      return {
        family,
        ...rates(group),
        en: rates(group.filter((c) => c.lang === 'en')),
        zh: rates(group.filter((c) => c.lang === 'zh')),
      };
    }),
    ...collectExamples(cases, found, examples),
  };
}

/** Where the labelled value sits; the generator guarantees it occurs (the test checks it). */
function locate(text: string, value: string): { start: number; end: number } {
  const start = text.indexOf(value);
  return start < 0 || value === '' ? { start: 0, end: 0 } : { start, end: start + value.length };
}

function isCovered(spans: readonly Span[], s: { start: number; end: number }): boolean {
  let at = s.start;
  for (const f of [...spans].sort((a, b) => a.start - b.start)) {
    if (f.start > at) break;
    at = Math.max(at, f.end);
    if (at >= s.end) return true;
  }
  return at >= s.end;
}

function collectExamples(
  cases: readonly DetectorBenchCase[],
  found: ReadonlyMap<DetectorBenchCase, readonly Span[]>,
  limit: number,
): Pick<DetectorSection, 'misses' | 'wrongKind' | 'partial' | 'falsePositives'> {
  const misses: string[] = [];
  const wrongKind: string[] = [];
  const partial: string[] = [];
  const falsePositives: string[] = [];
  for (const c of cases) {
    const spans = found.get(c) ?? [];
    const tag = `${c.family} [${c.lang}]`;
    if (c.expect.length === 0) {
      if (spans.length > 0 && falsePositives.length < limit) {
        const f = spans[0] as Span;
        falsePositives.push(`${tag} ${[...new Set(spans.map((x) => x.kind))].join(', ')}: ${around(c.text, f)}`);
      }
      continue;
    }
    c.expect.forEach((kind, i) => {
      const s = locate(c.text, c.values[i] ?? '');
      const hits = spans.filter((f) => f.start < s.end && f.end > s.start);
      if (hits.length === 0) {
        if (misses.length < limit) misses.push(`${tag} ${kind}: ${around(c.text, s)}`);
      } else if (!spans.some((f) => f.kind === kind)) {
        if (wrongKind.length < limit) wrongKind.push(`${tag} ${kind} found as ${hits.map((h) => h.kind).join(', ')}: ${around(c.text, s)}`);
      } else if (!isCovered(spans, s) && partial.length < limit) {
        partial.push(`${tag} ${kind}, found ${hits.map((h) => `"${c.text.slice(h.start, h.end)}"`).join(', ')}: ${around(c.text, s)}`);
      }
    });
  }
  return { misses, wrongKind, partial, falsePositives };
}

const WINDOW = 50;

/** The text around a span, flattened to one line, the span in ⟦⟧. */
function around(text: string, s: { start: number; end: number }): string {
  const flat = (t: string) => t.replace(/\s+/g, ' ');
  const value = text.slice(s.start, s.end);
  const shown = value.length > 70 ? `${value.slice(0, 40)}…${value.slice(-12)}` : value;
  const before = text.slice(Math.max(0, s.start - WINDOW), s.start);
  const after = text.slice(s.end, s.end + WINDOW);
  return `${s.start > WINDOW ? '…' : ''}${flat(before)}⟦${flat(shown)}⟧${flat(after)}${s.end + WINDOW < text.length ? '…' : ''}`;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

function rateCells(r: DetectorRates): string {
  return `${r.cases} | ${r.expected} | ${r.expected ? pct(r.recall) : '–'} | ${r.expected ? pct(r.caught) : '–'} | ${r.expected ? pct(r.covered) : '–'} | ${r.negatives} | ${r.negatives ? pct(r.falsePositiveRate) : '–'}`;
}

const RATE_HEAD = 'cases | values | recall (kind) | caught (any kind) | fully covered | near-misses | false positives';

function renderSection(title: string, s: DetectorSection): string[] {
  const out = [`## ${title}`, '', `| group | ${RATE_HEAD} |`, '|---|---:|---:|---:|---:|---:|---:|---:|'];
  out.push(`| **all** | ${rateCells(s.overall)} |`, `| English | ${rateCells(s.byLang.en)} |`, `| Chinese | ${rateCells(s.byLang.zh)} |`, '');
  out.push(`| kind | values | recall (kind) | caught (any kind) | fully covered |`, '|---|---:|---:|---:|---:|');
  for (const k of s.byKind) out.push(`| ${k.kind} | ${k.expected} | ${pct(k.recall)} | ${pct(k.caught)} | ${pct(k.covered)} |`);
  out.push('', '| family | cases | measure | all | en | zh |', '|---|---:|---|---:|---:|---:|');
  for (const f of s.byFamily) {
    const near = f.expected === 0;
    const pick = (r: DetectorRates) => (r.cases === 0 ? '–' : pct(near ? r.falsePositiveRate : r.recall));
    out.push(`| ${f.family} | ${f.cases} | ${near ? 'false positives' : 'recall'} | ${pick(f)} | ${pick(f.en)} | ${pick(f.zh)} |`);
  }
  const list = (head: string, items: string[]) => (items.length ? ['', `${head}:`, '', ...items.map((i) => `- ${i.replace(/\|/g, '\\|')}`)] : []);
  out.push(
    ...list('Missed (no finding touches the value)', s.misses),
    ...list('Found under another kind', s.wrongKind),
    ...list('Partly covered (redaction leaves the rest)', s.partial),
    ...list('False positives', s.falsePositives),
    '',
  );
  return out;
}

/** The report as Markdown: overall, per language, per kind and per family tables for each detector, then examples. */
export function renderDetectorBenchMarkdown(r: DetectorBenchReport): string {
  return [
    `# Detectors on a held-out generated corpus (n = ${r.n}, seed ${r.seed})`,
    '',
    'Recall (kind) counts a value found only with its expected kind; caught counts any finding overlapping it (what',
    'refusal needs); fully covered means redaction leaves none of it. False positives: near-miss texts with any finding.',
    '',
    ...renderSection('Secrets (`findSecrets`)', r.secrets),
    ...renderSection('Personal data (`findPii`, known persons from config)', r.pii),
  ].join('\n');
}
