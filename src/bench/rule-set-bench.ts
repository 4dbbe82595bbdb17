/**
 * `tidepool bench detectors --rules`: the secret detector on examples of a rule set it did not write. Examples are
 * generated deterministically from each gitleaks rule's own regex (randexp, seeded), kept only when gitleaks' own
 * semantics accept them (the rule matches, its secret passes the entropy floor and the allowlists), and put in a
 * sentence; plus the formats an outside attack found missing; false positives on the generated near-misses.
 */
import { findRuleSecrets, toJsRegex } from '../script/gitleaks-scan.js';
import { GITLEAKS_RULES } from '../script/gitleaks-rules.js';
import { findSecrets } from '../script/secret-scan.js';
import { generateDetectorCorpus } from './detector-corpus.js';
import { createRng, type SeededRandom } from '../script/seeded-rng.js';

/** Recall on one group of examples. */
export interface RuleSetRates {
  examples: number;
  caught: number;
  recall: number;
}

/** The report. */
export interface RuleSetBenchReport {
  seed: number;
  perRule: number;
  rules: number;
  /** Rules no accepted example could be generated for (their regex needs what randexp cannot make). */
  ungenerated: string[];
  gitleaks: RuleSetRates;
  /** Rules with at least one missed example: `id missed/examples`. */
  missedRules: string[];
  issueFormats: RuleSetRates & { byFormat: Array<{ format: string } & RuleSetRates>; misses: string[] };
  benign: { texts: number; flagged: number; falsePositiveRate: number; examples: string[] };
}

type RandExpCtor = new (re: RegExp) => { max: number; randInt: (a: number, b: number) => number; gen(): string };

const SENTENCES = [
  (s: string) => `here is what I used: ${s}`,
  (s: string) => `config:\n${s}\n`,
  (s: string) => `部署时用的是 ${s} ，别外传`,
  (s: string) => `export VALUE=1 # then\n${s}`,
];

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function rand(rng: SeededRandom, n: number, alphabet = ALNUM): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[rng.int(alphabet.length)];
  return s;
}

/** The formats the issue lists as missed, each with a value generator and the sentence it sits in. */
const ISSUE_FORMATS: Array<{ format: string; make: (rng: SeededRandom) => { text: string; value: string } }> = [
  { format: 'URL password containing #', make: (r) => { const v = `${rand(r, 4)}#${rand(r, 5)}`; return { text: `DATABASE_URL=postgres://app:${v}@db.internal:5432/app`, value: v }; } },
  { format: 'https basic-auth URL', make: (r) => { const v = rand(r, 10); return { text: `clone it with git clone https://deploy:${v}@git.corp.internal/team/app.git`, value: v }; } },
  { format: 'mysql -p<pw>', make: (r) => { const v = `${rand(r, 6)}!${rand(r, 2, '0123456789')}`; return { text: `mysql -u root -p${v} -h 10.0.3.12 shop < dump.sql`, value: v }; } },
  { format: 'Telegram bot token', make: (r) => { const v = `${rand(r, 10, '0123456789').replace(/^0/, '7')}:AA${rand(r, 33, `${ALNUM}_-`)}`; return { text: `the alert bot runs with ${v}`, value: v }; } },
  { format: 'Shopify shpat_', make: (r) => { const v = `shpat_${rand(r, 32, '0123456789abcdef')}`; return { text: `shopify admin token ${v} for the sync`, value: v }; } },
  { format: 'Discord bot token', make: (r) => { const v = `M${rand(r, 25)}.${rand(r, 6)}.${rand(r, 38, `${ALNUM}_-`)}`; return { text: `Discord bot: ${v}`, value: v }; } },
  { format: 'Mailgun key-', make: (r) => { const v = `key-${rand(r, 32, '0123456789abcdefghijklmnopqrstuvwxyz')}`; return { text: `mailgun uses ${v} for the newsletter`, value: v }; } },
];

function overlaps(text: string, value: string): boolean {
  const at = text.indexOf(value);
  return findSecrets(text).some((f) => f.start < at + value.length && f.end > at);
}

/**
 * Runs the bench; needs the devDependency randexp (a development tool, like every bench).
 * @example renderRuleSetBenchMarkdown(await runRuleSetBench({ seed: 1, perRule: 5 }))
 */
