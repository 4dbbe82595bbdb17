/**
 * Secret families of the held-out detector corpus, written from the vendors' documented token formats (not from
 * the detector's patterns), and the near-misses a memory also receives: hashes, ids, placeholders, public keys.
 */
import type { SeededRandom } from '../script/seeded-rng.js';
import {
  ALNUM,
  BASE64,
  BASE64URL,
  DIGITS,
  HEX,
  LOWER,
  UPPER,
  UPPER_ALNUM,
  base64url,
  fill,
  inContext,
  none,
  one,
  randomDigits,
  randomString,
  type CaseDraft,
  type CaseFamily,
  type CorpusLang,
  type NamedToken,
} from './detector-corpus-text.js';

// Over 400 lines on purpose (STYLE §4): one table of ~45 families, each a few lines of format plus its contexts;
// splitting it would scatter the formats a reviewer checks against the vendors' documentation.

// --- vendor formats -------------------------------------------------------------------------------------------

/** AWS IAM: `AKIA` long-term, `ASIA` temporary (STS) access key ids, 20 upper-case alphanumerics. */
const awsKeyId = (rng: SeededRandom): string => rng.pick(['AKIA', 'ASIA']) + randomString(rng, UPPER_ALNUM, 16);
/** AWS secret access key: 40 base64 characters. */
const awsSecret = (rng: SeededRandom): string => randomString(rng, BASE64, 40);

/** GitHub (changelog 2021-03-31): ghp_/gho_/ghu_/ghs_/ghr_ then 36 of [A-Za-z0-9]. */
const githubClassic = (rng: SeededRandom): string => rng.pick(['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']) + randomString(rng, ALNUM, 36);
/** GitHub fine-grained PAT: `github_pat_`, 22 alphanumerics, `_`, 59 alphanumerics. */
const githubFineGrained = (rng: SeededRandom): string => `github_pat_${randomString(rng, ALNUM, 22)}_${randomString(rng, ALNUM, 59)}`;
/** GitLab PAT: `glpat-` then 20 of [A-Za-z0-9_-]. */
const gitlabPat = (rng: SeededRandom): string => `glpat-${randomString(rng, BASE64URL, 20)}`;
/** GitLab routable PAT (17.x, cells): `glpat-<base64url payload>.<version>.<crc>`, 43 characters at least. */
const gitlabRoutable = (rng: SeededRandom): string =>
  `glpat-${randomString(rng, BASE64URL, rng.between(27, 40))}.01.${randomString(rng, LOWER + DIGITS, 9)}`;
/** OpenAI project / service-account keys: 74 base64url, the marker `T3BlbkFJ` (base64 "OpenAI"), 74 more. */
const openaiLong = (prefix: string) => (rng: SeededRandom): string =>
  `${prefix}${randomString(rng, BASE64URL, 74)}T3BlbkFJ${randomString(rng, BASE64URL, 74)}`;
/** OpenAI legacy user key: `sk-`, 20 alphanumerics, `T3BlbkFJ`, 20 alphanumerics (51 characters). */
const openaiLegacy = (rng: SeededRandom): string => `sk-${randomString(rng, ALNUM, 20)}T3BlbkFJ${randomString(rng, ALNUM, 20)}`;
/** Anthropic: `sk-ant-api03-` (or `sk-ant-admin01-`), 93 base64url, `AA` (108 characters for api03). */
const anthropic = (rng: SeededRandom): string =>
  `${rng.chance(0.85) ? 'sk-ant-api03-' : 'sk-ant-admin01-'}${randomString(rng, BASE64URL, 93)}AA`;
/** Slack bot token: `xoxb-<team digits>-<bot digits>-<24 alphanumerics>`. */
const slackBot = (rng: SeededRandom): string =>
  `xoxb-${randomDigits(rng, rng.between(10, 13), false)}-${randomDigits(rng, rng.between(10, 13), false)}-${randomString(rng, ALNUM, 24)}`;
/** Slack user token: `xoxp-<digits>-<digits>-<digits>-<32 hex>`. */
const slackUser = (rng: SeededRandom): string =>
  `xoxp-${randomDigits(rng, 11, false)}-${randomDigits(rng, 11, false)}-${randomDigits(rng, 13, false)}-${randomString(rng, HEX, 32)}`;
