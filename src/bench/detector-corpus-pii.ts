/**
 * Personal-data families of the held-out detector corpus: emails, phones in national formats, IBANs with valid
 * ISO 13616 check digits, Luhn-valid cards, street addresses, configured names, and number-heavy near-misses.
 */
import type { SeededRandom } from '../script/seeded-rng.js';
import {
  DIGITS,
  LOWER,
  UPPER,
  fill,
  none,
  one,
  randomDigits,
  randomString,
  type CaseDraft,
  type CaseFamily,
  type CorpusLang,
} from './detector-corpus-text.js';

/** Names the bench passes as `knownPersons`, as a user's config would; no other template uses them. */
export const KNOWN_PERSONS: readonly string[] = ['Anna Schmidt', 'Bob Miller', 'Priya Natarajan', 'Kai', '王芳', '李伟', 'Zhang Wei'];

// --- checksums --------------------------------------------------------------------------------------------------

/** ISO 7064 MOD 97-10 over an IBAN rearranged as ISO 13616 says (country and check digits moved to the end). */
export function ibanMod97(iban: string): number {
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const v = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of v) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem;
}

/** True when the IBAN's check digits are right (remainder 1). */
export const ibanChecksumValid = (iban: string): boolean => ibanMod97(iban) === 1;

/** Luhn (ISO/IEC 7812-1 annex B) over the digits of `s`, separators ignored. */
export function luhnValid(s: string): boolean {
  const digits = s.replace(/\D/g, '');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

// --- IBAN ------------------------------------------------------------------------------------------------------

/** BBAN layouts from the SWIFT IBAN registry: `n` digits, `a` upper-case letters, `c` alphanumerics. */
const BBAN: Record<string, string> = {
  DE: '18n', GB: '4a14n', FR: '10n11c2n', NL: '4a10n', ES: '20n', IT: '1a10n12c', CH: '5n12c', AT: '16n', BE: '12n',
  PL: '24n', RO: '4a16c', HR: '17n',
};

function makeIban(rng: SeededRandom, country: string): string {
  let bban = '';
  for (const [, count, type] of (BBAN[country] as string).matchAll(/(\d+)([nac])/g)) {
    const alphabet = type === 'n' ? DIGITS : type === 'a' ? UPPER : UPPER + DIGITS;
    bban += randomString(rng, alphabet, Number(count));
  }
  const check = 98 - ibanMod97(`${country}00${bban}`);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

/** Paper format (groups of four) or the electronic format (no spaces), as ISO 13616 allows both. */
const printIban = (rng: SeededRandom, iban: string): string => (rng.chance(0.6) ? iban.replace(/(.{4})(?=.)/g, '$1 ') : iban);

function ibanCase(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const v = printIban(rng, makeIban(rng, rng.pick(Object.keys(BBAN))));
  const t = lang === 'zh'
    ? ['收款账户 IBAN：{v}', '请汇款到{v}，备注发票号', '我的欧元账户是 {v}']
    : ['IBAN: {v}', 'please transfer the deposit to {v} by Friday', 'Kontonummer (IBAN) {v}', '{"iban": "{v}", "bic": "COBADEFFXXX"}'];
  return one(fill(rng.pick(t), { v }), 'iban', v);
}

function invalidIban(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const valid = makeIban(rng, rng.pick(Object.keys(BBAN)));
  // Check digits run 02-98; any other pair breaks MOD 97-10, and an offset of 1-96 (mod 97) never lands on the right one.
  const wrong = 2 + ((Number(valid.slice(2, 4)) - 2 + rng.between(1, 96)) % 97);
  const v = printIban(rng, `${valid.slice(0, 2)}${String(wrong).padStart(2, '0')}${valid.slice(4)}`);
  const t = lang === 'zh' ? ['这个 IBAN {v} 校验不通过，是不是抄错了？'] : ['the bank rejected {v} as invalid - typo?', 'test fixture iban: {v} (bad checksum)'];
  return none(fill(rng.pick(t), { v }));
}

// --- cards -----------------------------------------------------------------------------------------------------

function cardDigits(rng: SeededRandom, brand: 'visa' | 'mastercard' | 'amex'): string {
  const prefix =
    brand === 'visa' ? '4' : brand === 'amex' ? rng.pick(['34', '37']) : rng.chance(0.7) ? String(rng.between(51, 55)) : String(rng.between(2221, 2720));
  const length = brand === 'amex' ? 15 : 16;
  const body = prefix + randomString(rng, DIGITS, length - 1 - prefix.length);
  for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return body + d;
  throw new Error('unreachable: one Luhn digit always exists');
}

function printCard(rng: SeededRandom, digits: string): string {
  const sep = rng.pick([' ', '-', '']);
  const groups = digits.length === 15 ? [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10)] : (digits.match(/.{4}/g) as string[]);
  return groups.join(sep);
}

const CARD_EN = ['my card number is {v}, exp 09/27', 'the full card number: {v}', 'card: {v}', 'charge it to {v} please'];
const CARD_ZH = ['信用卡号：{v}', '用这张卡付款 {v}，有效期 09/27', '我的卡号是{v}'];

const card = (brand: 'visa' | 'mastercard' | 'amex') => (rng: SeededRandom, lang: CorpusLang): CaseDraft => {
  const v = printCard(rng, cardDigits(rng, brand));
  return one(fill(rng.pick(lang === 'zh' ? CARD_ZH : CARD_EN), { v }), 'card', v);
};

function luhnInvalid(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const valid = cardDigits(rng, 'visa');
  const v = printCard(rng, valid.slice(0, -1) + String((Number(valid.at(-1)) + rng.between(1, 9)) % 10));
  return none(fill(rng.pick(lang === 'zh' ? ['交易流水号 {v}', '参考编号：{v}'] : ['reference {v}', 'Transaction ID: {v}']), { v }));
}

// --- phones ----------------------------------------------------------------------------------------------------

const PHONE_EN = ['call me on {v}', 'Tel: {v}', 'my number is {v} - text first', 'reach the on-call at {v}'];
const PHONE_ZH = ['我的电话是{v}', '手机：{v}', '有事打 {v} 找我', '联系电话 {v}（工作日）'];

const phone = (format: (rng: SeededRandom) => string) => (rng: SeededRandom, lang: CorpusLang): CaseDraft => {
  const v = format(rng);
  return one(fill(rng.pick(lang === 'zh' ? PHONE_ZH : PHONE_EN), { v }), 'phone', v);
};

/** E.164 (+ country code, up to 15 digits) for a few countries, compact. */
const e164 = (rng: SeededRandom): string => rng.pick(['+44', '+33', '+81', '+61', '+31']) + String(rng.between(1, 9)) + randomDigits(rng, 8);
/** NANP: area code [2-9]xx, exchange [2-9]xx (often the 555 range used in fiction), 4 digits. */
function usPhone(rng: SeededRandom): string {
  const a = `${rng.between(2, 9)}${randomDigits(rng, 2)}`;
  const x = rng.chance(0.4) ? '555' : `${rng.between(2, 9)}${randomDigits(rng, 2)}`;
  const s = randomDigits(rng, 4);
  return fill(rng.pick(['({a}) {x}-{s}', '{a}-{x}-{s}', '{a}.{x}.{s}', '+1 {a} {x} {s}', '+1-{a}-{x}-{s}', '+1{a}{x}{s}']), { a, x, s });
}
/** German numbers: +49 with the area code (30, 89, 40, 221) or a mobile prefix (15x-17x), or the national 0 form. */
function dePhone(rng: SeededRandom): string {
  const area = rng.pick(['30', '89', '40', '221', '151', '160', '171', '176']);
  const sub = randomDigits(rng, rng.between(6, 8), false);
  return fill(rng.pick(['+49 {a} {s}', '+49 (0){a} {s}', '+49-{a}-{s}', '0{a} {s}', '0{a}/{s}']), { a: area, s: sub });
}
/** Chinese mobile: 1[3-9]x then 8 digits, with or without +86, spaces or dashes (3-4-4). */
function cnPhone(rng: SeededRandom): string {
  const n = `1${rng.between(3, 9)}${randomDigits(rng, 9)}`;
  const [a, b, c] = [n.slice(0, 3), n.slice(3, 7), n.slice(7)];
  return fill(rng.pick(['{n}', '{a} {b} {c}', '{a}-{b}-{c}', '+86 {a} {b} {c}', '+86-{n}', '+86{n}', '(+86) {n}']), { n, a, b, c });
}

// --- emails ----------------------------------------------------------------------------------------------------

function email(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const first = rng.pick(['anna', 'j', 'liwei', 'zhang.wei', 'm.rossi', 'sam', 'dev-ops', 'o.connor']);
  const local = fill(rng.pick(['{f}', '{f}.{l}', '{f}_{l}', '{f}+{tag}', '{f}{d}']), {
    f: first, l: rng.pick(['schmidt', 'doe', 'chen', 'nguyen']), tag: rng.pick(['tidepool', 'news', 'billing']), d: String(rng.between(1, 99)),
  });
  const domain = rng.pick(['example.com', 'mail.example.co.uk', 'acme.io', 'example.de', 'corp.example.cn', 'example.com.cn', 'startup.ai', 'example.dev', 'museum.example.museum', 'example.technology', 'qq.com', '163.com']);
  const v = `${local}@${domain}`;
  const t = lang === 'zh'
    ? ['我的邮箱是{v}，有事联系', '请发邮件到 {v}。', '联系人邮箱：{v}', '抄送{v}']
    : ['Contact me at {v} if anything breaks.', 'cc {v} on the thread', 'Send it to <{v}>.', 'mailto:{v}', '{"email": "{v}", "plan": "pro"}', 'login ok user={v} ip=10.0.0.7'];
  return one(fill(rng.pick(t), { v }), 'email', v);
}

// --- addresses -------------------------------------------------------------------------------------------------

function addressEn(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const street = `${rng.between(1, 9999)}${rng.chance(0.1) ? 'B' : ''} ${rng.pick(['Baker', 'Maple', 'Oak', 'Pennsylvania', 'Sunset', 'Elm', 'Wallaby', 'Mission'])} ${rng.pick(['Street', 'Avenue', 'Road', 'Lane', 'Drive', 'Boulevard', 'St.', 'Ave'])}`;
  const city = rng.pick([', Springfield, IL 62704', ', London', ', San Francisco, CA 94110', ', Sydney', '']);
  const t = lang === 'zh' ? ['我住在 {v}', '地址：{v}', '寄到 {v}，收件人本人'] : ['I live at {v}.', 'Ship to {v}', 'My new address: {v}', 'Deliver to {v} before Friday'];
  return one(fill(rng.pick(t), { v: street + city }), 'address', street);
}

function addressDe(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const name = rng.pick(['Muster', 'Haupt', 'Goethe', 'Schiller', 'Linden', 'Bahnhof', 'Berliner ', 'Kastanien']);
  const kind = name.endsWith(' ') ? 'Straße' : rng.pick(['straße', 'str.', 'weg', 'allee', 'platz']);
  const street = `${name}${kind} ${rng.between(1, 180)}${rng.chance(0.15) ? 'a' : ''}`;
  const city = rng.pick([', 10115 Berlin', ', 80331 München', ', 50667 Köln', ', 20095 Hamburg', '']);
  const t = lang === 'zh' ? ['他在德国的地址是 {v}', '寄到 {v}'] : ['Meine Adresse: {v}', 'Wir wohnen in der {v}.', 'office: {v}', 'Lieferadresse {v}'];
  return one(fill(rng.pick(t), { v: street + city }), 'address', street);
}

function addressZh(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const city = rng.pick(['北京市朝阳区', '上海市浦东新区', '广州市天河区', '深圳市南山区', '杭州市西湖区', '成都市武侯区', '广东省深圳市福田区']);
  const road = rng.pick(['建国路', '世纪大道', '天河路', '科技园路', '文三路', '人民南路', '深南大道', '中山东一路']);
  const v = `${city}${road}${rng.between(1, 999)}号${rng.chance(0.4) ? `${rng.between(1, 12)}号楼${rng.between(1, 30)}0${rng.between(1, 9)}室` : ''}`;
  const t = lang === 'zh' ? ['我住在{v}', '地址：{v}', '寄到{v}，收件人本人', '公司搬到了{v}'] : ['Ship it to {v}', 'my address in China is {v}'];
  return one(fill(rng.pick(t), { v }), 'address', v);
}

// --- persons ---------------------------------------------------------------------------------------------------

function person(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const name = rng.pick(KNOWN_PERSONS);
  const shown = /^[A-Za-z ]+$/.test(name) && rng.chance(0.2) ? name.toLowerCase() : name;
  const t = lang === 'zh'
    ? ['{p}说明天开会', '我和{p}一起去吃饭', '{p}的生日是下周三', '把报告发给 {p} 看一下']
    : ['{p} asked about the invoice.', 'Meeting with {p} at 3pm tomorrow.', 'ping {p} about the release', 'Lunch with {p} today, she recommended the ramen place'];
  return one(fill(rng.pick(t), { p: shown }), 'person', shown);
}

function signature(rng: SeededRandom, lang: CorpusLang): CaseDraft {
  const name = rng.pick(KNOWN_PERSONS);
  const tel = rng.chance(0.5) ? usPhone(rng) : cnPhone(rng);
  const mail = `${rng.pick(['anna', 'bob', 'priya', 'wangfang'])}@${rng.pick(['example.com', 'acme.io', 'example.cn'])}`;
  const text = lang === 'zh' ? `此致\n${name}\n手机：${tel}\n邮箱：${mail}` : `Best regards,\n${name}\n${tel}\n${mail}`;
  return { text, expect: ['person', 'phone', 'email'], values: [name, tel, mail] };
}

// --- near-misses -----------------------------------------------------------------------------------------------

function isbn13(rng: SeededRandom): string {
  const body = `978${rng.between(0, 1)}${randomDigits(rng, 8)}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body.slice(0, 3)}-${body[3]}-${body.slice(4, 8)}-${body.slice(8)}-${(10 - (sum % 10)) % 10}`;
}

const nmVars = (rng: SeededRandom): Record<string, string> => ({
  amz: `${randomDigits(rng, 3)}-${randomDigits(rng, 7)}-${randomDigits(rng, 7)}`,
  ord: `${rng.between(2023, 2025)}${String(rng.between(1, 12)).padStart(2, '0')}${randomDigits(rng, 10)}`,
  sf: `SF${randomDigits(rng, 13)}`,
  isbn: isbn13(rng),
  date: `${rng.between(2019, 2026)}-${String(rng.between(1, 12)).padStart(2, '0')}-${String(rng.between(1, 28)).padStart(2, '0')}`,
  de: `${rng.between(1, 28)}.${rng.between(1, 12)}.${rng.between(2019, 2026)}`,
  time: `${String(rng.between(0, 23)).padStart(2, '0')}:${String(rng.between(0, 59)).padStart(2, '0')}:${String(rng.between(0, 59)).padStart(2, '0')}`,
  v: `${rng.between(0, 20)}.${rng.between(0, 40)}.${rng.between(0, 30)}`,
  ip: `${rng.pick(['10', '192', '172', String(rng.between(11, 223))])}.${rng.between(0, 255)}.${rng.between(0, 255)}.${rng.between(1, 254)}`,
  price: rng.pick(['$', '€ ', '¥', 'USD ']) + `${rng.between(1, 999)},${randomDigits(rng, 3)}.${randomDigits(rng, 2)}`,
  ts: String(1_600_000_000 + rng.int(200_000_000)),
  n: String(rng.between(2, 99)),
  m: String(rng.between(2, 99)),
  v2: `${rng.between(0, 20)}.${rng.between(0, 40)}.${rng.between(0, 30)}`,
  big: `${rng.between(1, 999)},${randomDigits(rng, 3)},${randomDigits(rng, 3)}`,
  code: randomString(rng, UPPER, 2) + randomDigits(rng, 6),
  w: randomString(rng, LOWER, 3),
});

const PII_NEAR_MISSES: [string, { en: string[]; zh: string[] }][] = [
  ['order-number', { en: ['Order #{amz} has shipped', 'order id {ord}', 'tracking number {sf}', 'ticket {code} was closed'], zh: ['订单号：{ord}', '快递单号 {sf}，明天到', '工单 {code} 已关闭'] }],
  ['isbn', { en: ['ISBN {isbn}', 'the book (ISBN {isbn}) is out of print'], zh: ['这本书的 ISBN 是 {isbn}'] }],
  ['date-time', { en: ['deployed on {date} at {time} UTC', 'Termin am {de} um {time}', 'ts={ts} level=info msg="job done"'], zh: ['会议定在 {date} {time}', '{date} 的日志里 ts={ts} 有报错'] }],
  ['version', { en: ['bumped to {v}', 'Python {v} and node {v2}', 'build {date}.{n}'], zh: ['版本号 {v}', '升级到 {v} 以后内存涨了'] }],
  ['ipv4', { en: ['ssh into {ip} and restart nginx', 'the pod IP is {ip}:8080'], zh: ['服务器 {ip} 上的磁盘满了', '网关地址 {ip}'] }],
  ['price', { en: ['the quote came to {price}', 'revenue was {big} last quarter'], zh: ['报价 {price}，含税', '营收 {big} 元，同比增长 {n}%'] }],
  ['street-prose', {
    en: ['Street food in Bangkok was the best part.', 'We watched Sesame Street with the kids.', 'Wall Street fell {n}% today.', 'my street is very quiet at night', 'Road trip planned for {n} days'],
    zh: ['这条路走了{n}分钟才到', '坐地铁{n}号线到人民广场', '第{n}号选手表现最好', '一路上我们聊了{n}个小时'],
  }],
  ['zh-numbers', { en: ['we closed {n} tickets and {n} PRs this sprint', 'room {n}, floor {m}'], zh: ['第{n}章第{m}节讲的是排序', '我们团队有{n}个人，完成了{m}%的任务', '路由器重启了{n}次还是不行', '用户数突破 {big}'] }],
  ['name-substring', { en: ['Kaiserslautern won {n}-1', 'we applied kaizen to the release process', 'Kaiser Permanente sent a letter'], zh: ['我们去了 Kaiserslautern 玩了{n}天'] }],
];

const pos = (family: string, make: CaseFamily['make']): CaseFamily => ({ detector: 'pii', family, make });

/** Every PII family: kinds in several formats, then near-misses. */
export const PII_FAMILIES: readonly CaseFamily[] = [
  pos('email', email),
  pos('phone-e164', phone(e164)),
  pos('phone-us', phone(usPhone)),
  pos('phone-de', phone(dePhone)),
  pos('phone-cn', phone(cnPhone)),
  pos('iban', ibanCase),
  pos('card-visa', card('visa')),
  pos('card-mastercard', card('mastercard')),
  pos('card-amex', card('amex')),
  pos('address-en', addressEn),
  pos('address-de', addressDe),
  pos('address-zh', addressZh),
  pos('person', person),
  pos('signature', signature),
  pos('near:iban-invalid', invalidIban),
  pos('near:luhn-invalid', luhnInvalid),
  ...PII_NEAR_MISSES.map(([family, templates]) =>
    pos(`near:${family}`, (rng, lang) => none(fill(rng.pick(templates[lang]), nmVars(rng)))),
  ),
];
