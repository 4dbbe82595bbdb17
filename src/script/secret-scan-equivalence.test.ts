// The prefiltered credential detector finds exactly what its 7b39ffc original found, on a large and varied corpus: a
// literal hint that is not a necessary condition of its rule would silently stop detecting a credential.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { generateDetectorCorpus } from '../bench/detector-corpus.js';
import { syntheticEpisodes } from '../bench/scale/synthetic-episodes.js';
import { GITLEAKS_RULES } from './gitleaks-rules.js';
import { findRuleSecrets as findRuleSecretsBefore } from './gitleaks-scan-reference.test-helper.js';
import { findRuleSecrets, toJsRegex } from './gitleaks-scan.js';
import { findSecrets as findSecretsBefore } from './secret-scan-reference.test-helper.js';
import { findSecrets, type SecretKind } from './secret-scan.js';
import { createRng, type SeededRandom } from './seeded-rng.js';

const ROOT = new URL('../../', import.meta.url);

/** Every string literal of a source file, template literals with `x` in their holes (`ghp_${fake(36)}` → `ghp_x`). */
function stringsOf(path: string): string[] {
  const file = ts.createSourceFile(path, readFileSync(new URL(path, ROOT), 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
    else if (ts.isTemplateExpression(node)) out.push(node.head.text + node.templateSpans.map((s) => `x${s.literal.text}`).join(''));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

const jsonlTexts = (path: string): string[] =>
  readFileSync(new URL(path, ROOT), 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { text: string }).text);

type RandExpCtor = new (re: RegExp) => { max: number; randInt: (a: number, b: number) => number; gen(): string };

/** Examples of each gitleaks rule generated from its own regex, as `bench detectors --rules` makes them. */
async function gitleaksExamples(rng: SeededRandom, perRule: number): Promise<string[]> {
  const mod = (await import('randexp')) as unknown as { default: RandExpCtor & { default?: RandExpCtor } };
  const RandExp = mod.default.default ?? mod.default;
  const out: string[] = [];
  for (const rule of GITLEAKS_RULES.rules) {
    const { source, flags } = toJsRegex(rule.regex);
    let gen: InstanceType<RandExpCtor>;
    try {
      gen = new RandExp(new RegExp(source, flags));
    } catch {
      continue; // a rule JavaScript cannot compile is skipped by the scan too
    }
    gen.max = 12;
    gen.randInt = (a, b) => a + rng.int(b - a + 1);
    for (let i = 0; i < perRule; i++) out.push(gen.gen());
  }
  return out;
}

// Characters that test the hints' assumptions: case folding beyond ASCII (Kelvin sign, dotless i, long s, dotted I,
// final sigma), full-width colon, the Chinese keywords, surrogate pairs, combining marks, and every delimiter.
const ODD = ['\u212A', 'ı', 'ſ', 'İ', 'Σ', 'ς', '：', '密码', '口令', '密钥', '秘钥', '令牌', '是', '😀', '\u0301', '\u00A0', '\t', '\n'];
const PUNCT = [...'-_.:=/@#?&"\'`,;()[]{}<>+*!$%~|\\'];
const WORDS = ['key', 'token', 'secret', 'password', 'pass', 'pwd', 'auth', 'Bearer', 'bearer', 'Authorization', 'Basic', 'mysql', 'api', 'ey', 'sk', 's.', 'the', 'DB_PASSWORD', 'api_key', 'x-api-key', 'export', 'https://', '-----BEGIN ', '[secret:', 'AA', 'AKIA', 'ghp', 'xox', 'SG', 'eyJ', 'hooks.slack.com'];
const SEPARATORS = ['', ' ', '\n', '=', ': ', '_', '-', '.', '"', '：', '/', '@'];

function randomChar(rng: SeededRandom): string {
  const r = rng.int(4);
  if (r === 0) return rng.pick(ODD);
  if (r === 1) return rng.pick(PUNCT);
  return String.fromCharCode(rng.pick([48, 65, 97]) + rng.int(r === 2 ? 10 : 26));
}

function flipCase(s: string, rng: SeededRandom): string {
  const mode = rng.int(4);
  if (mode === 0) return s.toUpperCase();
  if (mode === 1) return s.toLowerCase();
  return [...s].map((c) => (rng.chance(mode === 2 ? 0.5 : 0.1) ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
}

/** One random edit: a slice, a case change, glued words, a second positive, a character edit or prose around it. */
function mutate(s: string, rng: SeededRandom, positives: readonly string[], prose: readonly string[]): string {
  const at = rng.int(s.length + 1);
  switch (rng.int(8)) {
    case 0: {
      const end = rng.between(at, s.length);
      return s.slice(rng.chance(0.5) ? 0 : at, end);
    }
    case 1: {
      const end = rng.between(at, s.length);
      return s.slice(0, at) + flipCase(s.slice(at, end), rng) + s.slice(end);
    }
    case 2:
      return rng.pick(WORDS) + rng.pick(SEPARATORS) + s + rng.pick(SEPARATORS) + rng.pick(WORDS);
    case 3:
      return s + rng.pick(SEPARATORS) + rng.pick(positives);
    case 4:
      return s.slice(0, at) + randomChar(rng) + s.slice(at + rng.int(2));
    case 5:
      return s.slice(0, at) + s.slice(at + rng.between(1, 4));
    case 6:
      return `${rng.pick(prose)} ${s.slice(0, at)}${rng.pick(WORDS)}${s.slice(at)} ${rng.pick(prose)}`;
    default:
      return s.slice(0, at) + rng.pick(ODD) + rng.pick(WORDS) + rng.pick(PUNCT) + s.slice(at);
  }
}

/**
 * Texts built from the alternatives of the hand-written rules that the prefilters gate on (every assignment keyword
 * and operator, every prose password verb, `[Bb]earer`, `Authorization: Basic`, every mysql tool), each in several
 * cases, so a hint missing one alternative or one case shows.
 */
function grammarTexts(rng: SeededRandom): string[] {
  const token = () => Array.from({ length: rng.between(12, 40) }, () => rng.pick([...'ABCDEFGHJKabcdefhjkmnpqrstuvwxyz0123456789'])).join('');
  const password = () => `${rng.pick(['Winter', 'Dragon', 'Tr0ub4dor', 'hunter', 'Xk9'])}${rng.between(10, 9999)}${rng.pick(['!', '$', '&3', '#', ''])}`;
  const cased = (w: string) => [w, w.toUpperCase(), w[0]!.toUpperCase() + w.slice(1), flipCase(w, rng)];
  const out: string[] = [];
  const keywords = ['password', 'passwd', 'passwort', 'passphrase', 'kennwort', 'pwd', 'pass', 'pw', '密码', '口令', '密钥', '秘钥', '令牌', 'secret', 'token', 'api_key', 'api-key', 'apikey', 'key', 'credential', 'credentials', 'auth'];
  for (const k of keywords) {
    for (const word of cased(k)) {
      for (const op of ['=>', ':=', '=', ':', '：']) {
        const name = rng.pick(['', 'DB_', 'db_', 'my', 'client', 'x-', 'AWS_SECRET_ACCESS_']) + word;
        const value = rng.chance(0.5) ? token() : password();
        const quote = rng.pick(['', '"', "'"]);
        out.push(`${name}${rng.pick(['', '"', "'"])}${rng.pick(['', ' '])}${op}${rng.pick(['', ' '])}${quote}${value}${quote}${rng.pick(['', '\n', ',', ' and more'])}`);
        out.push(`${rng.pick(['?', '&', 'https://x.io/a?'])}${name}${op}${value}&page=2`);
      }
    }
  }
  for (const k of ['password', 'passphrase', 'passcode', 'passwd']) {
    for (const word of cased(k)) {
      for (const verb of ['is now', 'is', 'was', 'to']) {
        const lead = verb === 'to' ? rng.pick(['I changed the wifi ', 'please reset the ', 'send the ']) : rng.pick(['the wifi ', 'My ', '']);
        out.push(`${lead}${word} ${verb} ${rng.pick(['', '"', "'", '“'])}${password()}${rng.pick(['', '.', '!', ','])}`);
      }
    }
  }
  for (const k of ['密码', '口令']) {
    for (const verb of ['是', '为', '改成', '改成了', '改为', '设为', '设置为', '设成', '设成了']) out.push(`路由器后台${k}${rng.pick(['', ' '])}${verb}${password()}，别告诉别人`);
  }
  for (const b of ['Bearer', 'bearer', 'BEARER', 'bEarer']) out.push(`Authorization: ${b} ${token()}${token()}`, `${b}\t${token()}.${token()}`);
  for (const a of cased('authorization')) {
    for (const basic of cased('basic')) out.push(`${a}${rng.pick(['', '"', "'"])}${rng.pick(['', ' '])}${rng.pick([':', '='])} ${basic} ${token()}==`);
  }
  for (const tool of ['mysql', 'mysqldump', 'mysqladmin', 'mysqlimport', 'mysqlsh', 'mysqlslap', 'mysqlcheck', 'MySQL', 'MYSQL']) {
    out.push(`${tool} -u root -p${password()} -h db`, `${tool} -u root -p'${password()}' shop`, `${tool} -u root -p"${password()}"`);
  }
  for (const url of ['postgres', 'mysql', 'redis', 'https', 'amqp', 'mongodb+srv']) out.push(`${url}://app:${password()}@db.internal:5432/app`);
  return out;
}

async function corpus(): Promise<{ texts: string[]; sources: Record<string, number> }> {
  const rng = createRng(20_261_202);
  const sources: Record<string, number> = {};
  const texts: string[] = [];
  const add = (name: string, xs: readonly string[]) => {
    sources[name] = xs.length;
    texts.push(...xs);
  };
  const literals = [
    'src/script/secret-scan.test.ts',
    'src/script/pii-scan.test.ts',
    'src/bench/detector-bench.test.ts',
    'src/bench/detector-corpus-secrets.ts',
    'src/bench/detector-corpus-pii.ts',
    'src/bench/detector-corpus-text.ts',
    'src/bench/rule-set-bench.ts',
    'test/secret-fields.test.ts',
    'test/write-path.test.ts',
    'src/script/gitleaks-rules.ts',
  ].flatMap(stringsOf);
  add('string literals of the detector tests, corpora and rules', literals);
  const fixtures = [...jsonlTexts('test/fixtures/secrets-corpus.jsonl'), ...jsonlTexts('test/fixtures/pii-corpus.jsonl')];
  add('fixtures', fixtures);
  const generated = [1, 2, 3].flatMap((seed) => generateDetectorCorpus({ n: 3000, seed })).map((c) => c.text);
  add('generated detector corpus', generated);
  const rawRules = await gitleaksExamples(rng, 8);
  const ruleSentences = rawRules.map((raw, i) =>
    [`here is what I used: ${raw}`, `config:\n${raw}\n`, `部署时用的是 ${raw} ，别外传`, `export VALUE=1 # then\n${raw}`][i % 4]!,
  );
  add('gitleaks rule examples, raw and in sentences', [...rawRules, ...ruleSentences]);
  const stream = syntheticEpisodes({ seed: 1 });
  const turns: string[] = [];
  const labels = new Set<string>();
  for (let i = 0; i < 6000; i++) {
    const e = stream.next().value;
    turns.push(e.text);
    for (const l of [e.speaker, e.sessionId, e.id, e.role]) labels.add(l);
  }
  add('synthetic turns', turns);
  add('synthetic labels', [...labels]);
  const grammar = grammarTexts(rng);
  add('hand rules\' alternatives in several cases', grammar);

  const positives = [...fixtures, ...generated, ...rawRules, ...ruleSentences, ...grammar].filter((t) => findSecretsBefore(t).length > 0);
  const seeds = [...positives, ...literals.filter((l) => l.length >= 8)];
  const mutants: string[] = [];
  for (let i = 0; i < 40_000; i++) {
    let s = rng.pick(seeds);
    for (let edits = rng.between(1, 3); edits > 0; edits--) s = mutate(s, rng, positives, turns);
    mutants.push(s.slice(0, 4000));
  }
  add('seeded mutations of positives', mutants);
  return { texts, sources };
}

describe('findSecrets with its prefilters', () => {
  it('finds exactly what the original finds, and gitleaks rules report exactly what they reported', async () => {
    const { texts, sources } = await corpus();
    const mismatches: string[] = [];
    const kinds = new Map<SecretKind, number>();
    const rules = new Set<string>();
    let withFindings = 0;
    for (const text of texts) {
      const before = findSecretsBefore(text);
      const after = findSecrets(text);
      if (JSON.stringify(after) !== JSON.stringify(before)) mismatches.push(`findSecrets ${JSON.stringify(text)}`);
      const rulesBefore = findRuleSecretsBefore(text);
      if (JSON.stringify(findRuleSecrets(text)) !== JSON.stringify(rulesBefore)) mismatches.push(`findRuleSecrets ${JSON.stringify(text)}`);
      if (before.length > 0) withFindings++;
      for (const f of before) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
      for (const f of rulesBefore) rules.add(f.rule);
    }
    console.log(
      `equivalence corpus: ${texts.length} texts (${JSON.stringify(sources)}), ${withFindings} with findings, ` +
        `${kinds.size} kinds, ${rules.size} gitleaks rules firing`,
    );
    expect(mismatches.slice(0, 5)).toEqual([]);
    // The corpus reaches every kind, most gitleaks rules and many positives, so each prefilter was put to the test.
    expect(kinds.size).toBe(25);
    expect(rules.size).toBeGreaterThanOrEqual(150);
    expect(withFindings).toBeGreaterThan(20_000);
  });
});
