/** Deterministic personal-data detector with reversible placeholders, run before text reaches a model (DESIGN §10). */

import { keepNonOverlapping, replaceSpans } from './secret-scan.js';

// Over 200 lines on purpose (STYLE §4): six detectors share the overlap resolution and the placeholder map,
// and each detector is a few lines of pattern plus the checks that keep dates, prices and order numbers out.

/** The kinds of personal data replaced by placeholders. */
export type PiiKind = 'email' | 'phone' | 'iban' | 'card' | 'address' | 'person';

/** One detected piece of personal data: `value` is `text.slice(start, end)`. */
export interface PiiFinding {
  kind: PiiKind;
  start: number;
  end: number;
  value: string;
}

/** Detector options; `knownPersons` are names from config, matched case-insensitively. */
export interface PiiOptions {
  knownPersons?: readonly string[];
}

// Lower wins an overlap: an email beats a known name inside it, an IBAN beats the card-like digits inside it.
const RANK: Record<PiiKind, number> = { email: 0, iban: 1, card: 2, address: 3, phone: 4, person: 5 };

const SHADOW = ''; // value of a span that only blocks lower-ranked findings; never returned
const GLUE = /[\w.+@-]/;

// Labels of 1-63 characters, then an alphabetic TLD not followed by more domain characters.
const EMAIL_DOMAIN =
  /(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+([A-Za-z]{2,24})(?![A-Za-z0-9-]|\.[A-Za-z0-9])/y;
const NOT_A_TLD = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'ico']); // icon@2x.png

// `00` is the international prefix only before a country code (never 0), so UUID zeros are not phones.
const PHONE_INTL = /(?<![\w+.-])(?:\+|00(?=[1-9]))\d[\d \-./()]{6,22}\d(?!\w)/g;
const PHONE_US =
  /(?<![\w+.\-/])(?:1[-. ])?(?:\([2-9]\d{2}\)[ ]?|[2-9]\d{2}[-. ])[2-9]\d{2}[-. ]\d{4}(?![\w\-/]|[.:]\d)/g;
