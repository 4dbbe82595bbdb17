// Tests of the credential detector: corpus recall and false positives, every kind, redaction format and idempotency.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { measureDetector } from './detector-metrics.js';
import type { SecretKind } from './secret-scan.js';
import { describeSecretKinds, findSecrets, keepNonOverlapping, redactSecrets } from './secret-scan.js';

interface CorpusLine {
  text: string;
  expect: string[];
}
const corpus: CorpusLine[] = readFileSync(
  new URL('../../test/fixtures/secrets-corpus.jsonl', import.meta.url),
  'utf8',
)
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as CorpusLine);

/** Deterministic filler with the charset of a real token (a seeded LCG, so every run sees the same strings). */
function fake(length: number, charset: string, seed = 7): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += charset[Math.floor(x / 65536) % charset.length];
  }
  return out;
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const URLSAFE = `${ALNUM}-_`;

describe('secret corpus', () => {
  const positives = corpus.filter((c) => c.expect.length > 0);
  const nearMisses = corpus.filter((c) => c.expect.length === 0);

  it('holds at least 60 realistic secrets covering every kind and at least 40 near-misses', () => {
    expect(positives.length).toBeGreaterThanOrEqual(60);
    expect(nearMisses.length).toBeGreaterThanOrEqual(40);
    const kinds = new Set(positives.flatMap((c) => c.expect));
    const all: SecretKind[] = [
      'openai_key',
      'anthropic_key',
      'aws_access_key',
      'aws_secret_key',
      'github_token',
      'gitlab_token',
      'slack_token',
      'slack_webhook',
      'stripe_key',
      'google_api_key',
      'npm_token',
      'huggingface_token',
      'sendgrid_key',
      'jwt',
      'private_key',
      'password',
      'connection_string',
      'bearer_token',
      'basic_auth',
      'telegram_token',
      'discord_token',
      'mailgun_key',
      'shopify_token',
      'service_token',
      'api_key',
    ];
    expect([...kinds].sort()).toEqual([...all].sort());
  });

  it('detects at least 95% of the secrets and flags at most 3% of the near-misses', () => {
    const m = measureDetector(corpus, (t) => findSecrets(t).map((f) => f.kind));
    console.log(
      `secret detector: recall ${m.recall.toFixed(4)} over ${positives.length} texts, ` +
        `false-positive rate ${m.falsePositiveRate.toFixed(4)} over ${nearMisses.length} near-misses`,
    );
    expect(m.recall).toBeGreaterThanOrEqual(0.95);
    expect(m.falsePositiveRate).toBeLessThanOrEqual(0.03);
    expect(m.unexpected).toEqual([]);
  });
});

