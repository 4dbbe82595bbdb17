// Deterministic synthetic episodes for the scale benchmark: sessions of dialogue, Zipf vocabulary, ~10 % Chinese.
import { createRng, type SeededRandom } from '../../script/seeded-rng.js';
import { zipfSampler } from './zipf-sampler.js';
import { ADJECTIVES, NOUNS, PEOPLE, PLACES, TIMES, VERBS, ZH, longTailWords } from './vocabulary.js';

/** One synthetic episode (a conversation turn), the unit every scale system ingests. */
export interface ScaleItem {
  readonly id: string;
  readonly sessionId: string;
  readonly role: 'user' | 'assistant';
  readonly speaker: string;
  readonly text: string;
  /** Epoch ms, UTC. */
  readonly at: number;
  /** 384-d unit vector, present only for systems measured in hybrid mode. */
  embedding?: Float32Array;
}

/** Options of {@link syntheticEpisodes}. */
export interface SyntheticOptions {
  readonly seed: number;
  /** Share of Chinese turns; default 0.1 (the "some Chinese"). */
  readonly chineseShare?: number;
  /** First session's start, epoch ms; default 2024-01-01T00:00Z. */
  readonly startAt?: number;
}

// Real words head the noun list and the made-up long tail follows, so frequent ranks read naturally
// and rare ranks are specific terms; 20,000 tail words give a vocabulary near real work logs.
const TAIL = longTailWords(20_000, 7);
const NOUN_POOL = [...NOUNS, ...TAIL];
const nounRank = zipfSampler(NOUN_POOL.length, 1.15);
const verbRank = zipfSampler(VERBS.length);
const adjRank = zipfSampler(ADJECTIVES.length);
const tailRank = zipfSampler(TAIL.length);

type Slots = Record<string, (rng: SeededRandom) => string>;

const EN: Slots = {
  N: (r) => NOUN_POOL[nounRank(r)] as string,
  V: (r) => (VERBS[verbRank(r)] as readonly [string, string])[0],
  D: (r) => (VERBS[verbRank(r)] as readonly [string, string])[1],
  A: (r) => ADJECTIVES[adjRank(r)] as string,
  P: (r) => r.pick(PEOPLE),
  L: (r) => r.pick(PLACES),
  T: (r) => r.pick(TIMES),
  X: (r) => TAIL[tailRank(r)] as string,
  K: (r) => String(r.between(2, 500)),
};

const ZH_SLOTS: Slots = {
  N: (r) => r.pick(ZH.nouns),
  V: (r) => r.pick(ZH.verbs),
  A: (r) => r.pick(ZH.adjectives),
  P: (r) => r.pick(ZH.people),
  L: (r) => r.pick(ZH.places),
  T: (r) => r.pick(ZH.times),
  X: (r) => TAIL[tailRank(r)] as string,
};

const EN_TEMPLATES = [
  '{P} said the {A} {N} {D} near the {L}.',
  'I {D} the {N} for {P} {T}.',
  'Can you {V} the {N} before {T}?',
  'We need to {V} {K} {N} items and the {A} {N} in {L}.',
  'The {X} {N} keeps failing when we {V} it {T}.',
  '{P} prefers the {A} {N} over the {A} {N}.',
  'Remember that {P} does not like {N} with {N}.',
  'The {X} tool returned {K} results for {N} {N}.',
  "Let's {V} the {X} rollout {T}; {P} will {V} the {N}.",
  'My {N} broke, so I {D} a {A} one in {L}.',
  'Sure, I will {V} the {N} and {V} the {X} {N} {T}.',
  'Done: {D} the {A} {N}, {K} ms faster than the old {N}.',
];

const ZH_TEMPLATES = [
  '{P}说{T}要去{L}{V}{N}。',
  '我{T}在{L}{V}了{N}，感觉很{A}。',
  '{P}喜欢{A}的{N}，不喜欢{N}。',
  '请帮我把{N}{V}一下，{T}之前要给{P}。',
  '{X}项目的{N}又出问题了，{P}正在{V}。',
];

function fill(template: string, slots: Slots, rng: SeededRandom): string {
  return template.replace(/\{([A-Z])\}/gu, (_, slot: string) => (slots[slot] as (r: SeededRandom) => string)(rng));
}

/** One line of text: English (with an occasional second sentence) or Chinese. */
export function syntheticLine(rng: SeededRandom, chineseShare: number): string {
  if (rng.chance(chineseShare)) return fill(rng.pick(ZH_TEMPLATES), ZH_SLOTS, rng);
  const first = fill(rng.pick(EN_TEMPLATES), EN, rng);
  return rng.chance(0.35) ? `${first} ${fill(rng.pick(EN_TEMPLATES), EN, rng)}` : first;
}

/**
 * An endless, deterministic stream of episodes: sessions of 4–40 turns between one person and the
 * assistant, sessions 1–48 h apart, turns 10–300 s apart. The same seed always yields the same stream.
 * @example const first = syntheticEpisodes({ seed: 1 }).next().value
 */
export function* syntheticEpisodes(options: SyntheticOptions): Generator<ScaleItem, never, undefined> {
  const rng = createRng(options.seed);
  const chineseShare = options.chineseShare ?? 0.1;
  let at = options.startAt ?? Date.UTC(2024, 0, 1);
  let index = 0;
  for (let session = 0; ; session += 1) {
    const person = rng.pick([...PEOPLE, ...ZH.people]);
    const turns = rng.between(4, 40);
    at += rng.between(1, 48) * 3_600_000;
    for (let t = 0; t < turns; t += 1) {
      at += rng.between(10, 300) * 1000;
      const role = t % 2 === 0 ? 'user' : 'assistant';
      yield {
        id: `ep-${index}`,
        sessionId: `s-${session}`,
        role,
        speaker: role === 'user' ? person : 'assistant',
        text: syntheticLine(rng, chineseShare),
        at,
      };
      index += 1;
    }
  }
}
