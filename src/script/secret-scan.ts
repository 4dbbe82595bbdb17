/** Deterministic credential detector: `remember` refuses what it finds, automatic capture redacts it (DESIGN §10). */

// Over 200 lines on purpose (STYLE §4): the rule table, the value heuristics and the overlap resolution only
// make sense together, and splitting them would scatter one detector over several files.

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
  { kind: 'gitlab_token', re: /(?<![\w-])gl(?:pat|ptt|dt|rt|soat|cbt)-[\w-]{20,}/g },
  { kind: 'slack_token', re: /(?<![\w-])xox[abposre]-\d{6,}-[A-Za-z0-9-]{10,}/g },
  { kind: 'slack_token', re: /(?<![\w-])xapp-\d-[A-Z0-9]{6,}-\d{6,}-[a-f0-9]{20,}/g },
  { kind: 'slack_webhook', re: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Z0-9]{6,}\/[A-Z0-9]{6,}\/[A-Za-z0-9]{16,}/g },
  { kind: 'stripe_key', re: /(?<!\w)(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}/g },
  { kind: 'stripe_key', re: /(?<!\w)whsec_[A-Za-z0-9+/]{24,}/g },
  { kind: 'google_api_key', re: /(?<![\w-])AIza[\w-]{35}(?![\w-])/g },
  { kind: 'npm_token', re: /(?<!\w)npm_[A-Za-z0-9]{36}(?!\w)/g },
  { kind: 'huggingface_token', re: /(?<!\w)hf_[A-Za-z]{30,40}(?!\w)/g, mixed: true },
  { kind: 'sendgrid_key', re: /(?<!\w)SG\.[\w-]{22}\.[\w-]{43}(?![\w-])/g },
  // Header and payload are base64url JSON, so both start with `ey` ("{" + quote or space).
  { kind: 'jwt', re: /(?<![\w-])eyJ[\w-]{10,}\.ey[\w-]{10,}\.[\w-]{16,}/g },
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