export async function runRuleSetBench(opts: { seed: number; perRule: number; examples?: number }): Promise<RuleSetBenchReport> {
  const mod = (await import('randexp')) as unknown as { default: RandExpCtor & { default?: RandExpCtor } };
  const RandExp = mod.default.default ?? mod.default;
  const rng = createRng(opts.seed);
  const cap = opts.examples ?? 10;
  const ungenerated: string[] = [];
  const missedRules: string[] = [];
  let examples = 0;
  let caught = 0;
  for (const rule of GITLEAKS_RULES.rules) {
    const { source, flags } = toJsRegex(rule.regex);
    const gen = new RandExp(new RegExp(source, flags));
    gen.max = 12;
    gen.randInt = (a, b) => a + rng.int(b - a + 1);
    let made = 0;
    let missed = 0;
    for (let tries = 0; made < opts.perRule && tries < opts.perRule * 20; tries++) {
      const raw = gen.gen();
      const text = SENTENCES[rng.int(SENTENCES.length)]!(raw);
      // Only examples gitleaks itself reports for this rule count: the value is the rule's own secret.
      const own = findRuleSecrets(text).find((f) => f.rule === rule.id);
      if (!own) continue;
      made++;
      const hit = findSecrets(text).some((f) => f.start < own.end && f.end > own.start);
      if (hit) caught++;
      else missed++;
    }
    examples += made;
    if (made === 0) ungenerated.push(rule.id);
    if (missed > 0) missedRules.push(`${rule.id} ${missed}/${made}`);
  }
  const byFormat = ISSUE_FORMATS.map(({ format, make }) => {
    let ok = 0;
    const misses: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { text, value } = make(rng);
      if (overlaps(text, value)) ok++;
      else misses.push(text);
    }
    return { format, examples: 20, caught: ok, recall: ok / 20, misses };
  });
  const issueCaught = byFormat.reduce((a, f) => a + f.caught, 0);
  const negatives = generateDetectorCorpus({ n: 3000, seed: opts.seed }).filter((c) => c.detector === 'secret' && c.expect.length === 0);
  const flagged = negatives.filter((c) => findSecrets(c.text).length > 0);
  return {
    seed: opts.seed, perRule: opts.perRule, rules: GITLEAKS_RULES.rules.length, ungenerated,
    gitleaks: { examples, caught, recall: examples ? caught / examples : 0 },
    missedRules,
    issueFormats: {
      examples: byFormat.length * 20, caught: issueCaught, recall: issueCaught / (byFormat.length * 20),
      byFormat: byFormat.map(({ misses: _m, ...f }) => f), misses: byFormat.flatMap((f) => f.misses).slice(0, cap),
    },
    benign: { texts: negatives.length, flagged: flagged.length, falsePositiveRate: negatives.length ? flagged.length / negatives.length : 0, examples: flagged.slice(0, cap).map((c) => c.text.slice(0, 160)) },
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The report as Markdown. */
export function renderRuleSetBenchMarkdown(r: RuleSetBenchReport): string {
  return [
    `# Secret detector on a rule set it did not write (gitleaks, seed ${r.seed}, ${r.perRule} examples a rule)`,
    '',
    `Examples generated from each of the ${r.rules} gitleaks text rules' own regex (randexp, seeded) and kept only when`,
    'gitleaks\' own semantics report them; the issue\'s missed formats, 20 generated values each; false positives on',
    'the near-misses of the generated held-out corpus (n = 3000).',
    '',
    '| set | examples | caught | recall |',
    '|---|---:|---:|---:|',
    `| gitleaks rules | ${r.gitleaks.examples} | ${r.gitleaks.caught} | **${pct(r.gitleaks.recall)}** |`,
    `| issue formats | ${r.issueFormats.examples} | ${r.issueFormats.caught} | **${pct(r.issueFormats.recall)}** |`,
    ...r.issueFormats.byFormat.map((f) => `| · ${f.format} | ${f.examples} | ${f.caught} | ${pct(f.recall)} |`),
    '',
    `Benign near-misses: ${r.benign.flagged} of ${r.benign.texts} flagged, **false-positive rate ${pct(r.benign.falsePositiveRate)}**.`,
    '',
    `Rules without a generated example: ${r.ungenerated.length ? r.ungenerated.join(', ') : 'none'}.`,
    `Rules with misses: ${r.missedRules.length ? r.missedRules.join(', ') : 'none'}.`,
    ...(r.issueFormats.misses.length ? ['', 'Missed issue-format examples:', ...r.issueFormats.misses.map((m) => `- \`${m}\``)] : []),
    ...(r.benign.examples.length ? ['', 'Flagged near-misses:', ...r.benign.examples.map((m) => `- \`${m}\``)] : []),
  ].join('\n');
}
