/**
 * Folds what carries no memory out of a packet's turns before any model sees them, deterministically: sentences made
 * only of greetings, thanks, praise and acknowledgements ("Wow, that's great, Mara!", "Thanks!", "Bye!"), a leading
 * interjection or greeting of a sentence that goes on ("Hey John, " in "Hey John, I got the job!"), and exact
 * repeats of an earlier turn of the same packet (an agent's `Bash {"command":"npm run lint"}` twenty times). The
 * stored episodes are untouched; only the model's copy is shorter. What it loses is measured in
 * `docs/BENCHMARKS.md` ("Sleep tokens per night").
 */

/**
 * Words a filler sentence may consist of. Deliberately narrow: no yes/no (an answer is content), no negation, no
 * verb of doing; a sentence with one word outside this list (or any non-Latin word) is kept whole.
 */
const FILLER_WORDS = new Set(
  `wow whoa oh ooh ah aw aww hey hi hello yay ok okay cool nice great awesome amazing wonderful fantastic incredible
  lovely sweet neat brilliant perfect congrats congratulations thanks thank you so much very really that that's thats
  it it's its what a how sounds sound looks look like good glad to hear for i'm i am totally absolutely definitely
  agreed agree true exactly haha lol bye see ya later too and such an the this is was take care keep up work welcome
  appreciate proud of your you're all best luck how's what's up have been doing going hope hey there again meet chat
  talk soon catch yours from woohoo cheers sorry idea news sharing advice recommendation encouragement offer
  inspiring`.split(/\s+/),
);

/**
 * Words a leading clause may consist of to be folded off a sentence that goes on ("Wow Mel, that painting's amazing!"
 * → "that painting's amazing!"): interjections, greetings, thanks and praise, with the speakers' names. Narrower than
 * the filler words: agreement ("definitely", "agreed", "true") answers something and stays.
 */
const LEAD_WORDS = new Set(
  `wow whoa oh ooh ah aw aww hey hi hello yay woohoo haha lol ok okay cool nice great awesome amazing wonderful
  fantastic lovely sweet neat brilliant perfect congrats congratulations thanks thank you so much cheers`.split(/\s+/),
);

/** One turn after folding. */
export type FoldedLine =
  | { kind: 'text'; text: string }
  | { kind: 'repeat'; of: number }
  | { kind: 'filler' };

/** What folding removed, for the night log. */
export interface FoldStats {
  turns: number;
  /** Turns that were only filler (left out). */
  fillerTurns: number;
  /** Filler sentences removed, in those turns and in turns that kept other sentences. */
  fillerSentences: number;
  /** Leading interjections, greetings or thanks folded off a sentence that goes on ("Wow Mel, …"). */
  leadClauses: number;
  /** Turns shown as `=n` (an exact repeat of turn n). */
  repeats: number;
  charsBefore: number;
  charsAfter: number;
}

/** Sentences with their closing punctuation and the space after it. */
function sentences(text: string): string[] {
  return text.match(/[^.!?。！？\n]+[.!?。！？]*\s*|\n+/gu) ?? [text];
}

function isFiller(sentence: string, names: ReadonlySet<string>): boolean {
  // A placeholder such as [person_1] is a name, and names are what a greeting addresses.
  const s = sentence.replace(/\[[a-z]+_\d+\]/g, ' ').toLowerCase();
  if (!/[\p{L}\p{N}]/u.test(s)) return true;
  if (/\p{N}/u.test(s)) return false;
  const words = s.match(/[\p{L}']+/gu) ?? [];
  return words.every((w) => FILLER_WORDS.has(w) || isName(w, names));
}

/**
 * `sentence` without a leading clause of {@link LEAD_WORDS} and names ("Hey John, ", "Wow, Caroline - "), or as it is
 * when there is none or nothing would follow it.
 */
function dropLead(sentence: string, names: ReadonlySet<string>): string {
  const m = /^\s*([^,;:\-–—]+?)\s*(?:,|\s[-–—])\s*(?=\S)/u.exec(sentence);
  if (m === null) return sentence;
  const words = m[1]!.replace(/\[[a-z]+_\d+\]/g, ' ').toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  if (words.length === 0 || !words.every((w) => LEAD_WORDS.has(w))) return sentence;
  const rest = sentence.slice(m[0].length);
  // "Wow, Caroline, you …": one clause at a time.
  return /[\p{L}\p{N}]/u.test(rest) ? dropLead(rest, names) : sentence;
}

/** A speaker's name or a short form of it ("Mel" for Melanie). */
function isName(word: string, names: ReadonlySet<string>): boolean {
  if (names.has(word)) return true;
  if (word.length < 3) return false;
  for (const n of names) if (n.startsWith(word)) return true;
  return false;
}

/**
 * Folds `texts` (one packet's turns, in order). `speakers` are the packet's speaker names: a sentence that only
 * greets or thanks one of them ("Thanks, Mara!") is filler too.
 */
export function foldTurns(
  texts: readonly string[],
  speakers: readonly string[],
): { lines: FoldedLine[]; stats: FoldStats } {
  const names = new Set(speakers.flatMap((s) => s.toLowerCase().match(/[\p{L}']+/gu) ?? []));
  const stats: FoldStats = {
    turns: texts.length,
    fillerTurns: 0,
    fillerSentences: 0,
    leadClauses: 0,
    repeats: 0,
    charsBefore: 0,
    charsAfter: 0,
  };
  const firstOf = new Map<string, number>();
  const lines = texts.map((text, i): FoldedLine => {
    stats.charsBefore += text.length;
    const parts = sentences(text);
    const kept = parts.filter((p) => !isFiller(p, names));
    stats.fillerSentences += parts.filter((p) => p.trim() !== '').length - kept.filter((p) => p.trim() !== '').length;
    const body = kept
      .map((p) => {
        const rest = dropLead(p, names);
        if (rest !== p) stats.leadClauses += 1;
        return rest;
      })
      .join('')
      .trim();
    if (body === '') {
      stats.fillerTurns += 1;
      return { kind: 'filler' };
    }
    const earlier = firstOf.get(body);
    // `=12` costs two tokens; a repeat shorter than that is cheaper written out.
    if (earlier !== undefined && body.length > 6) {
      stats.repeats += 1;
      stats.charsAfter += String(earlier).length + 1;
      return { kind: 'repeat', of: earlier };
    }
    if (!firstOf.has(body)) firstOf.set(body, i + 1);
    stats.charsAfter += body.length;
    return { kind: 'text', text: body };
  });
  return { lines, stats };
}