// Not right after a digit group (`4301 0744 9845 2903`): the tail of a longer grouped number is not a phone.
const PHONE_NATIONAL = /(?<![\w+.\-/])(?<!\d[ -])0[1-9]\d{0,3}(?:[ /-]\d{2,8}){1,4}(?![\w\-/:]|[.,]\d)/g;
const PHONE_CN_MOBILE = /(?<![\w+/.-])(?:86[ -]?)?1[3-9]\d(?:[ -]?\d{4}){2}(?!\w)/g;
const CARD = /(?<![\w.-])(?:\d[ -]?){12,18}\d(?!\w|[.-]\d)/g;
const IBAN = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}/g;
const ADDRESS_EN =
  /(?<![\w.,-])\d{1,5}[A-Za-z]?\s+(?:[A-Z][A-Za-z'-]+\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Boulevard|Blvd|Drive|Dr|Court|Ct|Place|Pl|Square|Sq|Terrace|Way|Close|Crescent|Parkway|Pkwy|Highway|Hwy|Row|Mews)\b\.?(?:\s+(?:NW|NE|SW|SE)\b)?/g;
// "Hauptstraße 5", "Berliner Straße 12a", "Kurfürstendamm 21, 10719 Berlin". The compound stem needs 3+ letters
// so "Spring 12" is not read as Sp+ring.
const ADDRESS_DE =
  /(?<![\p{L}\p{N}])(?:[A-ZÄÖÜ][a-zäöüß]{2,}(?:-[A-ZÄÖÜ][a-zäöüß]+)*(?:straße|strasse|str\.|weg|gasse|platz|allee|ring|damm|ufer)|[A-ZÄÖÜ][a-zäöüß]+[ -](?:Straße|Strasse|Str\.|Weg|Gasse|Platz|Allee|Ring|Damm|Ufer))[ \t]?\d{1,3}[a-z]?(?![\p{L}\p{N}])(?:,?[ \t]+\d{5}[ \t]+[A-ZÄÖÜ][\p{Script=Latin}-]+)?/gu;
// Chinese addresses are anchored on "<road>路<n>号" and extended left over the place names (see chineseAddresses).
const ADDRESS_ZH =
  /(?:路|街|大街|大道|巷|胡同|弄)[ \t]?\d{1,5}[ \t]?号(?:(?:\d{1,4}|[一二三四五六七八九十]{1,3})(?:号楼|栋|幢|单元|层|楼|室))*/g;
const CJK = /[\u4e00-\u9fff]/;
// Characters that end the prose before an address: 住在上海市… starts at 上, 地址是北京市… at 北.
const ZH_PROSE_BREAK = /[在住是到我你他她的了和与从往寄送搬址]/;
// Order, invoice and ticket numbers are not phones or cards even when their digits fit.
const REFERENCE_CONTEXT =
  /(?:order|invoice|ticket|tracking|account|acct|ref|isbn|订单|单号|编号|工单|快递|#|\bno\.|\bnr\.|\bid)[ \t]*[:：#]?[ \t]*$/i;
const COPYRIGHT = /(?:\(c\)|©|copyright)\s*$/i;
const DATE_LIKE = /\d{1,2}([./-])\d{1,2}\1\d{2,4}|\d{4}-\d{2}-\d{2}/;

/**
 * IBAN length per country, from the SWIFT IBAN registry (ISO 13616). Only these countries issue IBANs: trying
 * 15-34 characters for any other two letters let `SF8870729667679` (an SF Express tracking number) pass mod 97 by
 * chance, about 1 time in 97 per length tried.
 */
const IBAN_LENGTH: Record<string, number> = Object.fromEntries(
  ('AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 DO28 EE20 EG29 ' +
    'ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HN28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 ' +
    'LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18 NO15 PK24 PL28 PS29 PT25 ' +
    'QA29 RO24 RS22 SA24 SC31 SE24 SI19 SK24 SM27 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20')
    .split(' ')
    .map((e) => [e.slice(0, 2), Number(e.slice(2))]),
);

const MAX_PASSES = 4; // as in secret-scan: real texts converge in one or two passes; the cap bounds the cost

/**
 * Personal data in `text`, non-overlapping and sorted by start. The scan repeats on its own placeholders until
 * that finds nothing new, so `pseudonymize` is idempotent: in `…0130 00139 1234 5678` the phone only stands
 * alone once the IBAN before it is a placeholder.
 */
export function findPii(text: string, opts: PiiOptions = {}): PiiFinding[] {
  const first = scanOnce(text, opts);
  const found = first.found;
  let rescan = first.rescan;
  for (let pass = 1; pass < MAX_PASSES && rescan; pass++) {
    const masked = replaceSpans(text, found, (f) => `[${f.kind}_0]`);
    const next = scanOnce(masked.text, opts);
    rescan = next.rescan;
    if (next.found.length === 0) break;
    for (const f of next.found) {
      const start = masked.toOriginal(f.start);
      const end = masked.toOriginal(f.end);
      found.push({ kind: f.kind, start, end, value: text.slice(start, end) });
    }
    found.sort((a, b) => a.start - b.start);
  }
  return found;
}

/**
 * One scan with every detector. `rescan` tells whether placeholders could reveal more: a candidate lost to one
 * with a different span, a pattern match overlaps a finding it is not, or a finding touches ASCII word
 * characters that a placeholder's brackets would separate.
 */
function scanOnce(text: string, opts: PiiOptions): { found: PiiFinding[]; rescan: boolean } {
  const found: PiiFinding[] = [];
  const add = (kind: PiiKind, start: number, end: number) =>
    found.push({ kind, start, end, value: text.slice(start, end) });

  // Every pattern match, valid or not, with the 16 characters of context its checks read (REFERENCE_CONTEXT).
  const raw: Array<[number, number]> = [];
  const rawOf = (m: RegExpExecArray) => raw.push([Math.max(0, m.index - 16), m.index + m[0].length]);

  emails(text, add);
  for (const m of text.matchAll(IBAN)) {
    rawOf(m);
    const end = ibanEnd(m[0]);
    if (end !== undefined) add('iban', m.index, m.index + end);
    // The digit groups of an IBAN whose checksum fails are a mistyped IBAN, never a card or a phone.
    else found.push({ kind: 'iban', start: m.index, end: m.index + m[0].length, value: SHADOW });
  }
  for (const m of text.matchAll(CARD)) {
    rawOf(m);
    if (isCard(m[0]) && !isReference(text, m.index)) add('card', m.index, m.index + m[0].length);
  }
  for (const re of [PHONE_INTL, PHONE_US, PHONE_NATIONAL, PHONE_CN_MOBILE]) {
    for (const m of text.matchAll(re)) {
      rawOf(m);
      if (isPhone(m[0], re) && !isReference(text, m.index)) add('phone', m.index, m.index + m[0].length);
    }
  }
  for (const re of [ADDRESS_EN, ADDRESS_DE]) {
    for (const m of text.matchAll(re)) {
      rawOf(m);
      // "Copyright (c) 2013 Gary Court" is a year and a name.
      if (!COPYRIGHT.test(text.slice(Math.max(0, m.index - 16), m.index)))
        add('address', m.index, m.index + m[0].length);
    }
  }
  chineseAddresses(text, add);
  persons(text, opts.knownPersons ?? [], add);
  const kept = resolveOverlaps(found);
  const keptSpans = new Set(kept.map((f) => `${f.start}:${f.end}`));
  const lostToOther = found.some((f) => f.value !== SHADOW && !keptSpans.has(`${f.start}:${f.end}`));
  const glued = (f: PiiFinding) => GLUE.test(text[f.start - 1] ?? ' ') || GLUE.test(text[f.end] ?? ' ');
  return { found: kept, rescan: lostToOther || kept.some(glued) || overlapsOther(raw, kept) };
}

/**
 * True when a pattern match (kept, rejected or lost) overlaps a finding without being it: `010-1233704 0044…`
 * is rejected as one number with four trunk zeros, but `010-1233704` alone passes once the rest is a placeholder.
 */
function overlapsOther(raw: ReadonlyArray<[number, number]>, kept: readonly PiiFinding[]): boolean {
  return raw.some(([s, e]) => {
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((kept[mid]?.end ?? 0) <= s) lo = mid + 1;
      else hi = mid;
    }
    const k = kept[lo];
    return k !== undefined && k.start < e && (k.start !== s || k.end !== e);
  });
}

function emails(text: string, add: (k: PiiKind, s: number, e: number) => void): void {
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    EMAIL_DOMAIN.lastIndex = at + 1;
    const domain = EMAIL_DOMAIN.exec(text);
    if (domain === null || NOT_A_TLD.has((domain[1] ?? '').toLowerCase())) continue;
    let s = at;
    while (s > 0 && at - s < 64 && isLocalChar(text.charCodeAt(s - 1))) s--;
    while (s < at && text[s] === '.') s++;
    if (s === at || text.slice(s, at) === 'git') continue; // git@github.com:org/repo is a remote
    // `postgres://u:pw@host` and `https://x/@user@host` hold credentials or paths, not an address (mailto: excepted).
    const before = text[s - 1];
    if ((before === ':' || before === '/') && text.slice(Math.max(0, s - 7), s).toLowerCase() !== 'mailto:')
      continue;
    add('email', s, at + 1 + domain[0].length);
  }
}

/** `[A-Za-z0-9._%+-]`, by char code: this runs for every `@` in the text. */
function isLocalChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 46 ||
    c === 95 ||
    c === 37 ||
    c === 43 ||
    c === 45
  );
}