describe('findSecrets', () => {
  const cases: Array<[SecretKind, string, string, string?]> = [
    ['openai_key', 'key: ', `sk-proj-${fake(120, URLSAFE)}`],
    ['openai_key', 'legacy ', `sk-${fake(48, ALNUM)}`],
    ['anthropic_key', 'ANTHROPIC_API_KEY=', `sk-ant-api03-${fake(93, URLSAFE)}AA`],
    ['aws_access_key', 'id ', `AKIA${fake(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`],
    ['aws_secret_key', 'aws_secret_access_key = ', fake(40, `${ALNUM}+/`)],
    ['github_token', 'token ', `ghp_${fake(36, ALNUM)}`],
    ['github_token', '', `github_pat_${fake(22, ALNUM)}_${fake(59, ALNUM, 3)}`],
    ['gitlab_token', '', `glpat-${fake(20, URLSAFE)}`],
    ['gitlab_token', 'GITLAB_TOKEN=', `glpat-${fake(27, URLSAFE)}.01.${fake(9, 'abcdefghijklmnopqrstuvwxyz0123456789')}`],
    ['slack_token', 'bot ', `xoxb-123456789012-1234567890123-${fake(24, ALNUM)}`],
    ['slack_webhook', 'hook ', `https://hooks.slack.com/services/T01ABCDEF/B02GHIJKLM/${fake(24, ALNUM)}`],
    ['stripe_key', '', `sk_live_${fake(24, ALNUM)}`],
    ['google_api_key', '', `AIza${fake(35, URLSAFE)}`],
    ['npm_token', '', `npm_${fake(36, ALNUM)}`],
    ['huggingface_token', '', `hf_${fake(34, ALNUM.slice(0, 52))}`],
    ['sendgrid_key', '', `SG.${fake(22, URLSAFE)}.${fake(43, URLSAFE, 9)}`],
    ['jwt', 'Cookie: s=', `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${fake(43, URLSAFE)}`],
    ['password', 'DB_PASSWORD=', 'Xk9#mq2!vLp'],
    ['password', '"password": "', 'hunter22', '"}'],
    ['password', '密码：', 'Zx8vQ2pL'],
    ['password', 'DB_PASSWORD=', 'P@ssw0rd&3'],
    ['password', 'the wifi password is ', 'Summer2023$', '.'],
    ['password', '路由器后台密码是', 'Dragon2019$', '，别告诉别人'],
    ['connection_string', 'postgres://bob:', 'pA55w0rd', '@db:5432/x'],
    ['bearer_token', 'Authorization: Bearer ', fake(40, URLSAFE)],
    ['basic_auth', 'Authorization: Basic ', 'ZGVwbG95OnMzY3IzdA=='],
    ['api_key', 'X-API-Key: ', fake(32, ALNUM)],
    ['api_key', 'https://api.acme.io/v2/items?access_token=', fake(40, ALNUM, 11), '&page=2'],
  ];
  it.each(cases)('finds a %s and spans exactly its value', (kind, prefix, secret, suffix = '') => {
    const text = `${prefix}${secret}${suffix} \n`;
    expect(findSecrets(text)).toEqual([{ kind, start: prefix.length, end: prefix.length + secret.length }]);
  });

  it('spans a whole PEM private key block, also when JSON-escaped or truncated', () => {
    const body = `${fake(64, `${ALNUM}+/`)}\n${fake(64, `${ALNUM}+/`, 5)}`;
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;
    expect(findSecrets(`key:\n${pem}\nbye`)).toEqual([
      { kind: 'private_key', start: 5, end: 5 + pem.length },
    ]);
    const escaped = `{"private_key": "${pem.replaceAll('\n', '\\n')}"}`;
    expect(findSecrets(escaped).map((f) => f.kind)).toEqual(['private_key']);
    expect(findSecrets(`-----BEGIN PRIVATE KEY-----\n${body}`).map((f) => f.kind)).toEqual(['private_key']);
  });

  it('prefers the vendor kind when a generic assignment holds a vendor token', () => {
    expect(findSecrets(`OPENAI_API_KEY=sk-proj-${fake(80, URLSAFE)}`).map((f) => f.kind)).toEqual([
      'openai_key',
    ]);
    expect(
      findSecrets(`token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.${fake(43, URLSAFE)}`).map((f) => f.kind),
    ).toEqual(['jwt']);
  });

  it.each([
    'The password must be at least 12 characters long.',
    'The password is required.',
    'send the password to bob@example.com',
    '密码是必填的',
    'STRIPE_PUBLISHABLE_KEY=pk_live_1q9q5kiTut1s9CG0MpyKw9xE',
    'password=',
    'password: reset it from the settings page',
    'password: string;',
    'conn = connect(user=user, password=password)',
    'password = getpass.getpass()',
    'if (password === confirmPassword) {',
    'const key = process.env.OPENAI_API_KEY;',
    'API_KEY=${API_KEY}',
    'api_key=<your-key>',
    'Set OPENAI_API_KEY=sk-... first',
    'request_id=550e8400-e29b-41d4-a716-446655440000',
    'commit 3f5e2a9c0d1b4e6f7a8b9c0d1e2f3a4b5c6d7e8f',
    'cache_key=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    'postgres://bob@db.internal:5432/app',
    'mysql://root:<password>@localhost/db',
    'PWD=/home/bob/src',
    'AKIAXXXXXXXXXXXXXXXX',
    '[secret:openai_key]',
    'Use the -----BEGIN PRIVATE KEY----- header when pasting the key.',
  ])('does not flag the near-miss %j', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('returns non-overlapping findings sorted by start', () => {
    const text = corpus.map((c) => c.text).join('\n');
    const found = findSecrets(text);
    for (let i = 1; i < found.length; i++)
      expect(found[i]?.start).toBeGreaterThanOrEqual(found[i - 1]?.end ?? 0);
  });

  it('scans a megabyte of mixed text within a generous bound', () => {
    const unit = `${corpus.map((c) => c.text).join('\n')}\nThe team reviewed release 1.2.3 on 2024-05-06. 我们明天讨论设计。\n`;
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length)).slice(0, 1_000_000);
    findSecrets(text.slice(0, 10_000)); // compile the regexes outside the measurement
    // CPU time, not wall time: other test workers on a shared box stretch wall time, not the work done here.
    const cpu0 = process.cpuUsage();
    findSecrets(text);
    const cpu = process.cpuUsage(cpu0);
    const ms = (cpu.user + cpu.system) / 1000;
    console.log(`findSecrets on 1 MB: ${ms.toFixed(1)} ms CPU`);
    expect(ms).toBeLessThan(5000); // ~50-250 ms measured; only a quadratic blow-up (minutes) can reach this
  });
});

