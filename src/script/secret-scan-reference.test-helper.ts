/** Test helper: the credential detector as it was at 7b39ffc, before its prefilters; the equivalence test compares against it. */
import { findRuleSecrets } from './gitleaks-scan-reference.test-helper.js';

// Over 500 lines on purpose (STYLE §4): the rule table, the value heuristics, the overlap resolution and the
// rescan that keeps redaction idempotent only make sense together. The two generic span helpers at the end
// (`keepNonOverlapping`, `replaceSpans`, shared with pii-scan) could move to their own file.

/** The kinds of credential the detector names; `describeSecretKinds` turns them into prose. */
export type SecretKind =
  | 'openai_key'
  | 'anthropic_key'
  | 'aws_access_key'
  | 'aws_secret_key'
  | 'github_token'
  | 'gitlab_token'
  | 'slack_token'
  | 'slack_webhook'
  | 'stripe_key'
  | 'google_api_key'
  | 'npm_token'
  | 'huggingface_token'
  | 'sendgrid_key'
  | 'jwt'
  | 'private_key'
  | 'password'
  | 'connection_string'
  | 'bearer_token'
  | 'basic_auth'
  | 'telegram_token'
  | 'discord_token'
  | 'mailgun_key'
  | 'shopify_token'
  | 'service_token'
  | 'api_key';

/** One detected secret: `text.slice(start, end)` is exactly the secret value (never its key or URL around it). */
export interface SecretFinding {
  kind: SecretKind;
  start: number;
  end: number;
}

interface Candidate extends SecretFinding {
  /** Lower wins an overlap: a vendor prefix is surer than a generic `api_key=` assignment. */
  rank: number;
}

/** Vendor tokens recognised by prefix, length and charset alone. */
const TOKEN_RULES: ReadonlyArray<{ kind: SecretKind; re: RegExp; mixed?: true }> = [
  { kind: 'anthropic_key', re: /(?<![\w-])sk-ant-(?:api|admin|oat|ort)\d{2}-[\w-]{32,}/g },
  { kind: 'openai_key', re: /(?<![\w-])sk-(?:proj|svcacct|admin|None)-[\w-]{32,}/g },
  { kind: 'openai_key', re: /(?<![\w-])sk-[A-Za-z0-9]{32,}(?![\w-])/g, mixed: true },
  { kind: 'aws_access_key', re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: 'github_token', re: /(?<!\w)gh[pousr]_[A-Za-z0-9]{36,251}(?!\w)/g },
  { kind: 'github_token', re: /(?<!\w)github_pat_\w{60,251}/g },
  // Routable tokens (GitLab 17.x) end in `.<version>.<crc>` after the payload: `glpat-<payload>.01.<9 base36>`.
  { kind: 'gitlab_token', re: /(?<![\w-])gl(?:pat|ptt|dt|rt|soat|cbt)-[\w-]{20,}(?:\.\d{2}\.[A-Za-z0-9]{6,10}(?![\w-]))?/g },
  { kind: 'slack_token', re: /(?<![\w-])xox[abposre]-\d{6,}-[A-Za-z0-9-]{10,}/g },
  { kind: 'slack_token', re: /(?<![\w-])xapp-\d-[A-Z0-9]{6,}-\d{6,}-[a-f0-9]{20,}/g },
  {
    kind: 'slack_webhook',
    re: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Z0-9]{6,}\/[A-Z0-9]{6,}\/[A-Za-z0-9]{16,}/g,
  },
  { kind: 'stripe_key', re: /(?<!\w)(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}/g },
  { kind: 'stripe_key', re: /(?<!\w)whsec_[A-Za-z0-9+/]{24,}/g },
  { kind: 'google_api_key', re: /(?<![\w-])AIza[\w-]{35}(?![\w-])/g },
  { kind: 'npm_token', re: /(?<!\w)npm_[A-Za-z0-9]{36}(?!\w)/g },
  { kind: 'huggingface_token', re: /(?<!\w)hf_[A-Za-z]{30,40}(?!\w)/g, mixed: true },
  { kind: 'sendgrid_key', re: /(?<!\w)SG\.[\w-]{22}\.[\w-]{43}(?![\w-])/g },
  // Header and payload are base64url JSON, so both start with `ey` ("{" + quote or space).
  { kind: 'jwt', re: /(?<![\w-])eyJ[\w-]{10,}\.ey[\w-]{10,}\.[\w-]{16,}/g },
  // Bot id, a colon, then 35 characters that begin with `AA` (BotFather's format).
  { kind: 'telegram_token', re: /(?<![\w:])\d{8,10}:AA[\w-]{33}(?![\w-])/g },
  // Base64 user id (starts M, N or O), a 6-character timestamp and a 27-38 character HMAC.
  { kind: 'discord_token', re: /(?<![\w.-])[MNO][A-Za-z\d_-]{23,27}\.[\w-]{6}\.[\w-]{27,38}(?![\w.-])/g },
  { kind: 'mailgun_key', re: /(?<![\w-])key-[0-9a-z]{32}(?![\w-])/g },
  { kind: 'shopify_token', re: /(?<!\w)shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?!\w)/g },
];

