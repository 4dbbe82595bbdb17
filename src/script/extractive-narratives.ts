/** Extractive narratives: a night without a model turns conversation chunks into narratives made of their salient turns. */

/** One conversation turn of a chunk. */
export interface ExtractTurn {
  id: number;
  speaker: string | null;
  content: string;
  at: number;
}

/** A narrative drawn from turns, in the fields the night writes (scores 1-5, as a model would give them). */
export interface ExtractedNarrative {
  gesture: string;
  context: string;
  moment: string | null;
  entitiesRole: string | null;
  tags: string[];
  sourceLinks: number[];
  importance: number;
  emotional: number;
  unresolved: number;
}

/** Options of {@link extractNarratives}; defaults keep Tideline's solidify limits (0-3 narratives per chunk, 3-5 tags). */
export interface ExtractOptions {
  /** Keywords of a text (the script layer's extractor: stop words out, jieba for Chinese). */
  keywords: (text: string) => string[];
  /** Narratives per chunk at most (3, as the model's solidify step). */
  perChunk?: number;
  /** Turns a narrative covers at least (a chunk of 3+ turns gives one per this many, up to `perChunk`). */
  turnsPerNarrative?: number;
  /** Tags per narrative at most (5); fewer when the turns have fewer keywords. */
  tags?: number;
  /** Characters of a turn kept in the gesture or moment (a longer turn is cut at a sentence end). */
  turnChars?: number;
}

const DEFAULTS = { perChunk: 3, turnsPerNarrative: 8, tags: 5, turnChars: 400 } as const;
// Capitalised words that open or fill sentences without naming anyone or anything.
const NOT_NAMES = new Set(['I', 'The', 'A', 'An', 'And', 'But', 'So', 'Oh', 'Yes', 'No', 'Hey', 'Hi', 'Wow', 'Thanks', 'Thank', 'It', 'That', 'This', 'What', 'How', 'Why', 'When', 'Where', 'Who', 'We', 'You', 'My', 'Your', 'Our', 'They', 'He', 'She', 'Me', 'Mom', 'Dad', 'OK', 'Okay', 'Sure', 'Great', 'Good', 'Well', 'Also', 'Just', 'Yeah', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']);
const CAPITALISED = /(?<![.!?]\s|^)\b[A-Z][a-z]+(?:\s[A-Z][a-z]+)*\b/g;

/**
 * Named things a text mentions: runs of capitalised words that do not open a sentence and are not common openers
 * ("We went to Sweden with Mel" → Sweden, Mel). A heuristic for English; Chinese names need the model or knownPersons.
 */
export function namedEntities(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(CAPITALISED)) {
    const words = m[0].split(' ').filter((w) => !NOT_NAMES.has(w));
    if (words.length > 0) out.add(words.join(' '));
  }
  return [...out];
}

/** Cuts a turn at the last sentence end within `max` characters (keeping at least half), else at a space, with "…". */
export function clipTurn(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if ([...t].length <= max) return t;
  const head = [...t].slice(0, max - 1).join('');
  let cut = -1;
  for (const m of head.matchAll(/[.!?。！？](?=\s|$)|[。！？]/g)) cut = m.index + m[0].length;
  if (cut >= head.length / 2) return head.slice(0, cut);
  const space = head.lastIndexOf(' ');
  return `${space >= head.length / 2 ? head.slice(0, space) : head}…`;
}

function said(t: ExtractTurn, max: number): string {
  return `${t.speaker ? `${t.speaker}: ` : ''}${clipTurn(t.content, max)}`;
}

/**
 * Builds narratives from conversation chunks with no model. Each chunk (a Layer-0 scan chunk: one session's turns
 * with ≤ 10-minute gaps, ≥ 3 turns) is split into up to `perChunk` runs of consecutive turns; each run gives one
 * narrative whose gesture is its most salient turn (the sum of its keywords' IDF over every turn given, so a turn
 * full of rare words wins over "Thanks, you too!"), whose moment is the second, whose context names the speakers,
 * the day and the run's top keywords, whose tags are those keywords, whose `entities_role` lists the speakers and
 * the names the run mentions, and whose source_links are the run's turns. Importance grows with salience (2-5,
 * ranked over all runs given); emotion and unresolvedness are unknown without a model (3, Tideline's default).
 */
export function extractNarratives(chunks: readonly (readonly ExtractTurn[])[], opts: ExtractOptions): ExtractedNarrative[] {
  const o = { ...DEFAULTS, ...opts };
  const turns = chunks.flat();
  const kw = new Map(turns.map((t) => [t.id, [...new Set(opts.keywords(t.content))]]));
  const df = new Map<string, number>();
  for (const words of kw.values()) for (const w of words) df.set(w, (df.get(w) ?? 0) + 1);
  const n = Math.max(1, turns.length);
  const idf = (w: string) => Math.log(1 + n / (df.get(w) ?? 1));
  const salience = (t: ExtractTurn) => (kw.get(t.id) ?? []).reduce((s, w) => s + idf(w), 0);
  const runs: ExtractTurn[][] = [];
  for (const chunk of chunks) {
    if (chunk.length === 0) continue;
    const parts = Math.max(1, Math.min(o.perChunk, Math.round(chunk.length / o.turnsPerNarrative)));
    const size = Math.ceil(chunk.length / parts);
    for (let i = 0; i < chunk.length; i += size) runs.push(chunk.slice(i, i + size));
  }
  const drafts = runs.map((run) => {
    const ranked = [...run].sort((a, b) => salience(b) - salience(a) || a.id - b.id);
    const score = new Map<string, number>();
    for (const t of run) for (const w of kw.get(t.id) ?? []) score.set(w, (score.get(w) ?? 0) + idf(w));
    // A tag is a word said at least twice in the run, or else the run's rarest words; ties by first use.
    const tags = [...score.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, o.tags)
      .map(([w]) => w);
    const speakers = [...new Set(run.map((t) => t.speaker).filter((s): s is string => !!s))];
    const mentioned = [...new Set(run.flatMap((t) => namedEntities(t.content)))].filter((e) => !speakers.includes(e)).slice(0, 5);
    const roles = [...speakers.map((s) => `${s}=speaker`), ...mentioned.map((m) => `${m}=mentioned`)];
    const day = new Date(run[0]!.at).toISOString().slice(0, 10);
    const who = speakers.length > 0 ? speakers.join(' and ') : 'a conversation';
    return {
      top: salience(ranked[0]!),
      n: {
        gesture: said(ranked[0]!, o.turnChars),
        context: `${who} on ${day}${tags.length > 0 ? `: ${tags.join(', ')}` : ''}`,
        moment: ranked.length > 1 && salience(ranked[1]!) > 0 ? said(ranked[1]!, o.turnChars) : null,
        entitiesRole: roles.length > 0 ? roles.join('; ') : null,
        tags,
        sourceLinks: run.map((t) => t.id),
        importance: 3,
        emotional: 3,
        unresolved: 3,
      } satisfies ExtractedNarrative,
    };
  });
  // Importance by salience rank over the night: top fifth 5, next two fifths 4, next 3, the rest 2.
  const order = drafts.map((d, i) => ({ i, s: d.top })).sort((a, b) => b.s - a.s || a.i - b.i);
  order.forEach(({ i }, rank) => {
    const q = rank / Math.max(1, order.length);
    drafts[i]!.n.importance = q < 0.2 ? 5 : q < 0.6 ? 4 : q < 0.8 ? 3 : 2;
  });
  return drafts.filter((d) => d.top > 0).map((d) => d.n);
}