describe('redactSecrets', () => {
  it('keeps the key of a key=value pair and the scheme, user and host of a URL', () => {
    expect(redactSecrets('password=hunter2').text).toBe('password=[secret:password]');
    expect(redactSecrets('postgres://bob:s3cr3tPw@db:5432/x').text).toBe(
      'postgres://bob:[secret:connection_string]@db:5432/x',
    );
    expect(redactSecrets('{"password": "hunter22", "user": "bob"}').text).toBe(
      '{"password": "[secret:password]", "user": "bob"}',
    );
  });

  it('replaces a vendor token whole and reports findings against the input', () => {
    const key = `sk-proj-${fake(80, URLSAFE)}`;
    const r = redactSecrets(`use ${key} now`);
    expect(r.text).toBe('use [secret:openai_key] now');
    expect(r.findings).toEqual([{ kind: 'openai_key', start: 4, end: 4 + key.length }]);
  });

  it('is idempotent on every corpus line', () => {
    for (const c of corpus) {
      const once = redactSecrets(c.text).text;
      expect(redactSecrets(once)).toEqual({ text: once, findings: [] });
    }
  });

  it('is idempotent on random mixes of whole and cut secrets, near-misses and noise (seeded)', () => {
    const pieces = corpus.flatMap((c) => [
      c.text,
      c.text.slice(0, c.text.length >> 1),
      c.text.slice(c.text.length / 3),
    ]);
    const fragments = fc.oneof(
      fc.constantFrom(...pieces),
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        ' ',
        '\n',
        '=',
        ':',
        '"',
        "'",
        '@',
        '-',
        '_',
        'password=',
        'api_key: ',
        'Bearer ',
        'sk-',
        '://',
      ),
      fc.constantFrom('token=', '`', '-----BEGIN PRIVATE KEY-----', '[secret:', ']', 'AIza', 'ghp_'),
    );
    fc.assert(
      fc.property(fc.array(fragments, { maxLength: 10 }), (parts) => {
        const once = redactSecrets(parts.join('')).text;
        expect(redactSecrets(once).text).toBe(once);
      }),
      { seed: 20260101, numRuns: 500 },
    );
  });

  it.each([
    [
      'a value cut short by a key inside it',
      `password=OPENAI_API_KEY=sk-proj-${fake(60, URLSAFE)}=xoxb-your-bot-token`,
    ],
    [
      'a token glued to a private key',
      `AIza${fake(35, URLSAFE)}-----BEGIN EC PRIVATE KEY-----\n${fake(64, ALNUM)}`,
    ],
    [
      'a generic value running into a vendor key',
      `NPM_TOKEN=npm_${fake(36, ALNUM)}OPENAI_API_KEY=sk-proj-${fake(60, URLSAFE)}`,
    ],
  ])('stays idempotent for %s', (_what, text) => {
    const once = redactSecrets(text);
    expect(redactSecrets(once.text).findings).toEqual([]);
    expect(once.findings.length).toBeGreaterThanOrEqual(2);
  });

  it('leaves text without secrets unchanged', () => {
    const text = 'Ship the release on Friday; the token budget is 4096.';
    expect(redactSecrets(text)).toEqual({ text, findings: [] });
  });
});

describe('describeSecretKinds', () => {
  const at = (kind: SecretKind) => ({ kind, start: 0, end: 1 });
  it('names distinct kinds in order of appearance for an error message', () => {
    expect(describeSecretKinds([at('openai_key')])).toBe('an OpenAI API key');
    expect(describeSecretKinds([at('password'), at('openai_key'), at('password')])).toBe(
      'a password and an OpenAI API key',
    );
    expect(describeSecretKinds([at('jwt'), at('private_key'), at('connection_string')])).toBe(
      'a JSON Web Token, a private key and a connection string with a password',
    );
    expect(describeSecretKinds([])).toBe('no secret');
  });
});

describe('keepNonOverlapping', () => {
  it('keeps each span that overlaps no better one and returns them by start', () => {
    const spans = [
      { id: 'a', start: 10, end: 20 },
      { id: 'b', start: 15, end: 30 },
      { id: 'c', start: 0, end: 10 },
      { id: 'd', start: 20, end: 25 },
      { id: 'e', start: 5, end: 12 },
    ];
    expect(keepNonOverlapping(spans).map((s) => s.id)).toEqual(['c', 'a', 'd']);
  });
});