const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]{0,30}?PRIVATE KEY(?: BLOCK)?-----/g;
const PRIVATE_KEY_MAX = 65_536; // a 16384-bit RSA PEM is ~12 KiB; anything longer is not one block
const CONNECTION_URL = /\b[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/@?#'"<>]*:([^\s@/?#'"<>]+)@[^\s/?#'"<>@:]+/dg;
const BEARER = /\b[Bb]earer[ \t]+([A-Za-z0-9._~+/-]{20,}=*)/dg;
const BASIC = /\bAuthorization["']?[ \t]*[:=][ \t]*["']?Basic[ \t]+([A-Za-z0-9+/]{8,}={0,2})/dgi;
const REDACTED = /\[secret:[a-z_]+\]/g;

/**
 * Assignments `<name><op><value>` whose name ends in a credential word. The keyword is the regex anchor and the
 * full name is read backwards by hand: a regex starting with `[\w-]*` would be quadratic on long identifiers.
 */
const ASSIGNMENT =
  /(password|passwd|passwort|passphrase|kennwort|pwd|pass|pw|密码|口令|secret|token|api[_-]?key|apikey|key|credentials?|auth)["']?[ \t]*(=>|:=|=|:|：)[ \t]*/gi;
const PASSWORD_NAME = /(?:password|passwd|passwort|passphrase|kennwort|(?:^|_)(?:pwd|pass|pw)|密码|口令)$/;
const GENERIC_NAME = /(?:api_?key|apikey|secret|token|(?:^|_)key|credentials?|(?:^|_)auth)$/;
// Names whose value is an identifier, a pagination cursor or a hash, not a credential.
const NOT_SECRET_NAME =
  /(?:^|_)(?:public|cache|idempotency|sort|partition|primary|foreign|dedup|lookup|hash|row|map|index|unique|routing|page|next|continuation|pagination|sync|cursor|object|file|i18n|translation|react|list|dict|group|message)_(?:key|token)$/;
const AWS_SECRET_NAME = /aws_?secret|secret_access_key/;
// Unquoted values are printable ASCII up to a delimiter; `&` ends a value after `=` (URL query) but not after `:`.
const VALUE_STOP = /[^\x21-\x7e]|["'`,;&()[\]{}<>]/;
const COLON_VALUE_STOP = /[^\x21-\x7e]|["'`,;()[\]{}<>]/;
const NON_VALUES = new Set(
  'null none nil undefined true false yes no on off required optional string str int number boolean bool any text env secret password passwd pass pwd token example placeholder redacted hidden masked empty todo tbd fixme dummy sample default'.split(
    ' ',
  ),
);
const PLACEHOLDER_HINT = /your|example|placeholder|redacted|changeme|replace|insert|x{4,}|\*{3,}|\.\.\.|…/i;
// Vendor tokens are long and random, so only unmistakable filler counts (a random 160-char key contains `xxx` ~0.5%).
const TOKEN_PLACEHOLDER = /x{5,}|X{5,}|\.\.\.|…|example|EXAMPLE|your|YOUR|^(.)\1+$/;
const CREDENTIAL_WORD = /(?:password|passwd|pwd|secret|token|api_?key|apikey|credentials?)$/i;

/**
 * All secrets in `text`, non-overlapping and sorted by start. Already-redacted markers (`[secret:kind]`) are
 * never matched again, so redaction is idempotent.
 */
export function findSecrets(text: string): SecretFinding[] {
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
  for (const m of text.matchAll(CONNECTION_URL)) {
    const [s, e] = m.indices?.[1] ?? [0, 0];
    const pw = text.slice(s, e);
    if (pw.length >= 3 && !isPlaceholder(pw) && !NON_VALUES.has(pw.toLowerCase())) add('connection_string', s, e);
  }
  for (const [re, kind] of [
    [BEARER, 'bearer_token'],
    [BASIC, 'basic_auth'],
  ] as const) {
    for (const m of text.matchAll(re)) {
      const [s, e] = m.indices?.[1] ?? [0, 0];
      if (looksRandom(text.slice(s, e), kind === 'basic_auth' ? 8 : 20)) add(kind, s, e);
    }
  }
  for (const m of text.matchAll(ASSIGNMENT)) scanAssignment(text, m, add);

  // Already-redacted markers outrank everything, so nothing inside them is found again.
  for (const m of text.matchAll(REDACTED)) candidates.push({ kind: 'api_key', start: m.index, end: m.index + m[0].length, rank: -1 });
  candidates.sort((a, b) => a.rank - b.rank || a.start - b.start || b.end - a.end);
  return keepNonOverlapping(candidates)
    .filter((c) => c.rank >= 0)
    .map(({ kind, start, end }) => ({ kind, start, end }));
}

/** Classifies one `<name><op><value>` match as a password, an AWS secret key, a generic API key, or nothing. */
function scanAssignment(text: string, m: RegExpExecArray, add: (k: SecretKind, s: number, e: number) => void): void {
  const op = m[2] ?? '';
  const valueStart = m.index + m[0].length;
  if (text[valueStart] === '=' || text[valueStart] === '>') return; // `==`, `===`, `=>` comparisons
  const name = keyName(text, m.index, m[1] ?? '');
  if (NOT_SECRET_NAME.test(name)) return;
  const isPassword = PASSWORD_NAME.test(name);
  if (!isPassword && (!GENERIC_NAME.test(name) || name === 'key')) return;

  const quote = text[valueStart];
  let start = valueStart;
  let end: number;
  if (quote === '"' || quote === "'" || quote === '`') {
    start = valueStart + 1;
    end = start;
    while (end < text.length && end - start < 1024 && text[end] !== quote && text[end] !== '\n') end++;
    if (text[end] !== quote) return;
  } else {
    const colon = op === ':' || op === '：';
    const stop = colon ? COLON_VALUE_STOP : VALUE_STOP;
    end = start;
    while (end < text.length && end - start < 1024 && !stop.test(text[end] ?? ' ')) end++;
    if (isReference(text.slice(start, end), text[end])) return;
    // `password: reset it in settings` is prose; a YAML or header value runs to the end of its line.
    if (colon && !/^[ \t]*(?:$|[\r\n,;}\]，。；、])/.test(text.slice(end, end + 2))) return;
  }
  const value = text.slice(start, end);
  if (value.length === 0 || isPlaceholder(value) || NON_VALUES.has(value.toLowerCase())) return;
  if (isPassword) {
    if (value.length >= 4 && !/^(?:[~.]?\/|[A-Za-z]:\\)/.test(value)) add('password', start, end); // PWD=/home/x is a path
  } else if (AWS_SECRET_NAME.test(name) && /^[A-Za-z0-9/+]{40}$/.test(value) && entropy(value) >= 3.5) {
    add('aws_secret_key', start, end);
  } else if (!/\s|:\/\//.test(value) && looksRandom(value, 16)) {
    add('api_key', start, end);
  }
}

/** The full assignment name, snake-cased: `DB_PASSWORD` → `db_password`, `x-api-key` → `x_api_key`, `clientSecret` → `client_secret`. */
function keyName(text: string, at: number, keyword: string): string {
  let s = at;
  while (s > 0 && at - s < 64 && isNameChar(text.charCodeAt(s - 1))) s--;
  const raw = text.slice(s, at) + keyword;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 45 || c === 46) out += '_'; // '-' '.'
    else if (c >= 65 && c <= 90) {
      const p = raw.charCodeAt(i - 1);
      if ((p >= 97 && p <= 122) || (p >= 48 && p <= 57)) out += '_'; // camelCase boundary
      out += String.fromCharCode(c + 32);
    } else out += raw[i];
  }
  return out.replace(/^_+/, '');
}

/** `[A-Za-z0-9_.-]`, by char code: this runs once per assignment-like match. */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46;
}

