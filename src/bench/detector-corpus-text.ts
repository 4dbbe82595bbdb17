/** Shared pieces of the held-out detector corpus: alphabets, random strings, case drafts and the contexts a value sits in. */
import type { SeededRandom } from '../script/seeded-rng.js';

/** Language of the sentence around a value (the value itself may be ASCII either way). */
export type CorpusLang = 'en' | 'zh';

/** One generated case before the generator stamps its family and language on it. */
export interface CaseDraft {
  text: string;
  /** Expected kinds, repeated when a text holds several; `[]` for a near-miss. */
  expect: string[];
  /** The exact substrings the detector should cover, parallel to `expect` (`values[i]` is the `expect[i]` value). */
  values: string[];
}

/** Makes one case of a family in the given language. */
export type CaseMaker = (rng: SeededRandom, lang: CorpusLang) => CaseDraft;

/** A family of cases: one vendor format or one kind of near-miss. */
export interface CaseFamily {
  detector: 'secret' | 'pii';
  family: string;
  make: CaseMaker;
}

export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
export const HEX = '0123456789abcdef';
export const ALNUM = UPPER + LOWER + DIGITS;
export const UPPER_ALNUM = UPPER + DIGITS;
export const BASE64 = `${ALNUM}+/`;
export const BASE64URL = `${ALNUM}-_`;

/** `n` characters drawn uniformly from `alphabet`. */
export function randomString(rng: SeededRandom, alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[rng.int(alphabet.length)];
  return s;
}

/** Digits only, the first one not zero (account numbers, phone subscriber parts). */
export function randomDigits(rng: SeededRandom, n: number, leadingZero = true): string {
  const first = leadingZero ? randomString(rng, DIGITS, 1) : String(rng.between(1, 9));
  return first + randomString(rng, DIGITS, n - 1);
}

/** RFC 4648 §5 base64url of a UTF-8 string, without padding (JWT segments, RFC 7515 §2). */
export function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/u, '');
}

/** Replaces `{name}` placeholders; unknown names are left as they are so a typo shows in the output. */
export function fill(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
}

/** A positive case with one value of one kind. */
export function one(text: string, kind: string, value: string): CaseDraft {
  return { text, expect: [kind], values: [value] };
}

/** A near-miss: nothing in `text` may be flagged. */
export function none(text: string): CaseDraft {
  return { text, expect: [], values: [] };
}

/** A vendor token with the names it goes by in configuration and in prose. */
export interface NamedToken {
  value: string;
  /** Environment variable name, e.g. `OPENAI_API_KEY`. */
  env: string;
  /** Words for it in an English and a Chinese sentence. */
  en: string;
  zh: string;
}

const CHAT_EN = [
  'here is my {en}: {value} - can you check why the request fails?',
  'I rotated the old one, the new {en} is {value}',
  'Use {value} for the staging deploy.',
  'why does {value} give me a 401?',
  'Remember my {en} {value} for next time.',
];
const CHAT_ZH = [
  '我的{zh}是 {value}，帮我看看为什么请求失败',
  '旧的已经作废了，新的{zh}：{value}',
  '部署到预发环境的时候用这个 {value}',
  '为什么 {value} 一直返回 401？',
  '帮我记住这个{zh}：{value}，下次要用',
];
const ZH_LEADS = ['这是我的配置：', '帮我看一下这段配置有没有问题：', '生产环境的设置如下', '报错了，日志在这里：'];

/**
 * Puts a vendor token into one of eight contexts a memory actually receives: a chat sentence, a shell command,
 * JSON, YAML, a .env file, source code, a log line, or a fenced block. In Chinese the sentence, the comment or the
 * lead-in before the block is Chinese.
 */
export function inContext(rng: SeededRandom, lang: CorpusLang, t: NamedToken): string {
  const vars = { ...t, lower: t.env.toLowerCase(), camel: camel(t.env) };
  const zh = lang === 'zh';
  switch (rng.int(8)) {
    case 0:
      return fill(rng.pick(zh ? CHAT_ZH : CHAT_EN), vars);
    case 1:
      return fill(
        rng.pick([
          'export {env}={value}',
          '{env}={value} npm run deploy',
          '$ {env}="{value}" ./scripts/release.sh --dry-run',
          'docker run -e {env}={value} -p 8080:8080 acme/api:latest',
        ]),
        vars,
      ) + (zh ? '  # 本地调试用' : '');
    case 2:
      return (zh ? `${rng.pick(ZH_LEADS)}\n` : '') + fill('{"{camel}": "{value}", "region": "eu-west-1", "debug": false}', vars);
    case 3:
      return fill(zh ? 'service:\n  name: billing\n  # 密钥，不要提交\n  {lower}: {value}\n  timeout: 30' : 'service:\n  name: billing\n  {lower}: {value}\n  timeout: 30', vars);
    case 4:
      return fill(zh ? '# 生产环境\nNODE_ENV=production\n{env}={value}\nPORT=3000' : 'NODE_ENV=production\n{env}={value}\nPORT=3000\nLOG_LEVEL=info', vars);
    case 5:
      return (zh ? '代码里是这样写的：' : '') + fill(
        rng.pick([
          'client = Client(api_key="{value}", timeout=30)',
          "const {camel} = '{value}';",
          '{camel} := "{value}"',
          'os.environ["{env}"] = "{value}"',
        ]),
        vars,
      );
    case 6:
      return fill(
        rng.pick([
          '2024-05-17T10:22:31.512Z WARN config loaded {env}={value} from .env',
          '[2024-05-17 10:22:31] ERROR auth failed for token {value} (status=401)',
          'May 17 10:22:31 api-7f9c node[3121]: using {en} {value}',
        ]),
        vars,
      ) + (zh ? '\n这个日志是不是把密钥打出来了？' : '');
    default:
      return `${zh ? rng.pick(ZH_LEADS) : 'Here is the snippet:'}\n\`\`\`bash\nexport ${t.env}=${t.value}\ncurl -s https://api.example.com/v1/status\n\`\`\``;
  }
}

function camel(env: string): string {
  return env.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