const RANK: Partial<Record<SecretKind, number>> = {
  private_key: 0,
  jwt: 2,
  connection_string: 3,
  password: 4,
  aws_secret_key: 4,
  bearer_token: 5,
  basic_auth: 5,
  api_key: 6,
};
const VENDOR_RANK = 1;
const GITLEAKS_RANK = 5.5;

const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]{0,30}?PRIVATE KEY(?: BLOCK)?-----/g;
const PRIVATE_KEY_MAX = 65_536; // a 16384-bit RSA PEM is ~12 KiB; anything longer is not one block
// What follows `scheme://` in a URL with a password; scanned from each `://` (a leading scheme pattern is slow).
// The password may hold `#` and `@` (people write them unescaped): it runs to the last `@` before the host.
const URL_USERINFO = /[^\s:/@?#'"<>]*:([^\s/?'"<>]+)@([\w.-]+|\[[\da-fA-F:.]+\])/dy;
// `mysql -u root -pS3cret`, `mysqldump -p'S3cret'`: the password glued to `-p` (a bare `-p` prompts for it).
const MYSQL_PASSWORD = /\bmysql(?:dump|admin|import|sh|slap|check)?\b[^\n]{0,200}?[ \t]-p(?:'([^'\n]{2,128})'|"([^"\n]{2,128})"|([^\s'"]{2,128}))/dg;
// RFC 2606 documentation hosts: `https://abc:xyz@example.com` is an example, not a credential.
const EXAMPLE_HOST = /(?:^|\.)(?:example\.(?:com|org|net)|example|invalid)$/i;
// `postgres://user:somepassword@host`, `…:your_secret@…`: the word itself stands in for the password.
const PASSWORD_WORD = /^(?:some|my|your|the|db|user)?[_-]?(?:password|passwd|pass|secret|pw|pwd)$/i;
const BEARER = /\b[Bb]earer[ \t]+([A-Za-z0-9._~+/-]{20,}=*)/dg;
const BASIC = /\bAuthorization["']?[ \t]*[:=][ \t]*["']?Basic[ \t]+([A-Za-z0-9+/]{8,}={0,2})/dgi;
const REDACTED = /\[secret:[a-z_]+\]/g;
const REDACTED_INSIDE = /\[secret:|secret:[a-z_]+\]/;
// Prose gives a password with a verb instead of an operator: "the wifi password is Winter2026!", "密码是Tr0ub4dor&3",
// "密码改成了 …" (`password: x` and `密码：x` are assignments). The value runs to whitespace or a quote.
const PROSE_PASSWORD =
  /(?:\b(?:password|passphrase|passcode|passwd)[ \t]+(is now|is|was|to)|(?:密码|口令)[ \t]*(?:是|为|改成了?|改为|设为|设置为|设成了?))[ \t]*["'“]?([!#-&(-~]{6,64})/dgi;

/**
 * Assignments `<name><op><value>` whose name ends in a credential word. The keyword is the regex anchor and the
 * full name is read backwards by hand: a regex starting with `[\w-]*` would be quadratic on long identifiers.
 */
const ASSIGNMENT =
  /(password|passwd|passwort|passphrase|kennwort|pwd|pass|pw|密码|口令|密钥|秘钥|令牌|secret|token|api[_-]?key|apikey|key|credentials?|auth)["']?[ \t]*(=>|:=|=|:|：)[ \t]*/gi;
const PASSWORD_NAME = /(?:password|passwd|passwort|passphrase|kennwort|(?:^|_)(?:pwd|pass|pw)|密码|口令)$/;
const GENERIC_NAME = /(?:api_?key|apikey|secret|token|(?:^|_)key|credentials?|(?:^|_)auth|密钥|秘钥|令牌)$/;
// Names whose value is an identifier, a pagination cursor or a hash, not a credential.
const NOT_SECRET_NAME =
  /(?:^|_)(?:public|cache|idempotency|sort|partition|primary|foreign|dedup|lookup|hash|row|map|index|unique|routing|page|next|continuation|pagination|sync|cursor|object|file|i18n|translation|react|list|dict|group|message)_(?:key|token)$/;
const AWS_SECRET_NAME = /aws_?secret|secret_access_key/;
// Unquoted values are printable ASCII without the delimiters "'`,;()[]{}<>; `&` ends a value after `=` (URL
// query) but not after `:` (YAML, headers).
const VALUE = /[!#$%*+\-./0-9:=?@A-Z\\^_a-z|~]{0,1024}/y;
const COLON_VALUE = /[!#$%&*+\-./0-9:=?@A-Z\\^_a-z|~]{0,1024}/y;
const NON_VALUES = new Set(
  'null none nil undefined true false yes no on off required optional string str int number boolean bool any text env secret password passwd pass pwd token example placeholder redacted hidden masked empty todo tbd fixme dummy sample default'.split(
    ' ',
  ),
);
const PLACEHOLDER_HINT = /your|example|placeholder|redacted|changeme|replace|insert|x{4,}|\*{3,}|\.\.\.|…/i;
// Vendor tokens are long and random, so only unmistakable filler counts (a random 160-char key contains `xxx` ~0.5%).
const TOKEN_PLACEHOLDER = /x{5,}|X{5,}|\.\.\.|…|example|EXAMPLE|your|YOUR|^(.)\1+$/;
const CREDENTIAL_WORD = /(?:password|passwd|pwd|secret|token|api_?key|apikey|credentials?)$/i;

// A rescan only ever finds the remainder of a value its neighbour's marker cut short; texts converge in one or
// two passes, and the cap bounds the cost of a pathological input.
const MAX_PASSES = 4;

/**
 * All secrets in `text`, non-overlapping and sorted by start. Already-redacted markers (`[secret:kind]`) are never
 * matched again, and the scan repeats on its own redaction until that finds nothing new, so redaction is
 * idempotent: `NPM_TOKEN=abc…sk-proj-…` loses the generic value to the OpenAI key on the first pass and yields
 * its remainder `abc…` on the second.
 */
export function findSecrets(text: string): SecretFinding[] {
  let { found, rescan } = scanOnce(text);
  for (let pass = 1; pass < MAX_PASSES && rescan; pass++) {
    const { text: redacted, toOriginal } = applyRedaction(text, found);
    const next = scanOnce(redacted);
    const more = next.found;
    rescan = next.rescan;
    if (more.length === 0) break;
    found = [
      ...found,
      ...more.map((f) => ({ kind: f.kind, start: toOriginal(f.start), end: toOriginal(f.end) })),
    ];
    found.sort((a, b) => a.start - b.start);
  }
  return found;
}

function applyRedaction(text: string, findings: readonly SecretFinding[]) {
  return replaceSpans(text, findings, (f) => `[secret:${f.kind}]`);
}

/**
 * Replaces sorted, disjoint `spans` by `label(span)`. `toOriginal` maps an offset of the result that lies
 * outside every label back to `text` (the PII detector shares this for its own rescans).
 */
export function replaceSpans<T extends { start: number; end: number }>(
  text: string,
  spans: readonly T[],
  label: (span: T) => string,
): { text: string; toOriginal: (at: number) => number } {
  let out = '';
  let at = 0;
  const shifts: Array<{ redactedEnd: number; originalEnd: number }> = [];
  for (const f of spans) {
    out += text.slice(at, f.start) + label(f);
    at = f.end;
    shifts.push({ redactedEnd: out.length, originalEnd: f.end });
  }
  const toOriginal = (pos: number) => {
    let lo = 0;
    let hi = shifts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((shifts[mid]?.redactedEnd ?? 0) <= pos) lo = mid + 1;
      else hi = mid;
    }
    const last = shifts[lo - 1];
    return last === undefined ? pos : pos - last.redactedEnd + last.originalEnd;
  };
  return { text: out + text.slice(at), toOriginal };
}

/**
 * One scan: every rule, then the best-ranked candidate of each overlapping group. `rescan` tells whether the
 * redacted text could hold more: only when a candidate lost to one with a different span, or a finding starts
 * inside a value that its `[secret:…]` marker would cut short (`password=OPENAI_API_KEY=sk-…` only becomes
 * `password=OPENAI_API_KEY=` once the key is redacted), or a finding is glued to word characters that its
 * marker would separate (`AIza…-----BEGIN PRIVATE KEY-----`).
 */
function scanOnce(text: string): { found: SecretFinding[]; rescan: boolean } {
  const values: Array<[number, number]> = []; // raw extents of assignment and header values, kept or not
  const candidates: Candidate[] = [];
  const add = (kind: SecretKind, start: number, end: number) =>
    candidates.push({ kind, start, end, rank: RANK[kind] ?? VENDOR_RANK });

  for (const { kind, re, mixed } of TOKEN_RULES) {
    for (const m of text.matchAll(re)) {
      if (TOKEN_PLACEHOLDER.test(m[0]) || entropy(m[0]) < 3) continue;
      if (mixed && !(/[a-z]/.test(m[0]) && /[A-Z]/.test(m[0]))) continue; // `hf_`/`sk-` + one-case word: an identifier
      add(kind, m.index, m.index + m[0].length);
    }
  }
  for (const m of text.matchAll(PRIVATE_KEY_BEGIN)) {
    const end = privateKeyEnd(text, m.index + m[0].length);
    if (end !== undefined) add('private_key', m.index, end);
  }
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
    if (!/[A-Za-z0-9]/.test(text[at - 1] ?? '')) continue; // a scheme precedes `://`
    URL_USERINFO.lastIndex = at + 3;
    const m = URL_USERINFO.exec(text);
    const [s, e] = m?.indices?.[1] ?? [0, 0];
    const pw = text.slice(s, e);
    if (pw.length < 3 || isPlaceholder(pw) || PASSWORD_WORD.test(pw) || EXAMPLE_HOST.test(m?.[2] ?? ''))
      continue;
    add('connection_string', s, e);
  }
  for (const [re, kind] of [
    [BEARER, 'bearer_token'],
    [BASIC, 'basic_auth'],
  ] as const) {
    for (const m of text.matchAll(re)) {
      const [s, e] = m.indices?.[1] ?? [0, 0];
      values.push([s, e]);
      if (looksRandom(text.slice(s, e), kind === 'basic_auth' ? 8 : 20)) add(kind, s, e);
    }
  }
  for (const m of text.matchAll(MYSQL_PASSWORD)) {
    const [s, e] = m.indices?.[1] ?? m.indices?.[2] ?? m.indices?.[3] ?? [0, 0];
    const pw = text.slice(s, e);
    if (!isPlaceholder(pw) && !pw.startsWith('$')) add('password', s, e);
  }
  // The gitleaks rule set (data, MIT): the vendor formats it knows. Its `generic-api-key` rule is left to the
  // assignment check below, which knows names whose value is no secret (cache_key, next_page_token) and publishable
  // keys: gitleaks' generic rule flagged 3 of the 69 near-misses of the hand corpus.
  for (const f of findRuleSecrets(text)) {
    const value = text.slice(f.start, f.end);
    if (f.rule === 'generic-api-key' || TOKEN_PLACEHOLDER.test(value) || REDACTED_INSIDE.test(value)) continue;
    // Ranked after this file's own rules (same span, a more precise kind) and before generic keys.
    const kind: SecretKind = f.rule.endsWith('private-key') ? 'private_key' : f.rule === 'jwt' ? 'jwt' : 'service_token';
    candidates.push({ kind, start: f.start, end: f.end, rank: GITLEAKS_RANK });
  }
  for (const m of text.matchAll(ASSIGNMENT)) scanAssignment(text, m, values, add);
  for (const m of text.matchAll(PROSE_PASSWORD)) scanProsePassword(text, m, values, add);

  // Already-redacted markers outrank everything, so nothing inside them is found again.
  for (const m of text.matchAll(REDACTED))
    candidates.push({ kind: 'api_key', start: m.index, end: m.index + m[0].length, rank: -1 });
  candidates.sort((a, b) => a.rank - b.rank || a.start - b.start || b.end - a.end);
  const kept = keepNonOverlapping(candidates);
  const keptSpans = new Set(kept.map((c) => `${c.start}:${c.end}`));
  const found = kept.filter((c) => c.rank >= 0).map(({ kind, start, end }) => ({ kind, start, end }));
  const lostToOther =
    candidates.length > kept.length && candidates.some((c) => !keptSpans.has(`${c.start}:${c.end}`));
  return { found, rescan: lostToOther || startsInside(found, values) || found.some((f) => glued(text, f)) };
}

const WORD_CHAR = /[\w.-]/;

/** True when a finding touches word characters on either side: its marker would end a token or a name there. */
function glued(text: string, f: SecretFinding): boolean {
  const edge = (a: number, b: number) => WORD_CHAR.test(text[a] ?? ' ') && WORD_CHAR.test(text[b] ?? ' ');
  return edge(f.start - 1, f.start) || edge(f.end - 1, f.end);
}

/** True when some finding starts strictly inside some value extent (a value its marker would cut short). */
function startsInside(found: readonly SecretFinding[], extents: Array<[number, number]>): boolean {
  if (found.length === 0 || extents.length === 0) return false;
  extents.sort((a, b) => a[0] - b[0]);
  const reach: number[] = []; // reach[i]: the furthest end among extents[0..i]
  for (const [, e] of extents) reach.push(Math.max(e, reach.at(-1) ?? 0));
  return found.some((f) => {
    let lo = 0;
    let hi = extents.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((extents[mid]?.[0] ?? 0) < f.start) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && (reach[lo - 1] ?? 0) > f.start;
  });
}

/** Classifies one `<name><op><value>` match as a password, an AWS secret key, a generic API key, or nothing. */
function scanAssignment(
  text: string,
  m: RegExpExecArray,
  values: Array<[number, number]>,
  add: (k: SecretKind, s: number, e: number) => void,
): void {
  const op = m[2] ?? '';
  const valueStart = m.index + m[0].length;
  if (text[valueStart] === '=' || text[valueStart] === '>') return; // `==`, `===`, `=>` comparisons
  const name = keyName(text, m.index, m[1] ?? '');
  if (NOT_SECRET_NAME.test(name)) return;
  const isPassword = PASSWORD_NAME.test(name);
  if (!isPassword && (!GENERIC_NAME.test(name) || name === 'key')) return;

  const quote = text[valueStart];
  if (quote === '`') return; // a backtick is a code span in Markdown prose ("this pass: `hot_hits`"), not a value
  let start = valueStart;
  let end: number;
  if (quote === '"' || quote === "'") {
    start = valueStart + 1;
    end = text.indexOf(quote, start);
    const newline = text.indexOf('\n', start);
    values.push([start, end === -1 ? start + 1024 : end]);
    if (end === -1 || end - start > 1024 || (newline !== -1 && newline < end)) return;
  } else {
    const colon = op === ':' || op === '：';
    // `&` separates URL query and form fields (`?a=1&token=x&page=2`), so it ends a value only there; in
    // `DB_PASSWORD=P@ssw0rd&3` or an INI `password = bN&l7%` it belongs to the password.
    const inQuery = /[?&]/.test(text[nameStart(text, m.index) - 1] ?? '');
    const value = colon || !inQuery ? COLON_VALUE : VALUE;
    value.lastIndex = start;
    end = start + (value.exec(text)?.[0].length ?? 0);
    values.push([start, end]);
    if (isReference(text.slice(start, end), text[end])) return;
    if (colon) {
      // `password: reset it in settings` is prose; a YAML or header value runs to the end of its line, and
      // `password: BinaryLike,` is a type annotation.
      const after = /^[ \t]*(?:($|[\r\n])|[,;}\]，。；、)])/.exec(text.slice(end, end + 2));
      if (after === null || (after[1] === undefined && isWordLike(text.slice(start, end)))) return;
    }
  }
  const value = text.slice(start, end);
  if (value.length === 0 || isPlaceholder(value) || NON_VALUES.has(value.toLowerCase())) return;
  // A quoted phrase naming a credential describes it: 'Password used to generate key', 'a password'.
  if (/\s/.test(value) && /password|passwd|secret|token|key/i.test(value)) return;
  if (isPassword) {
    if (value.length >= 4 && !/^(?:[~.]?\/|[A-Za-z]:\\)/.test(value)) add('password', start, end); // PWD=/home/x is a path
  } else if (AWS_SECRET_NAME.test(name) && /^[A-Za-z0-9/+]{40}$/.test(value) && entropy(value) >= 3.5) {
    add('aws_secret_key', start, end);
    // Stripe publishable keys (`pk_live_…`) are public by design: Stripe documents them as safe in client code.
  } else if (!/\s|:\/\//.test(value) && looksRandom(value, 16) && !/^pk_(?:live|test)_/.test(value)) {
    add('api_key', start, end);
  }
}

