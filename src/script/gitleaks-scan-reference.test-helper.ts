/** Test helper: the gitleaks rule runner as it was at 7b39ffc, before its keyword index; the equivalence test compares against it. */
import { GITLEAKS_RULES, type GitleaksRule } from './gitleaks-rules.js';

/** One match of a gitleaks rule: `text.slice(start, end)` is the secret (its capture group, else the whole match). */
export interface RuleFinding {
  rule: string;
  start: number;
  end: number;
}

interface Compiled {
  id: string;
  re: RegExp;
  keywords: string[];
  entropy: number | undefined;
  secretGroup: number | undefined;
  allow: Array<{ regexes: RegExp[]; target: string; stopwords: string[]; and: boolean }>;
}

/**
 * Translates a Go RE2 pattern to a JavaScript one. Inline case-insensitivity (`(?i)`, `(?i:…)`) becomes the `i` flag
 * of the whole pattern (Node 20 has no inline modifiers), so a rule can only match more, never less; `(?-i:…)` is
 * kept as a plain group under that flag; `\z` is the end of input; `(?P<n>` is `(?<n>`; `(?s:` sets the `s` flag.
 * @example toJsRegex('(?i)\\b(sk_live_[a-z0-9]{24})\\z') // { source: '\\b(sk_live_[a-z0-9]{24})$', flags: 'i' }
 */
export function toJsRegex(go: string): { source: string; flags: string } {
  let flags = '';
  let s = go;
  if (/\(\?i\)|\(\?i:/.test(s)) flags += 'i';
  if (/\(\?s:|\(\?s\)/.test(s)) flags += 's';
  s = s.replace(/\(\?i\)|\(\?s\)/g, '').replace(/\(\?(?:-i|i|s):/g, '(?:').replace(/\(\?P</g, '(?<').replace(/\\z/g, '$').replace(/\\A/g, '^');
  return { source: s, flags };
}

function compile(r: GitleaksRule): Compiled | undefined {
  const { source, flags } = toJsRegex(r.regex);
  let re: RegExp;
  try {
    re = new RegExp(source, `${flags}gd`);
  } catch {
    // A construct JavaScript lacks: the rule is left out (GITLEAKS_SKIPPED lists it).
    return undefined;
  }
  const allow = (r.allowlists ?? []).map((a) => ({
    regexes: (a.regexes ?? []).flatMap((x) => {
      const t = toJsRegex(x);
      try {
        return [new RegExp(t.source, t.flags)];
      } catch {
        return [];
      }
    }),
    target: a.regexTarget ?? 'secret',
    stopwords: (a.stopwords ?? []).map((w) => w.toLowerCase()),
    and: a.condition === 'AND',
  }));
  return { id: r.id, re, keywords: (r.keywords ?? []).map((k) => k.toLowerCase()), entropy: r.entropy, secretGroup: r.secretGroup, allow };
}

let compiled: { rules: Compiled[]; skipped: string[]; keywordRe: RegExp; globalRegexes: RegExp[]; globalStopwords: string[] } | undefined;

function rules() {
  if (compiled) return compiled;
  const out: Compiled[] = [];
  const skipped: string[] = [];
  for (const r of GITLEAKS_RULES.rules) {
    const c = compile(r);
    if (c) out.push(c);
    else skipped.push(r.id);
  }
  const words = [...new Set(out.flatMap((r) => r.keywords))].sort((a, b) => b.length - a.length);
  const keywordRe = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  const globalRegexes = GITLEAKS_RULES.allowlist.regexes.flatMap((x) => {
    const t = toJsRegex(x);
    try {
      return [new RegExp(t.source, t.flags)];
    } catch {
      return [];
    }
  });
  compiled = { rules: out, skipped, keywordRe, globalRegexes, globalStopwords: GITLEAKS_RULES.allowlist.stopwords.map((w) => w.toLowerCase()) };
  return compiled;
}

/** Ids of the gitleaks rules whose regex JavaScript cannot compile (left out of the scan). */
export function gitleaksSkipped(): readonly string[] {
  return rules().skipped;
}

/** Number of gitleaks rules in the scan. */
export function gitleaksRuleCount(): number {
  return rules().rules.length;
}

/** Shannon entropy in bits per character, as gitleaks computes it. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function lineAround(text: string, start: number, end: number): string {
  const a = text.lastIndexOf('\n', start - 1) + 1;
  const b = text.indexOf('\n', end);
  return text.slice(a, b === -1 ? text.length : b);
}

function allowed(c: Compiled, secret: string, match: string, line: string): boolean {
  const lower = secret.toLowerCase();
  for (const a of c.allow) {
    const target = a.target === 'match' ? match : a.target === 'line' ? line : secret;
    const byRegex = a.regexes.length > 0 ? a.regexes.some((r) => r.test(target)) : undefined;
    const byWord = a.stopwords.length > 0 ? a.stopwords.some((w) => lower.includes(w)) : undefined;
    const checks = [byRegex, byWord].filter((x): x is boolean => x !== undefined);
    if (checks.length > 0 && (a.and ? checks.every(Boolean) : checks.some(Boolean))) return true;
  }
  return false;
}

/**
 * Every gitleaks finding in `text`, in rule order (overlaps are left to the caller).
 * @example findRuleSecrets('token: xoxb-…') // [{ rule: 'slack-bot-token', start: 7, end: … }]
 */
export function findRuleSecrets(text: string): RuleFinding[] {
  const set = rules();
  const lower = text.toLowerCase();
  const present = new Set<string>();
  set.keywordRe.lastIndex = 0;
  for (const m of lower.matchAll(set.keywordRe)) present.add(m[0]);
  if (present.size === 0) return [];
  const out: RuleFinding[] = [];
  for (const c of set.rules) {
    if (c.keywords.length > 0 && !c.keywords.some((k) => present.has(k) || (k.length > 0 && lower.includes(k)))) continue;
    c.re.lastIndex = 0;
    for (const m of text.matchAll(c.re)) {
      if (m[0].length === 0) continue;
      const idx = m.indices!;
      let g = c.secretGroup ?? 0;
      if (c.secretGroup === undefined) for (let i = 1; i < m.length; i++) if (m[i]) { g = i; break; }
      const span = idx[g] ?? idx[0]!;
      const secret = text.slice(span[0], span[1]);
      if (c.entropy !== undefined && shannonEntropy(secret) < c.entropy) continue;
      if (set.globalRegexes.some((r) => r.test(secret))) continue;
      const sl = secret.toLowerCase();
      if (set.globalStopwords.some((w) => sl.includes(w))) continue;
      if (allowed(c, secret, m[0], lineAround(text, span[0], span[1]))) continue;
      out.push({ rule: c.id, start: span[0], end: span[1] });
    }
  }
  return out;
}