/** Stripe secret (`sk_live_`) / restricted (`rk_live_`) keys: 24 alphanumerics (older) or `51…` 99 (current). */
const stripe = (prefix: string) => (rng: SeededRandom): string =>
  prefix + (rng.chance(0.5) ? randomString(rng, ALNUM, 24) : `51${randomString(rng, ALNUM, 97)}`);
/** Google API key: `AIza` then 35 of [A-Za-z0-9_-]. */
const googleKey = (rng: SeededRandom): string => `AIza${randomString(rng, BASE64URL, 35)}`;
/** npm granular / automation token: `npm_` then 36 alphanumerics. */
const npmToken = (rng: SeededRandom): string => `npm_${randomString(rng, ALNUM, 36)}`;
/** Hugging Face user access token: `hf_` then 34 letters. */
const hfToken = (rng: SeededRandom): string => `hf_${randomString(rng, UPPER + LOWER, 34)}`;
/** SendGrid: `SG.<22 base64url>.<43 base64url>`. */
const sendgrid = (rng: SeededRandom): string => `SG.${randomString(rng, BASE64URL, 22)}.${randomString(rng, BASE64URL, 43)}`;

/** JWT (RFC 7519): base64url(header).base64url(claims).signature; 43 signature characters for HS256, 342 for RS256. */
function jwt(rng: SeededRandom): string {
  const rs = rng.chance(0.4);
  const header = rs ? { alg: 'RS256', typ: 'JWT', kid: randomString(rng, HEX, 16) } : { alg: 'HS256', typ: 'JWT' };
  const iat = 1_700_000_000 + rng.int(60_000_000);
  const claims = rng.chance(0.5)
    ? { sub: randomDigits(rng, 10), name: rng.pick(['Jane Roe', 'svc-billing', 'ops']), iat, exp: iat + 3600 }
    : { iss: 'https://auth.example.com/', aud: 'api', sub: `user_${randomString(rng, ALNUM, 12)}`, scope: 'read write', iat, exp: iat + 900 };
  return `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}.${randomString(rng, BASE64URL, rs ? 342 : 43)}`;
}

