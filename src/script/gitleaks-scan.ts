/**
 * Runs the gitleaks rule set (`gitleaks-rules.ts`, data) over a text as gitleaks does: keyword prefilter, the rule's
 * regex, the secret group, the entropy floor and the rule's and the global allowlists.
 */
import { execAll } from './exec-all.js';
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

/** A keyword and the indices of the rules it enables. */
interface Keyword {
  word: string;
  rules: number[];
}

/**
 * gitleaks' keyword prefilter, run in one pass over the lowercased text: at each position, a table lookup on the next
 * three characters (two for the two-letter keywords) tells whether any keyword may start there. Every keyword is
 * found wherever it occurs, also inside a longer one (`ey` in `key`, `sk` in `task`), as `lower.includes(k)` finds it.
 */
interface KeywordIndex {
  /** Two-letter keywords by their two character codes (`pairKey`); `pairs` flags the keys in use. */
  byPair: Map<number, Keyword[]>;
  pairs: Uint8Array;
  /** Longer keywords by a hash of their first three characters (`tripleKey`; a collision costs one `startsWith`). */
  byTriple: Map<number, Keyword[]>;
  triples: Uint8Array;
  /** Keywords under two characters or not ASCII (the rule set has none), tested with `includes`. */
  other: Keyword[];
  /** Rules without keywords (the rule set has none): gitleaks runs them whenever any keyword is present. */
  unkeyed: number[];
  ruleCount: number;
}

const pairKey = (a: number, b: number) => (a << 7) | b;
const tripleKey = (a: number, b: number, c: number) => (a * 961 + b * 31 + c) & 0xffff;

function indexKeywords(rules: readonly Compiled[]): KeywordIndex {
  const rulesOf = new Map<string, number[]>();
  const unkeyed: number[] = [];
  rules.forEach((r, i) => {
    if (r.keywords.length === 0) unkeyed.push(i);
    for (const k of new Set(r.keywords)) rulesOf.set(k, [...(rulesOf.get(k) ?? []), i]);
  });
  const index: KeywordIndex = {
    byPair: new Map(),
    pairs: new Uint8Array(128 * 128),
    byTriple: new Map(),
    triples: new Uint8Array(0x10000),
    other: [],
    unkeyed,
    ruleCount: rules.length,
  };
  const put = (map: Map<number, Keyword[]>, flags: Uint8Array, key: number, k: Keyword) => {
    map.set(key, [...(map.get(key) ?? []), k]);
    flags[key] = 1;
  };
  for (const [word, ids] of rulesOf) {
    const k = { word, rules: ids };
    const [a, b, c] = [word.charCodeAt(0), word.charCodeAt(1), word.charCodeAt(2)];
    if (word.length < 2 || [...word].some((ch) => ch.charCodeAt(0) > 127)) index.other.push(k);
    else if (word.length === 2) put(index.byPair, index.pairs, pairKey(a, b), k);
    else put(index.byTriple, index.triples, tripleKey(a, b, c), k);
  }
  return index;
}

/**
 * Indices, ascending, of the rules with a keyword in `lower` (gitleaks' prefilter), plus the keyless ones when any
 * keyword is present; empty when none is.
 */
function rulesToRun(index: KeywordIndex, lower: string): number[] {
  const hit: number[] = [];
  let seen: Uint8Array | undefined; // allocated at the first keyword: most texts have none
  let b = lower.charCodeAt(0);
  let c = lower.charCodeAt(1);
  for (let i = 0; i + 1 < lower.length; i++) {
    const a = b;
    b = c;
    c = lower.charCodeAt(i + 2); // NaN past the end
    if ((a | b) > 127) continue; // keywords are ASCII
    if (index.pairs[pairKey(a, b)] === 1) {
      seen ??= new Uint8Array(index.ruleCount);
      for (const k of index.byPair.get(pairKey(a, b))!) mark(k.rules, seen, hit);
    }
    if (c <= 127 && index.triples[tripleKey(a, b, c)] === 1) {
      for (const k of index.byTriple.get(tripleKey(a, b, c))!) {
        if (lower.startsWith(k.word, i)) mark(k.rules, (seen ??= new Uint8Array(index.ruleCount)), hit);
      }
    }
  }
  for (const k of index.other) {
    if (k.word.length === 0 || lower.includes(k.word)) mark(k.rules, (seen ??= new Uint8Array(index.ruleCount)), hit);
  }
  if (seen === undefined) return hit;
  mark(index.unkeyed, seen, hit);
  return hit.sort((x, y) => x - y);
}

/** Adds to `hit` the rules not `seen` yet (a plain function: a closure per scan costs more). */
function mark(rules: readonly number[], seen: Uint8Array, hit: number[]): void {
  for (const r of rules) {
    if (seen[r] === 1) continue;
    seen[r] = 1;
    hit.push(r);
  }
}

let compiled:
  | { rules: Compiled[]; skipped: string[]; keywords: KeywordIndex; globalRegexes: RegExp[]; globalStopwords: string[] }
  | undefined;

function rules() {
  if (compiled) return compiled;
  const out: Compiled[] = [];
  const skipped: string[] = [];
  for (const r of GITLEAKS_RULES.rules) {
    const c = compile(r);
    if (c) out.push(c);
    else skipped.push(r.id);
  }
  const globalRegexes = GITLEAKS_RULES.allowlist.regexes.flatMap((x) => {
    const t = toJsRegex(x);
    try {
      return [new RegExp(t.source, t.flags)];
    } catch {
      return [];
    }
  });
  compiled = { rules: out, skipped, keywords: indexKeywords(out), globalRegexes, globalStopwords: GITLEAKS_RULES.allowlist.stopwords.map((w) => w.toLowerCase()) };
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
 * Every gitleaks finding in `text`, in rule order (overlaps are left to the caller). `except` names a rule not to run
 * (the secret detector drops `generic-api-key`'s findings anyway).
 * @example findRuleSecrets('token: xoxb-…') // [{ rule: 'slack-bot-token', start: 7, end: … }]
 */
export function findRuleSecrets(text: string, options: { except?: string } = {}): RuleFinding[] {
  const set = rules();
  const out: RuleFinding[] = [];
  for (const r of rulesToRun(set.keywords, text.toLowerCase())) {
    const c = set.rules[r]!;
    if (c.id === options.except) continue;
    for (const m of execAll(c.re, text)) {
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