/**
 * A password given in prose (`PROSE_PASSWORD`). The value must mix letters with digits or symbols, or be 6+
 * digits, so "the password is required", "密码是必填的" and "the password is 8-characters" stay prose; "password
 * to" counts only after changing or setting it ("send the password to bob@…" is not one).
 */
function scanProsePassword(
  text: string,
  m: RegExpExecArray,
  values: Array<[number, number]>,
  add: (k: SecretKind, s: number, e: number) => void,
): void {
  const [start, rawEnd] = m.indices?.[2] ?? [0, 0];
  const value = text.slice(start, rawEnd).replace(/[.,;:)\]]+$/, ''); // sentence punctuation after the value
  const end = start + value.length;
  values.push([start, end]);
  if (m[1]?.toLowerCase() === 'to' && !/\b(?:chang|set|reset|updat)\w*\b[^.\n]{0,40}$/i.test(text.slice(Math.max(0, m.index - 48), m.index)))
    return;
  const core = value.replace(/[!?]+$/, ''); // "the password is wrong!" ends a sentence, it is not a symbol
  const mixed = /[A-Za-z]/.test(core) && /[\d!#$%&*+=?@^~]/.test(core);
  if (!(mixed || /^\d{6,}$/.test(value)) || value.length < 6 || isPlaceholder(value)) return;
  if (/^v?\d+(?:\.\d+)+|^\d+-?[A-Za-z]+$|:\/\/|^[~.]?\/|@[\w-]+\.[A-Za-z]{2,}/.test(value)) return; // version, "8-chars", URL, path, email
  add('password', start, end);
}