/** Length of the valid IBAN at the start of `raw` (spaces allowed between characters), or undefined. */
function ibanEnd(raw: string): number | undefined {
  const positions: number[] = [];
  let compact = '';
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== ' ') {
      compact += raw[i];
      positions.push(i + 1);
    }
  }
  const len = IBAN_LENGTH[compact.slice(0, 2)];
  if (len === undefined || len > compact.length || mod97(compact.slice(0, len)) !== 1) return undefined;
  return positions[len - 1];
}

/** ISO 13616 check: move the first four characters to the end, letters to 10..35, remainder mod 97 must be 1. */
function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const code = ch >= 'A' ? ch.charCodeAt(0) - 55 : Number(ch);
    rest = code >= 10 ? (rest * 100 + code) % 97 : (rest * 10 + code) % 97;
  }
  return rest;
}

/** 13-19 digits with a card prefix (2-6), grouped like a card (4-4-4-4, 4-6-5 …) and passing Luhn. */
function isCard(raw: string): boolean {
  const digits = raw.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19 || !/^[2-6]/.test(digits) || !luhn(digits)) return false;
  if (digits.length === raw.length) return true;
  if (raw.includes(' ') && raw.includes('-')) return false;
  const groups = raw.split(/[ -]/).map((g) => g.length);
  const fours = groups.slice(0, -1).every((g) => g === 4) && (groups.at(-1) ?? 0) <= 4;
  const amex =
    groups.length === 3 && groups[0] === 4 && groups[1] === 6 && (groups[2] === 5 || groups[2] === 4);
  return fours || amex;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function isPhone(raw: string, re: RegExp): boolean {
  const digits = raw.replace(/\D/g, '').length;
  if (re === PHONE_INTL) {
    // `+3.14159265` is a number and `+49 30//12` is not a phone: one separator run at a time, no lone decimal.
    if (/[ \-./]{2}/.test(raw.replace(/\) |\s\(/g, ' ')) || /^\+?\d+\.\d+$/.test(raw)) return false;
    return digits >= 8 && digits <= 15;
  }
  // Byte dumps (`<Buffer 01 02 03 04 05>`) repeat leading zeros; a trunk prefix appears once, twice in the UK.
  if (re === PHONE_NATIONAL) {
    const zeroGroups = raw.split(/[ /-]/).filter((g) => g.startsWith('0')).length;
    return digits >= 9 && digits <= 12 && zeroGroups < 3 && !DATE_LIKE.test(raw);
  }
  return true;
}

/** True when the number at `at` is introduced as an order, invoice, ticket or similar reference. */
function isReference(text: string, at: number): boolean {
  return REFERENCE_CONTEXT.test(text.slice(Math.max(0, at - 16), at));
}

