// A seeded generator of parallel LoCoMo-shaped corpora: the same conversations, facts and questions once in
// English and once in Chinese, so that recall on the two can be compared item for item.
import { createRng, type SeededRandom } from '../../script/seeded-rng.js';
import { ELABORATIONS, FACTS, FILLERS, FOLLOW_UPS, HOP_QUESTIONS, NAMES, REACTIONS, SLOTS } from './parallel-banks.js';
import type { Bi, FactTemplate, HopGroup, SlotName, SlotValue } from './parallel-banks.js';

export type Lang = 'en' | 'zh';
export const LANGS: readonly Lang[] = ['en', 'zh'];

/** One turn as LoCoMo writes it. */
export interface LocomoTurnJson {
  readonly speaker: string;
  readonly dia_id: string;
  readonly text: string;
}

/** One question as LoCoMo writes it. */
export interface LocomoQaJson {
  readonly question: string;
  readonly answer: string;
  readonly evidence: readonly string[];
  readonly category: number;
}

/** One conversation sample as LoCoMo writes it (`session_N`, `session_N_date_time`, `speaker_a/b`). */
export interface LocomoSampleJson {
  readonly sample_id: string;
  readonly conversation: Record<string, string | readonly LocomoTurnJson[]>;
  readonly qa: readonly LocomoQaJson[];
}

export interface ParallelCorpusOptions {
  readonly seed?: number;
  /** Conversations; default 10. */
  readonly conversations?: number;
  /** Sessions per conversation, inclusive range; default [10, 20]. */
  readonly sessions?: readonly [number, number];
  /** Turns per session, inclusive range; default [20, 30]. */
  readonly turns?: readonly [number, number];
}

export type ParallelCorpus = Record<Lang, LocomoSampleJson[]>;

/** A relative time a teller uses, and how the answer of "when" reads from the session's date. */
interface TimeWord {
  readonly text: Bi;
  /** Names a single day (fits "{T} was my first day"). */
  readonly oneDay: boolean;
  readonly answer: (at: number) => Bi;
}

const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY = 86_400_000;

function enDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${EN_MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

function zhDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}年${d.getUTCMonth() + 1}月${d.getUTCDate()}日`;
}

function lastMonth(at: number): Bi {
  const d = new Date(at);
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
  return [`${EN_MONTHS[m.getUTCMonth()]} ${m.getUTCFullYear()}`, `${m.getUTCFullYear()}年${m.getUTCMonth() + 1}月`];
}

const TIMES: readonly TimeWord[] = [
  { text: ['yesterday', '昨天'], oneDay: true, answer: (at) => [enDate(at - DAY), zhDate(at - DAY)] },
  { text: ['two days ago', '前天'], oneDay: true, answer: (at) => [enDate(at - 2 * DAY), zhDate(at - 2 * DAY)] },
  { text: ['last Saturday', '上周六'], oneDay: true, answer: (at) => [`the Saturday before ${enDate(at)}`, `${zhDate(at)}之前的那个周六`] },
  { text: ['last Friday', '上周五'], oneDay: true, answer: (at) => [`the Friday before ${enDate(at)}`, `${zhDate(at)}之前的那个周五`] },
  { text: ['last weekend', '上周末'], oneDay: false, answer: (at) => [`the weekend before ${enDate(at)}`, `${zhDate(at)}之前的那个周末`] },
  { text: ['last week', '上周'], oneDay: false, answer: (at) => [`the week before ${enDate(at)}`, `${zhDate(at)}的前一周`] },
  { text: ['a few days ago', '几天前'], oneDay: false, answer: (at) => [`a few days before ${enDate(at)}`, `${zhDate(at)}的几天前`] },
  { text: ['last month', '上个月'], oneDay: false, answer: lastMonth },
  { text: ['three weeks ago', '三周前'], oneDay: false, answer: (at) => [`three weeks before ${enDate(at)}`, `${zhDate(at)}的三周前`] },
];

/** `1:56 pm on 8 May, 2023` and `2023年5月8日 下午1:56`: LoCoMo's form and its Chinese counterpart. */
export function sessionDateText(ms: number): Bi {
  const d = new Date(ms);
  const h = d.getUTCHours();
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  const h12 = h % 12 === 0 ? 12 : h % 12;
  const part = h < 5 ? '凌晨' : h < 12 ? '上午' : h === 12 ? '中午' : h < 18 ? '下午' : '晚上';
  return [
    `${h12}:${mm} ${h < 12 ? 'am' : 'pm'} on ${d.getUTCDate()} ${EN_MONTHS[d.getUTCMonth()]}, ${d.getUTCFullYear()}`,
    `${zhDate(ms)} ${part}${h12}:${mm}`,
  ];
}

// ---- The language-neutral plan: every random draw happens here, so both languages share it exactly. ----

interface PlannedFact {
  readonly template: FactTemplate;
  readonly owner: 0 | 1;
  readonly values: Partial<Record<SlotName, SlotValue>>;
  readonly time: TimeWord | undefined;
  readonly session: number;
  readonly sessionAt: number;
  readonly sayId: string;
  readonly detailId: string | undefined;
}

type PlannedText =
  | { readonly kind: 'bank'; readonly text: Bi }
  | { readonly kind: 'fact'; readonly fact: PlannedFact; readonly part: 'say' | 'detail' };

interface PlannedSession {
  readonly n: number;
  readonly at: number;
  readonly turns: ReadonlyArray<{ readonly speaker: 0 | 1; readonly text: PlannedText }>;
}

interface PlannedQuestion {
  readonly category: 1 | 2 | 4;
  readonly ask: Bi;
  readonly owner: 0 | 1;
  readonly facts: readonly PlannedFact[];
  readonly evidence: readonly string[];
  readonly answer: (lang: Lang) => string;
}

interface PlannedConversation {
  readonly id: string;
  readonly names: readonly [Bi, Bi];
  readonly sessions: readonly PlannedSession[];
  readonly questions: readonly PlannedQuestion[];
}

function shuffled<T>(rng: SeededRandom, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Draws a fact for `owner`, never repeating a slot value the owner already used in the same group. */
function drawFact(rng: SeededRandom, owner: 0 | 1, used: Set<string>): Pick<PlannedFact, 'template' | 'values'> {
  for (let attempt = 0; ; attempt += 1) {
    const template = rng.pick(FACTS);
    const values: Partial<Record<SlotName, SlotValue>> = {};
    for (const s of template.slots) values[s] = rng.pick(SLOTS[s]);
    const keys = [`${owner}|t=${template.id}`, ...template.slots.map((s) => `${owner}|${template.hop}|${s}=${values[s]?.en}`)];
    // After many attempts a crowded conversation may repeat a template, never a value within the group.
    const clash = keys.slice(attempt < 40 ? 0 : 1).some((k) => used.has(k));
    if (clash && attempt < 200) continue;
    for (const k of keys) used.add(k);
    return { template, values };
  }
}

function planConversation(rng: SeededRandom, index: number, names: readonly [Bi, Bi], o: Required<ParallelCorpusOptions>): PlannedConversation {
  const sessionCount = rng.between(o.sessions[0], o.sessions[1]);
  let at = Date.UTC(2022 + rng.int(2), rng.int(12), 1 + rng.int(28), rng.between(8, 21), rng.int(60));
  const used = new Set<string>();
  const facts: PlannedFact[] = [];
  const sessions: PlannedSession[] = [];
  for (let n = 1; n <= sessionCount; n += 1) {
    if (n > 1) {
      const day = Math.floor(at / DAY) * DAY + rng.between(2, 25) * DAY;
      at = day + rng.between(8, 21) * 3_600_000 + rng.int(60) * 60_000;
    }
    const count = rng.between(o.turns[0], o.turns[1]);
    const first = rng.int(2) as 0 | 1;
    const speakerAt = (i: number): 0 | 1 => ((first + i) % 2) as 0 | 1;
    const texts: Array<PlannedText | undefined> = new Array<PlannedText | undefined>(count).fill(undefined);
    const factCount = rng.between(1, 3);
    const positions: number[] = [];
    for (let tries = 0; positions.length < factCount && tries < 50; tries += 1) {
      const p = rng.int(count - 2);
      if (positions.every((q) => Math.abs(p - q) >= 4)) positions.push(p);
    }
    positions.sort((a, b) => a - b);
    for (const p of positions) {
      const owner = speakerAt(p);
      const { template, values } = drawFact(rng, owner, used);
      const timed = template.say[0].includes('{T}');
      const pool = template.oneDay ? TIMES.filter((t) => t.oneDay) : TIMES;
      const time = timed ? rng.pick(pool) : undefined;
      const fact: PlannedFact = {
        template, owner, values, time, session: n, sessionAt: at,
        sayId: `D${n}:${p + 1}`, detailId: template.detail ? `D${n}:${p + 3}` : undefined,
      };
      facts.push(fact);
      texts[p] = { kind: 'fact', fact, part: 'say' };
      // The other speaker reacts, generically or on the topic; the teller then adds the detail or a few words.
      texts[p + 1] = { kind: 'bank', text: rng.chance(0.5) ? rng.pick(REACTIONS) : rng.pick(FOLLOW_UPS[template.hop]) };
      if (template.detail) texts[p + 2] = { kind: 'fact', fact, part: 'detail' };
      else if (rng.chance(0.4)) texts[p + 2] = { kind: 'bank', text: rng.pick(ELABORATIONS) };
    }
    const fillers = shuffled(rng, FILLERS);
    const turns = texts.map((t, i) => ({ speaker: speakerAt(i), text: t ?? { kind: 'bank' as const, text: fillers[i % fillers.length] as Bi } }));
    sessions.push({ n, at, turns });
  }
  return { id: `bilingual-${index + 1}`, names, sessions, questions: planQuestions(facts) };
}

function slotAnswer(fact: PlannedFact, answer: SlotName | Bi, lang: Lang): string {
  if (typeof answer !== 'string') return answer[lang === 'en' ? 0 : 1];
  const value = fact.values[answer];
  return value ? value[lang] : '';
}

function planQuestions(facts: readonly PlannedFact[]): PlannedQuestion[] {
  const out: PlannedQuestion[] = [];
  for (const f of facts) {
    const t = f.template;
    const which = t.askEvidence ?? 'say';
    const evidence = which === 'say' ? [f.sayId] : which === 'detail' ? [f.detailId as string] : [f.sayId, f.detailId as string];
    out.push({ category: 4, ask: t.ask, owner: f.owner, facts: [f], evidence, answer: (lang) => slotAnswer(f, t.answer, lang) });
    if (t.when && f.time) {
      const time = f.time;
      out.push({
        category: 2, ask: t.when, owner: f.owner, facts: [f], evidence: [f.sayId],
        answer: (lang) => time.answer(f.sessionAt)[lang === 'en' ? 0 : 1],
      });
    }
  }
  // Multi-hop: a teller's facts of one group told in at least two sessions, at most four of them.
  const groups = new Map<string, PlannedFact[]>();
  for (const f of facts) {
    const key = `${f.owner}|${f.template.hop}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  for (const group of groups.values()) {
    if (new Set(group.map((f) => f.session)).size < 2) continue;
    const chosen = group.slice(0, 4);
    const hop: HopGroup = chosen[0]!.template.hop;
    out.push({
      category: 1, ask: HOP_QUESTIONS[hop], owner: chosen[0]!.owner, facts: chosen,
      evidence: chosen.map((f) => f.sayId),
      answer: (lang) => chosen.map((f) => slotAnswer(f, f.template.slots[0] as SlotName, lang)).join(lang === 'en' ? ', ' : '、'),
    });
  }
  return out;
}