/** The full assignment name, snake-cased: `DB_PASSWORD` → `db_password`, `x-api-key` → `x_api_key`, `clientSecret` → `client_secret`. */
function keyName(text: string, at: number, keyword: string): string {
  const raw = text.slice(nameStart(text, at), at) + keyword;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    // '-' and '.' separate words like '_'
    if (c === 45 || c === 46) out += '_';
    else if (c >= 65 && c <= 90) {
      const p = raw.charCodeAt(i - 1);
      if ((p >= 97 && p <= 122) || (p >= 48 && p <= 57)) out += '_'; // camelCase boundary
      out += String.fromCharCode(c + 32);
    } else out += raw[i];
  }
  return out.replace(/^_+/, '');
}

/** Where the name that ends in the keyword at `at` begins (at most 64 name characters back). */
function nameStart(text: string, at: number): number {
  let s = at;
  while (s > 0 && at - s < 64 && isNameChar(text.charCodeAt(s - 1))) s--;
  return s;
}

/** `[A-Za-z0-9_.-]`, by char code: this runs once per assignment-like match. */
function isNameChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46
  );
}

/** `process.env.X`, `config.db.password`, `getpass()`, `os.environ[...]`, `password=password`: code, not a secret. */
function isReference(value: string, next: string | undefined): boolean {
  if (!/^[A-Za-z_$][\w$.?!]*$/.test(value)) return /^[$%]|^\{\{/.test(value); // `?.` and `!` are TypeScript
  return (
    value.startsWith('$') ||
    value.includes('.') ||
    next === '(' ||
    next === '[' ||
    CREDENTIAL_WORD.test(value)
  );
}

function isPlaceholder(value: string): boolean {
  return PLACEHOLDER_HINT.test(value) || /^(.)\1+$/.test(value) || /^\$\{|^<.*>$|^%\w+%$|^\{\{/.test(value);
}

/**
 * Random-looking: long enough, not made of words, at least two of lower/upper/digit, and ≥ 3 bits of Shannon
 * entropy per character (a random base62 string has ~5.9; `pemEncodedPrivateKey` passes entropy but is words).
 */
function looksRandom(value: string, minLength: number): boolean {
  if (value.length < minLength || isPlaceholder(value) || isWordLike(value)) return false;
  const classes = Number(/[a-z]/.test(value)) + Number(/[A-Z]/.test(value)) + Number(/\d/.test(value));
  return classes >= 2 && entropy(value) >= 3;
}

/**
 * True for identifiers and phrases built from words: `OpeningParenToken$1`, `__vite_ssr_exportAll__`,
 * `sleep.openaiApiKey`. Each letter run is a capitalised or lowercase word of 2+ letters or an acronym, with
 * vowels and no 5-consonant cluster, and at most one short digit run. Measured on random strings, this rejects
 * ~1.2% of 16-character and ~0.3% of 20-character base62 tokens, and almost none from 32 characters up.
 */
function isWordLike(value: string): boolean {
  let digitRuns = 0;
  for (const seg of value.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^A-Za-z\d]+/g) ?? []) {
    if (/^[A-Z]?[a-z]$/.test(seg)) return false;
    if (/^\d/.test(seg) && (++digitRuns > 1 || seg.length > 4)) return false;
    if (/[bcdfghjklmnpqrstvwxz]{5}/i.test(seg)) return false;
    if (seg.length >= 4 && /^[A-Za-z]+$/.test(seg) && !/[aeiouy]/i.test(seg)) return false;
  }
  return true;
}

const asciiCounts = new Int32Array(128); // reused scratch: entropy runs for every token-shaped match

/** Shannon entropy in bits per character (UTF-16 units; credentials are ASCII). */
function entropy(value: string): number {
  asciiCounts.fill(0);
  let other = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 128) asciiCounts[c] = (asciiCounts[c] ?? 0) + 1;
    else other++;
  }
  let bits = other > 0 ? -(other / value.length) * Math.log2(other / value.length) : 0;
  for (const n of asciiCounts) if (n > 0) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits;
}

/**
 * End offset of a PEM private key whose body starts at `from`, or undefined when no base64 line follows: prose
 * that merely names `-----BEGIN PRIVATE KEY-----` is not a key.
 */
function privateKeyEnd(text: string, from: number): number | undefined {
  const endMarker = text.indexOf('-----END ', from);
  let end: number;
  if (endMarker !== -1 && endMarker - from < PRIVATE_KEY_MAX) {
    const close = text.indexOf('-----', endMarker + 9);
    end = close === -1 ? text.length : close + 5;
  } else {
    // Truncated paste: the base64 lines (real or JSON-escaped newlines) that follow the header.
    const body = /(?:[ \t]*(?:\r?\n|\\n)[A-Za-z0-9+/=]{16,})+/y;
    body.lastIndex = from;
    end = from + (body.exec(text)?.[0].length ?? 0);
  }
  return /[A-Za-z0-9+/]{40,}/.test(text.slice(from, end).replace(/\\n/g, '\n')) ? end : undefined;
}

/**
 * Keeps, among spans sorted best-first (by rank, then start), each span that overlaps no span kept before it;
 * returns them by start. Each run of rising starts (one rank) is merged against the kept spans in one linear
 * sweep, so a megabyte with thousands of findings stays linear in the number of ranks.
 */
export function keepNonOverlapping<T extends { start: number; end: number }>(bestFirst: readonly T[]): T[] {
  let kept: T[] = [];
  let from = 0;
  while (from < bestFirst.length) {
    let to = from + 1;
    while (to < bestFirst.length && (bestFirst[to]?.start ?? 0) >= (bestFirst[to - 1]?.start ?? 0)) to++;
    const accepted: T[] = [];
    let j = 0;
    for (let i = from; i < to; i++) {
      const c = bestFirst[i] as T;
      while (j < kept.length && (kept[j]?.end ?? 0) <= c.start) j++;
      const blocked = (kept[j]?.start ?? Infinity) < c.end || (accepted.at(-1)?.end ?? -Infinity) > c.start;
      if (!blocked) accepted.push(c);
    }
    kept = mergeByStart(kept, accepted);
    from = to;
  }
  return kept;
}

function mergeByStart<T extends { start: number }>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x.start <= y.start)) {
      out.push(x as T);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  return out;
}