/** PEM blocks (RFC 7468) with the DER / openssh-key-v1 prefixes real keys start with; base64 body in 64-char lines. */
const PEM: Record<string, { label: string; start: string; chars: number; width: number }> = {
  rsa: { label: 'RSA PRIVATE KEY', start: 'MIIEowIBAAKCAQEA', chars: 1588, width: 64 },
  ec: { label: 'EC PRIVATE KEY', start: 'MHcCAQEEI', chars: 164, width: 64 },
  openssh: { label: 'OPENSSH PRIVATE KEY', start: 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW', chars: 387, width: 70 },
  pkcs8: { label: 'PRIVATE KEY', start: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', chars: 1624, width: 64 },
};

function pemBody(rng: SeededRandom, start: string, chars: number, width: number): string[] {
  const b64 = start + randomString(rng, BASE64, chars - start.length - 2) + (rng.chance(0.5) ? '==' : randomString(rng, BASE64, 2));
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += width) lines.push(b64.slice(i, i + width));
  return lines;
}

function pemCase(type: keyof typeof PEM) {
  return (rng: SeededRandom, lang: CorpusLang): CaseDraft => {
    const p = PEM[type] as (typeof PEM)[string];
    const lines = pemBody(rng, p.start, p.chars, p.width);
    const begin = `-----BEGIN ${p.label}-----`;
    const end = `-----END ${p.label}-----`;
    const zh = lang === 'zh';
    // Only Google service accounts carry a key in JSON, and theirs is PKCS #8.
    switch (type === 'pkcs8' ? rng.int(4) : 1 + rng.int(3)) {
      case 0: {
        // A service-account JSON keeps the PEM on one line with escaped newlines.
        const body = lines.join('\\n');
        return one(
          `${zh ? '服务账号的 JSON：' : ''}{"type": "service_account", "project_id": "acme-prod", "private_key": "${begin}\\n${body}\\n${end}\\n", "client_email": "ci@acme-prod.iam.gserviceaccount.com"}`,
          'private_key',
          body,
        );
      }
      case 1: {
        // Pasted in part: the header and the first lines, no footer.
        const body = lines.slice(0, 3).join('\n');
        return one(`${zh ? '我把私钥开头贴过来了：' : 'pasted the start of my key: '}${begin}\n${body}`, 'private_key', body);
      }
      case 2: {
        const body = lines.join('\n');
        return one(`${zh ? '部署用的私钥如下' : 'deploy key:'}\n\`\`\`\n${begin}\n${body}\n${end}\n\`\`\``, 'private_key', body);
      }
      default: {
        const body = lines.join('\n');
        return one(`${zh ? '~/.ssh/id_deploy 的内容：\n' : ''}${begin}\n${body}\n${end}\n`, 'private_key', body);
      }
    }
  };
}

// --- contexts for vendor tokens ---------------------------------------------------------------------------------

/** A vendor token family: the token placed by `inContext`, plus the format-specific contexts in `extra`. */
function vendor(
  kind: string,
  make: (rng: SeededRandom) => string,
  names: { env: string[]; en: string; zh: string },
  extra?: (rng: SeededRandom, lang: CorpusLang, value: string) => string | undefined,
) {
  return (rng: SeededRandom, lang: CorpusLang): CaseDraft => {
    const value = make(rng);
    const special = extra && rng.chance(0.25) ? extra(rng, lang, value) : undefined;
    const token: NamedToken = { value, env: rng.pick(names.env), en: names.en, zh: names.zh };
    return one(special ?? inContext(rng, lang, token), kind, value);
  };
}

const githubRemote = (rng: SeededRandom, lang: CorpusLang, v: string): string =>
  (lang === 'zh' ? '远程地址配成了这样：' : 'my remote is set to ') +
  fill(rng.pick(['https://{v}@github.com/acme/api.git', 'https://x-access-token:{v}@github.com/acme/api.git']), { v });

const npmrc = (_rng: SeededRandom, lang: CorpusLang, v: string): string =>
  `${lang === 'zh' ? '# ~/.npmrc 内容\n' : '# ~/.npmrc\n'}registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${v}`;

const slackWebhook = (rng: SeededRandom, lang: CorpusLang): CaseDraft => {
  const secret = randomString(rng, ALNUM, 24);
  const url = `https://hooks.slack.com/services/T${randomString(rng, UPPER_ALNUM, rng.between(8, 10))}/B${randomString(rng, UPPER_ALNUM, rng.between(8, 10))}/${secret}`;
  const text = fill(
    rng.pick(
      lang === 'zh'
        ? ['告警发到这个 Slack webhook：{url}', 'SLACK_WEBHOOK_URL={url}  # 告警频道']
        : [
            'curl -X POST -H "Content-type: application/json" --data \'{"text":"deploy done"}\' {url}',
            'SLACK_WEBHOOK_URL={url}',
            'alerts:\n  slack_webhook: "{url}"',
            'post build results to {url} please',
          ],
    ),
    { url },
  );
  return one(text, 'slack_webhook', secret);
};

// --- AWS ----------------------------------------------------------------------------------------------------------

function awsPair(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const id = awsKeyId(rng);
  const secret = awsSecret(rng);
  const zh = lang === 'zh';
  const text = fill(
    rng.pick([
      '{c}AWS_ACCESS_KEY_ID={id}\nAWS_SECRET_ACCESS_KEY={secret}\nAWS_DEFAULT_REGION=eu-central-1',
      '{c}export AWS_ACCESS_KEY_ID={id}\nexport AWS_SECRET_ACCESS_KEY={secret}',
      '{c}[default]\naws_access_key_id = {id}\naws_secret_access_key = {secret}\nregion = us-east-1',
      '{c}provider "aws" {\n  region     = "us-west-2"\n  access_key = "{id}"\n  secret_key = "{secret}"\n}',
      '{c}docker run -e AWS_ACCESS_KEY_ID={id} -e AWS_SECRET_ACCESS_KEY={secret} amazon/aws-cli s3 ls',
    ]),
    { id, secret, c: zh ? rng.pick(['# 测试账号的凭证\n', '这是 CI 用的 AWS 凭证：\n']) : '' },
  );
  return { text, expect: ['aws_access_key', 'aws_secret_key'], values: [id, secret] };
}

// --- generic credentials: URLs, passwords, API keys, headers ------------------------------------------------------

const USERS = ['app', 'admin', 'deploy', 'root', 'svc_billing', 'alice', 'ci-bot'];
const HOSTS = ['db.internal', '10.0.3.12', 'prod-db.cluster-c9x.eu-central-1.rds.amazonaws.com', 'localhost', 'pg-primary.acme.lan'];
const WORDS = ['Winter', 'Summer', 'Dragon', 'Falcon', 'Orange', 'Monkey', 'Harbor', 'Cobalt', 'Maple', 'Tiger'];

/** Passwords as people and generators make them: word+year+symbol, random 12-20, leetspeak, dashed passphrase. */
function password(rng: SeededRandom): string {
  switch (rng.int(4)) {
    case 0:
      return `${rng.pick(WORDS)}${rng.between(2019, 2026)}${rng.pick(['!', '#', '$', '?', ''])}`;
    case 1:
      return randomString(rng, `${ALNUM}!@#%^&*`, rng.between(12, 20));
    case 2:
      return `${rng.pick(['Tr0ub4dor', 'P@ssw0rd', 'S3cur1ty', 'Adm1n', 'Qw3rty'])}${rng.pick(['&3', '!!', '_2024', '#9'])}`;
    default:
      return `${rng.pick(['correct', 'purple', 'silent'])}-${rng.pick(['horse', 'river', 'candle'])}-${rng.pick(['battery', 'moon', 'stone'])}-${rng.between(1, 99)}`;
  }
}

function dbUrl(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const pass = randomString(rng, ALNUM, rng.between(12, 24));
  const scheme = rng.pick(['postgres', 'postgresql', 'mysql', 'mongodb+srv', 'redis', 'amqp']);
  const user = scheme === 'redis' && rng.chance(0.5) ? '' : rng.pick(USERS);
  const url = `${scheme}://${user}:${pass}@${rng.pick(HOSTS)}${scheme === 'mongodb+srv' ? '/app?retryWrites=true' : `:${rng.pick(['5432', '3306', '6379', '5672'])}/${rng.pick(['app', 'crm', 'shop', '0'])}`}`;
  const text = fill(
    rng.pick(
      lang === 'zh'
        ? ['连接串 {url} 不要外传', '数据库地址是 {url}，只读账号', '# 本地开发数据库\nDATABASE_URL={url}']
        : ['DATABASE_URL={url}', 'psql "{url}" -c "select 1"', 'engine = create_engine("{url}")', 'db:\n  url: {url}\n  pool: 10', 'connect with {url} and run the migration'],
    ),
    { url },
  );
  return one(text, 'connection_string', pass);
}

function httpsUrlPassword(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const pass = randomString(rng, ALNUM, rng.between(10, 20));
  const user = rng.pick(USERS);
  const text = fill(
    rng.pick(
      lang === 'zh'
        ? ['用 git clone https://{u}:{p}@git.acme.lan/team/api.git 拉代码', '私有源地址：https://{u}:{p}@pypi.acme.lan/simple']
        : [
            'git clone https://{u}:{p}@git.acme.lan/team/api.git',
            'pip install --index-url https://{u}:{p}@pypi.acme.lan/simple acme-sdk',
            'proxy is http://{u}:{p}@proxy.corp:3128',
            'curl https://{u}:{p}@ci.acme.lan/job/build/lastBuild/api/json',
          ],
    ),
    { u: user, p: pass },
  );
  return one(text, 'connection_string', pass);
}

const PASSWORD_KEYS = ['DB_PASSWORD', 'POSTGRES_PASSWORD', 'MYSQL_ROOT_PASSWORD', 'REDIS_PASSWORD', 'SMTP_PASSWORD', 'ADMIN_PASSWORD', 'PASSWORD'];

function passwordLine(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const p = password(rng);
  const key = rng.pick(PASSWORD_KEYS);
  const quoted = p.includes(' ') ? `"${p}"` : p;
  const zh = lang === 'zh';
  const text = fill(
    rng.pick([
      '{c}{key}={q}',
      '{c}database:\n  host: db.internal\n  user: app\n  password: {q}\n',
      '{c}{"username": "admin", "password": "{p}"}',
      '{c}./deploy.sh --password={q} --env prod',
      '{c}services:\n  db:\n    environment:\n      {key}: \'{p}\'',
      '{c}[smtp]\nuser = mailer\npassword = {q}',
    ]),
    { key, p, q: quoted, c: zh ? rng.pick(['# 数据库密码\n', '配置文件：\n', '帮我检查一下：\n']) : '' },
  );
  return one(text, 'password', p);
}

function passwordProse(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const p = password(rng).replace(/-/g, '');
  const text = fill(
    rng.pick(
      lang === 'zh'
        ? ['WiFi 密码是 {p}', '数据库密码：{p}', '路由器后台密码是{p}，别告诉别人', 'NAS 的管理员密码改成了 {p}']
        : ['the wifi password is {p}', 'my NAS password is {p}, keep it safe', 'login admin / password {p}', 'I changed the router password to {p}'],
    ),
    { p },
  );
  return one(text, 'password', p);
}

const API_KEY_NAMES = ['API_KEY', 'api_key', 'apiKey', 'client_secret', 'SECRET_KEY', 'DATADOG_API_KEY', 'ALGOLIA_ADMIN_KEY', 'auth_token'];

function apiKeyLine(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const v = rng.pick([() => randomString(rng, HEX, 32), () => randomString(rng, ALNUM, 40), () => randomString(rng, BASE64, 43) + '='])();
  const name = rng.pick(API_KEY_NAMES);
  const zh = lang === 'zh';
  const text = fill(
    rng.pick([
      '{c}{name}={v}',
      '{c}{name}: {v}',
      '{c}{"{name}": "{v}", "endpoint": "https://api.acme.io"}',
      '{c}X-API-Key: {v}',
      '{c}https://api.acme.io/v2/items?access_token={v}&page=2',
      '{c}{name} = "{v}"',
    ]),
    { name, v, c: zh ? rng.pick(['# 第三方服务的密钥\n', '配置如下：\n']) : '' },
  );
  return one(text, 'api_key', v);
}

function bearer(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const v = randomString(rng, ALNUM, rng.between(24, 56)) + (rng.chance(0.3) ? randomString(rng, '-._~+/', 1) + randomString(rng, ALNUM, 8) : '');
  const text = fill(
    rng.pick(
      lang === 'zh'
        ? ['请求头里带上 Authorization: Bearer {v} 就能调通', '抓包看到 Authorization: Bearer {v}，这是谁的 token？']
        : [
            'curl -H "Authorization: Bearer {v}" https://api.example.com/v1/me',
            'GET /v1/orders HTTP/1.1\nHost: api.example.com\nAuthorization: Bearer {v}\nAccept: application/json',
            "fetch(url, { headers: { Authorization: 'Bearer {v}' } })",
            "headers = {'Authorization': 'Bearer {v}'}",
            '10:22:31 DEBUG > Authorization: Bearer {v}',
          ],
    ),
    { v },
  );
  return one(text, 'bearer_token', v);
}

function basicAuth(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const v = Buffer.from(`${rng.pick(USERS)}:${password(rng)}`).toString('base64');
  const text = fill(lang === 'zh' ? '接口要求 Authorization: Basic {v}' : rng.pick(['Authorization: Basic {v}', "curl -H 'Authorization: Basic {v}' https://ci.acme.lan"]), { v });
  return one(text, 'basic_auth', v);
}

// --- near-misses ----------------------------------------------------------------------------------------------------

/** Texts with nothing secret, each from a list of templates per language with random fillers. */
function nearMiss(templates: { en: string[]; zh: string[] }, vars: (rng: SeededRandom) => Record<string, string>) {
  return (rng: SeededRandom, lang: CorpusLang): CaseDraft => none(fill(rng.pick(templates[lang]), vars(rng)));
}

const uuid = (rng: SeededRandom): string =>
  `${randomString(rng, HEX, 8)}-${randomString(rng, HEX, 4)}-4${randomString(rng, HEX, 3)}-${rng.pick(['8', '9', 'a', 'b'])}${randomString(rng, HEX, 3)}-${randomString(rng, HEX, 12)}`;

const hashes = (rng: SeededRandom): Record<string, string> => ({
  sha: randomString(rng, HEX, 40),
  short: randomString(rng, HEX, 7),
  sha256: randomString(rng, HEX, 64),
  uuid: uuid(rng),
  b64: randomString(rng, BASE64, rng.between(60, 200)),
  sri: randomString(rng, BASE64, 86) + '==',
  sri384: randomString(rng, BASE64, 64),
  v: `${rng.between(0, 20)}.${rng.between(0, 40)}.${rng.between(0, 30)}`,
  pub: randomString(rng, BASE64, 64),
  pub2: randomString(rng, BASE64, 64),
  pub3: randomString(rng, BASE64, 40),
  pk: `pk_live_${randomString(rng, ALNUM, 24)}`,
  ssh: `AAAAC3NzaC1lZDI1NTE5AAAAI${randomString(rng, BASE64, 43)}`,
  sshrsa: `AAAAB3NzaC1yc2EAAAADAQABAAABAQ${randomString(rng, BASE64, 342)}`,
  n: String(rng.between(2, 99)),
});

const SECRET_NEAR_MISSES: CaseFamily[] = [
  ['git-sha', {
    en: ['commit {sha}\nAuthor: Jane Roe <jane@example.com>', 'fixed in {short}, see the PR', 'git checkout {sha}', 'Merge: {short} {short}', 'bisect says {sha} is the first bad commit'],
    zh: ['回滚到 {sha} 这个提交', '问题在 {short} 里修好了'],
  }],
  ['uuid', {
    en: ['request id {uuid} failed with 502', "INSERT INTO users (id) VALUES ('{uuid}');", 'trace_id={uuid} span_id={short}'],
    zh: ['订单的 UUID 是 {uuid}', '请求 {uuid} 超时了'],
  }],
  ['sha256', {
    en: ['image: acme/api@sha256:{sha256}', '{sha256}  node-v20.11.1-linux-x64.tar.xz', 'checksum sha256={sha256}'],
    zh: ['文件的 SHA-256 校验和是 {sha256}', '镜像摘要 sha256:{sha256}'],
  }],
  ['base64-image', {
    en: ['<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{b64}" alt="logo">', 'background: url(data:image/svg+xml;base64,PHN2ZyB4bWxucz0i{b64});'],
    zh: ['图标用的是内联图片 data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{b64}'],
  }],
  ['sri-integrity', {
    en: ['"integrity": "sha512-{sri}",', '<script src="https://cdn.example.com/lib.js" integrity="sha384-{sri384}" crossorigin="anonymous"></script>'],
    zh: ['package-lock 里的 "integrity": "sha512-{sri}" 变了'],
  }],
  ['placeholder', {
    en: [
      'OPENAI_API_KEY=sk-...',
      'api_key: YOUR_API_KEY',
      'curl -H "Authorization: Bearer <token>" https://api.example.com',
      'GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'export STRIPE_SECRET_KEY=sk_live_xxxx',
      'password: <your-password>',
      '{"apiKey": "REPLACE_ME"}',
      'Authorization: Bearer $TOKEN',
      'DATABASE_URL=postgres://<user>:<password>@<host>:5432/<db>',
      'token: "********"',
    ],
    zh: ['把 YOUR_API_KEY 换成你自己的密钥', '在 .env 里填上 OPENAI_API_KEY=sk-...', '密码填 <你的密码> 即可', 'ANTHROPIC_API_KEY=sk-ant-xxxx（换成你的）'],
  }],
  // AWS publishes these two values as non-working examples; gitleaks and GitHub secret scanning skip them, and
  // refusing a memory that quotes the AWS docs would be a false refusal, so they count as near-misses here.
  ['aws-doc-example', {
    en: ['AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'The docs use AKIAIOSFODNN7EXAMPLE as the sample key id.'],
    zh: ['文档里的示例密钥 AKIAIOSFODNN7EXAMPLE 不能用', '示例：aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
  }],
  ['url-no-credentials', {
    en: [
      'see https://github.com/acme/api/pull/{n}',
      'DATABASE_URL=postgres://localhost:5432/app',
      'git clone git@github.com:acme/api.git',
      'git clone https://alice@git.acme.lan/team/api.git',
      'REDIS_URL=redis://cache.internal:6379/0',
      'ssh://git@gitlab.com/acme/api.git',
      'http://localhost:3000/api/v1/items?page=2&limit=50',
    ],
    zh: ['仓库地址是 https://gitee.com/acme/api', '本地数据库 postgres://localhost:5432/app 连不上'],
  }],
  ['password-prose', {
    en: [
      'I forgot my password again, how do I reset it?',
      'The password must be at least 12 characters long.',
      'Never commit passwords to git.',
      'Password managers like Bitwarden help with this.',
      'she changed her password yesterday',
      'password: ********',
      'the password field is required',
      'Password reset emails end up in spam.',
    ],
    zh: ['我忘记密码了，怎么重置？', '密码长度至少12位，必须包含大小写字母和数字', '请不要把密码写在代码里', '修改密码后需要重新登录', '密码错误次数超过5次会锁定账户', '密码：已隐藏'],
  }],
  ['env-empty-or-var', {
    en: [
      'DB_PASSWORD=',
      'PASSWORD=${DB_PASSWORD}',
      'api_key: ${API_KEY}',
      'password: "{{ vault_db_password }}"',
      'POSTGRES_PASSWORD_FILE=/run/secrets/db_password',
      'SECRET_KEY=$(openssl rand -hex 32)',
      "password = os.environ['DB_PASSWORD']",
      'apiKey: process.env.API_KEY,',
      'password: ${{ secrets.DB_PASSWORD }}',
    ],
    zh: ['# 密码从环境变量读取\nDB_PASSWORD=${DB_PASSWORD}', 'api_key 留空：API_KEY=', '密码用 password: ${{ secrets.DB_PASSWORD }} 注入'],
  }],
  ['version-string', {
    en: ['upgraded to v{v} and it broke', 'node v{v}', 'image: acme/api:sha-{short}', 'release {v}-rc.{n}+build.20240517', 'User-Agent: Mozilla/5.0 Chrome/124.0.6367.91 Safari/537.36'],
    zh: ['升级到 v{v} 之后就报错了', '版本号 {v}-beta.{n}'],
  }],
  ['npm-config', {
    en: ['npm_config_registry=https://registry.npmjs.org/', 'console.log(process.env.npm_package_version)', 'npm_lifecycle_event=build', 'npm_config_cache=/home/ci/.npm', 'echo $npm_package_name'],
    zh: ['脚本里用 process.env.npm_package_version 取版本号', '设置 npm_config_registry=https://registry.npmmirror.com/'],
  }],
  ['public-key', {
    en: [
      '-----BEGIN PUBLIC KEY-----\n{pub}\n{pub2}\n{pub3}\n-----END PUBLIC KEY-----',
      '-----BEGIN CERTIFICATE-----\n{pub}\n{pub2}\n-----END CERTIFICATE-----',
      'ssh-ed25519 {ssh} jane@laptop',
      'authorized_keys:\nssh-rsa {sshrsa} deploy@ci',
    ],
    zh: ['把公钥加到服务器上：ssh-ed25519 {ssh} jane@laptop', '证书内容：\n-----BEGIN CERTIFICATE-----\n{pub}\n{pub2}\n-----END CERTIFICATE-----'],
  }],
  // Stripe documents publishable keys as safe to embed in client code.
  ['stripe-publishable', {
    en: ["const stripe = Stripe('{pk}');", 'STRIPE_PUBLISHABLE_KEY={pk}'],
    zh: ['前端用的可公开密钥是 {pk}'],
  }],
].map(([family, templates]) => ({
  detector: 'secret' as const,
  family: family as string,
  make: nearMiss(templates as { en: string[]; zh: string[] }, hashes),
}));

// --- the table ------------------------------------------------------------------------------------------------------

const positive = (family: string, make: CaseFamily['make']): CaseFamily => ({ detector: 'secret', family, make });

/** Every secret family: vendor formats, generic credentials, then near-misses. */
export const SECRET_FAMILIES: readonly CaseFamily[] = [
  positive('aws-key-id', vendor('aws_access_key', awsKeyId, { env: ['AWS_ACCESS_KEY_ID'], en: 'AWS access key id', zh: 'AWS 访问密钥 ID' })),
  positive('aws-key-pair', awsPair),
  positive('github-classic', vendor('github_token', githubClassic, { env: ['GITHUB_TOKEN', 'GH_TOKEN'], en: 'GitHub token', zh: 'GitHub 令牌' }, githubRemote)),
  positive('github-fine-grained', vendor('github_token', githubFineGrained, { env: ['GITHUB_TOKEN', 'GH_PAT'], en: 'GitHub token', zh: 'GitHub 令牌' }, githubRemote)),
  positive('gitlab-pat', vendor('gitlab_token', gitlabPat, { env: ['GITLAB_TOKEN', 'CI_JOB_TOKEN_OVERRIDE'], en: 'GitLab token', zh: 'GitLab 令牌' })),
  positive('gitlab-routable', vendor('gitlab_token', gitlabRoutable, { env: ['GITLAB_TOKEN'], en: 'GitLab token', zh: 'GitLab 令牌' })),
  positive('openai-project', vendor('openai_key', openaiLong('sk-proj-'), { env: ['OPENAI_API_KEY'], en: 'OpenAI key', zh: 'OpenAI 密钥' })),
  positive('openai-svcacct', vendor('openai_key', openaiLong('sk-svcacct-'), { env: ['OPENAI_API_KEY'], en: 'OpenAI key', zh: 'OpenAI 密钥' })),
  positive('openai-legacy', vendor('openai_key', openaiLegacy, { env: ['OPENAI_API_KEY'], en: 'OpenAI key', zh: 'OpenAI 密钥' })),
  positive('anthropic', vendor('anthropic_key', anthropic, { env: ['ANTHROPIC_API_KEY'], en: 'Anthropic key', zh: 'Claude 的 API 密钥' })),
  positive('slack-bot', vendor('slack_token', slackBot, { env: ['SLACK_BOT_TOKEN'], en: 'Slack bot token', zh: 'Slack 机器人令牌' })),
  positive('slack-user', vendor('slack_token', slackUser, { env: ['SLACK_USER_TOKEN'], en: 'Slack token', zh: 'Slack 令牌' })),
  positive('slack-webhook', slackWebhook),
  positive('stripe-secret', vendor('stripe_key', stripe('sk_live_'), { env: ['STRIPE_SECRET_KEY'], en: 'Stripe key', zh: 'Stripe 密钥' })),
  positive('stripe-restricted', vendor('stripe_key', stripe('rk_live_'), { env: ['STRIPE_RESTRICTED_KEY'], en: 'Stripe restricted key', zh: 'Stripe 受限密钥' })),
  positive('google-api', vendor('google_api_key', googleKey, { env: ['GOOGLE_API_KEY', 'GEMINI_API_KEY', 'MAPS_API_KEY'], en: 'Google API key', zh: '谷歌 API 密钥' })),
  positive('npm', vendor('npm_token', npmToken, { env: ['NPM_TOKEN', 'NODE_AUTH_TOKEN'], en: 'npm token', zh: 'npm 令牌' }, npmrc)),
  positive('huggingface', vendor('huggingface_token', hfToken, { env: ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN'], en: 'Hugging Face token', zh: 'Hugging Face 令牌' })),
  positive('sendgrid', vendor('sendgrid_key', sendgrid, { env: ['SENDGRID_API_KEY'], en: 'SendGrid key', zh: 'SendGrid 密钥' })),
  positive('jwt', vendor('jwt', jwt, { env: ['ID_TOKEN', 'SESSION_JWT'], en: 'session token', zh: '登录令牌' })),
  positive('pem-rsa', pemCase('rsa')),
  positive('pem-ec', pemCase('ec')),
  positive('pem-openssh', pemCase('openssh')),
  positive('pem-pkcs8', pemCase('pkcs8')),
  positive('url-db-password', dbUrl),
  positive('url-https-password', httpsUrlPassword),
  positive('password-line', passwordLine),
  positive('password-prose', passwordProse),
  positive('api-key-line', apiKeyLine),
  positive('bearer-header', bearer),
  positive('basic-auth-header', basicAuth),
  ...SECRET_NEAR_MISSES.map((f) => ({ ...f, family: `near:${f.family}` })),
];