// ---- Rendering the plan in one language. ----

function fill(text: Bi, lang: Lang, values: Partial<Record<SlotName, SlotValue>>, names: { S?: string; O?: string; T?: string }): string {
  const raw = text[lang === 'en' ? 0 : 1];
  const out = raw.replace(/\{(\w+)(:a)?\}/gu, (whole, key: string, article: string | undefined) => {
    if (key === 'S' || key === 'O' || key === 'T') return names[key] ?? whole;
    const value = values[key as SlotName];
    if (!value) throw new Error(`template slot {${key}} has no value: ${raw}`);
    if (!article) return value[lang];
    return lang === 'en' ? (value.enA ?? `a ${value.en}`) : (value.zhA ?? `一个${value.zh}`);
  });
  if (out.includes('{')) throw new Error(`unfilled placeholder in: ${out}`);
  return lang === 'en' ? out.charAt(0).toUpperCase() + out.slice(1) : out;
}

function renderConversation(plan: PlannedConversation, lang: Lang): LocomoSampleJson {
  const li = lang === 'en' ? 0 : 1;
  const name = (who: 0 | 1): string => plan.names[who][li];
  const conversation: Record<string, string | readonly LocomoTurnJson[]> = { speaker_a: name(0), speaker_b: name(1) };
  for (const s of plan.sessions) {
    conversation[`session_${s.n}_date_time`] = sessionDateText(s.at)[li];
    conversation[`session_${s.n}`] = s.turns.map((t, i): LocomoTurnJson => {
      const other = name(t.speaker === 0 ? 1 : 0);
      let text: string;
      if (t.text.kind === 'bank') {
        text = fill(t.text.text, lang, {}, { O: other });
      } else {
        const f = t.text.fact;
        const time = f.time ? f.time.text[li] : undefined;
        text = fill(t.text.part === 'say' ? f.template.say : (f.template.detail as Bi), lang, f.values, time === undefined ? {} : { T: time });
      }
      return { speaker: name(t.speaker), dia_id: `D${s.n}:${i + 1}`, text };
    });
  }
  const qa = plan.questions.map((q): LocomoQaJson => ({
    question: fill(q.ask, lang, q.facts[0]!.values, { S: name(q.owner) }),
    answer: q.answer(lang),
    evidence: [...q.evidence],
    category: q.category,
  }));
  return { sample_id: plan.id, conversation, qa };
}

/**
 * Generates `conversations` conversations in LoCoMo's JSON shape, once in English and once in Chinese, from
 * one seeded plan: same sample ids, sessions, dates, turn ids, speakers (by position), facts, questions,
 * categories and evidence. Each teller's facts carry relative times ("last weekend" / "上周末"); questions
 * are paraphrases of their evidence (category 4 single-hop, 2 temporal, 1 multi-hop across sessions).
 */
export function generateParallelCorpus(options: ParallelCorpusOptions = {}): ParallelCorpus {
  const o: Required<ParallelCorpusOptions> = {
    seed: options.seed ?? 1,
    conversations: options.conversations ?? 10,
    sessions: options.sessions ?? [10, 20],
    turns: options.turns ?? [20, 30],
  };
  if (o.turns[0] < 8) throw new Error('sessions need at least 8 turns');
  const rng = createRng(o.seed);
  const pairs = shuffled(rng, NAMES);
  const plans = Array.from({ length: o.conversations }, (_, i) => planConversation(rng, i, pairs[i % pairs.length]!, o));
  return { en: plans.map((p) => renderConversation(p, 'en')), zh: plans.map((p) => renderConversation(p, 'zh')) };
}