function chineseAddresses(text: string, add: (k: PiiKind, s: number, e: number) => void): void {
  for (const m of text.matchAll(ADDRESS_ZH)) {
    let s = m.index;
    // Place names (province, city, district, road) are a run of up to 24 CJK characters before the suffix.
    while (
      s > 0 &&
      m.index - s < 24 &&
      CJK.test(text[s - 1] ?? '') &&
      !ZH_PROSE_BREAK.test(text[s - 1] ?? '')
    )
      s--;
    if (s < m.index) add('address', s, m.index + m[0].length);
  }
}

function persons(
  text: string,
  names: readonly string[],
  add: (k: PiiKind, s: number, e: number) => void,
): void {
  const alternatives = [...new Set(names.map((n) => n.trim()).filter((n) => n.length > 0))]
    .sort((a, b) => b.length - a.length)
    .map((n) => {
      const body = n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
      // Word boundaries against Latin letters only, so "Anna" is found in "我和Anna一起" but not in "Annabelle".
      return CJK.test(n) ? body : `(?<![\\p{Script=Latin}\\p{N}_])${body}(?![\\p{Script=Latin}\\p{N}_])`;
    });
  if (alternatives.length === 0) return;
  for (const m of text.matchAll(new RegExp(alternatives.join('|'), 'giu')))
    add('person', m.index, m.index + m[0].length);
}

function resolveOverlaps(found: PiiFinding[]): PiiFinding[] {
  const rank = (f: PiiFinding) => (f.value === SHADOW ? RANK.iban + 0.5 : RANK[f.kind]);
  found.sort((a, b) => rank(a) - rank(b) || a.start - b.start || b.end - a.end);
  return keepNonOverlapping(found).filter((f) => f.value !== SHADOW);
}

const PLACEHOLDER = /\[(email|phone|iban|card|address|person)_(\d+)\]/g;

/** Canonical form under which two spellings of one value share a placeholder. */
function normalize(kind: PiiKind, value: string): string {
  if (kind === 'phone') return value.replace(/[^\d+]/g, '');
  if (kind === 'iban' || kind === 'card') return value.replace(/[\s-]/g, '').toUpperCase();
  return value.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * Stable, reversible placeholders `[person_1]`, `[email_2]` …: one counter across kinds, and the same value
 * (compared case- and spacing-insensitively) always gets the same placeholder.
 */
export class PlaceholderMap {
  #byKey = new Map<string, string>();
  #byPlaceholder = new Map<string, { kind: PiiKind; value: string }>();
  #next = 1;

  /** Rebuilds a map persisted through `entries()`; new placeholders continue after the highest number. */
  static fromEntries(
    entries: ReadonlyArray<{ placeholder: string; kind: PiiKind; value: string }>,
  ): PlaceholderMap {
    const map = new PlaceholderMap();
    for (const e of entries) {
      map.#byKey.set(`${e.kind}\u0000${normalize(e.kind, e.value)}`, e.placeholder);
      map.#byPlaceholder.set(e.placeholder, { kind: e.kind, value: e.value });
      map.#next = Math.max(map.#next, Number(/_(\d+)\]$/.exec(e.placeholder)?.[1] ?? 0) + 1);
    }
    return map;
  }

  /** The placeholder for `value`, allocating the next number on first sight. */
  placeholderFor(kind: PiiKind, value: string): string {
    const key = `${kind}\u0000${normalize(kind, value)}`;
    let placeholder = this.#byKey.get(key);
    if (placeholder === undefined) {
      placeholder = `[${kind}_${this.#next++}]`;
      this.#byKey.set(key, placeholder);
      this.#byPlaceholder.set(placeholder, { kind, value });
    }
    return placeholder;
  }

  /** Puts the first-seen original back for every placeholder this map knows; unknown ones stay as they are. */
  restore(text: string): string {
    return text.replace(PLACEHOLDER, (p) => this.#byPlaceholder.get(p)?.value ?? p);
  }

  /** Every placeholder with its kind and first-seen value, in allocation order. */
  entries(): Array<{ placeholder: string; kind: PiiKind; value: string }> {
    return [...this.#byPlaceholder].map(([placeholder, e]) => ({ placeholder, ...e }));
  }
}

/** Replaces every finding with its placeholder from `map` (a new map when none is given). */
export function pseudonymize(
  text: string,
  opts: PiiOptions = {},
  map: PlaceholderMap = new PlaceholderMap(),
): { text: string; map: PlaceholderMap; findings: PiiFinding[] } {
  const findings = findPii(text, opts);
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.start) + map.placeholderFor(f.kind, f.value);
    at = f.end;
  }
  return { text: out + text.slice(at), map, findings };
}