/**
 * Replaces each secret with `[secret:<kind>]`, keeping what is around it: `password=[secret:password]`,
 * `postgres://bob:[secret:connection_string]@db:5432/x`. Idempotent. `findings` refer to the input text.
 */
export function redactSecrets(text: string): { text: string; findings: SecretFinding[] } {
  const findings = findSecrets(text);
  return { text: applyRedaction(text, findings).text, findings };
}

const KIND_PHRASES: Record<SecretKind, string> = {
  openai_key: 'an OpenAI API key',
  anthropic_key: 'an Anthropic API key',
  aws_access_key: 'an AWS access key ID',
  aws_secret_key: 'an AWS secret access key',
  github_token: 'a GitHub token',
  gitlab_token: 'a GitLab token',
  slack_token: 'a Slack token',
  slack_webhook: 'a Slack webhook URL',
  stripe_key: 'a Stripe secret key',
  google_api_key: 'a Google API key',
  npm_token: 'an npm access token',
  huggingface_token: 'a Hugging Face token',
  sendgrid_key: 'a SendGrid API key',
  jwt: 'a JSON Web Token',
  private_key: 'a private key',
  password: 'a password',
  connection_string: 'a connection string with a password',
  bearer_token: 'a bearer token',
  basic_auth: 'HTTP basic-auth credentials',
  telegram_token: 'a Telegram bot token',
  discord_token: 'a Discord bot token',
  mailgun_key: 'a Mailgun API key',
  shopify_token: 'a Shopify access token',
  service_token: 'a service credential (gitleaks rule)',
  api_key: 'an API key or secret',
};

/** Prose naming the distinct kinds in order of appearance: "an OpenAI API key and a password". */
export function describeSecretKinds(findings: readonly SecretFinding[]): string {
  const phrases = [...new Set(findings.map((f) => f.kind))].map((k) => KIND_PHRASES[k]);
  if (phrases.length === 0) return 'no secret';
  if (phrases.length === 1) return phrases[0] ?? '';
  return `${phrases.slice(0, -1).join(', ')} and ${phrases.at(-1) ?? ''}`;
}