/** `process.env.X`, `config.db.password`, `getpass()`, `os.environ[...]`, `password=password`: code, not a secret. */
function isReference(value: string, next: string | undefined): boolean {
  if (!/^[A-Za-z_$][\w$.]*$/.test(value)) return /^[$%]|^\{\{/.test(value);
  return value.startsWith('$') || value.includes('.') || next === '(' || next === '[' || CREDENTIAL_WORD.test(value);
}

function isPlaceholder(value: string): boolean {
  return PLACEHOLDER_HINT.test(value) || /^(.)\1+$/.test(value) || /^\$\{|^<.*>$|^%\w+%$|^\{\{/.test(value);
}

/** Random-looking: long enough, at least two of lower/upper/digit, and ≥ 3 bits of Shannon entropy per char. */
function looksRandom(value: string, minLength: number): boolean {
  if (value.length < minLength || isPlaceholder(value)) return false;
  const classes = Number(/[a-z]/.test(value)) + Number(/[A-Z]/.test(value)) + Number(/\d/.test(value));
  return classes >= 2 && entropy(value) >= 3;
}

/** Shannon entropy in bits per character. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const c of counts.values()) bits -= (c / value.length) * Math.log2(c / value.length);
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
 * Keeps, among spans sorted best-first, each span that overlaps no span kept before it; returns them by start.
 * Kept spans stay sorted, so each check is a binary search (detectors also run on megabyte transcripts).
 */
export function keepNonOverlapping<T extends { start: number; end: number }>(bestFirst: readonly T[]): T[] {
  const kept: T[] = [];
  for (const c of bestFirst) {
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((kept[mid]?.start ?? 0) < c.start) lo = mid + 1;
      else hi = mid;
    }
    const before = kept[lo - 1];
    const after = kept[lo];
    if ((before === undefined || before.end <= c.start) && (after === undefined || after.start >= c.end)) {
      kept.splice(lo, 0, c);
    }
  }
  return kept;
}

/**
 * Replaces each secret with `[secret:<kind>]`, keeping what is around it: `password=[secret:password]`,
 * `postgres://bob:[secret:connection_string]@db:5432/x`. Idempotent. `findings` refer to the input text.
 */
export function redactSecrets(text: string): { text: string; findings: SecretFinding[] } {
  const findings = findSecrets(text);
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.start) + `[secret:${f.kind}]`;
    at = f.end;
  }
  return { text: out + text.slice(at), findings };
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
  api_key: 'an API key or secret',
};

/** Prose naming the distinct kinds in order of appearance: "an OpenAI API key and a password". */
export function describeSecretKinds(findings: readonly SecretFinding[]): string {
  const phrases = [...new Set(findings.map((f) => f.kind))].map((k) => KIND_PHRASES[k]);
  if (phrases.length === 0) return 'no secret';
  if (phrases.length === 1) return phrases[0] ?? '';
  return `${phrases.slice(0, -1).join(', ')} and ${phrases.at(-1) ?? ''}`;
}
