/** A small built-in credential detector, used by `add` when the caller passes no `detectSecrets` (SEEDS §2.3). */

/** A credential found in text. */
export interface SecretFinding {
  kind: string;
}

/** Detects credentials in text; the lead's `findSecrets` from `src/script/secret-scan.ts` fits this shape. */
export type SecretDetector = (text: string) => readonly SecretFinding[];

const PATTERNS: readonly [string, RegExp][] = [
  ['private_key', /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/],
  ['aws_access_key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/],
  ['api_key', /\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{20,}/],
  ['github_token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/],
  ['slack_token', /\bxox[abprs]-[A-Za-z0-9-]{10,}/],
  ['google_api_key', /\bAIza[0-9A-Za-z_-]{35}\b/],
  ['jwt', /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/],
  ['url_credentials', /\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]{3,}@/i],
  [
    'password',
    /\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)\s*[:=]\s*["']?[^\s"']{6,}/i,
  ],
  ['password', /(?:密码|口令|密钥|令牌)\s*[:：=]\s*\S{4,}/],
];

/** Built-in detector: well-known token formats and `password = …` style assignments. */
export function detectBasicSecrets(text: string): SecretFinding[] {
  return PATTERNS.filter(([, re]) => re.test(text)).map(([kind]) => ({ kind }));
}
