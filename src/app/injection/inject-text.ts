/** Text hygiene for injected lines: bracket tags stripped, one line, clipped at a sentence or word boundary. */

// SEEDS §1.6 `_strip_tags`: bracket labels a model left in stored text, e.g. `[gesture: …]`, `[self_reflection]`.
const BRACKET_TAG = /\[(?:gesture|self_reflection|terrain|context|moment|general|insight|observation|reflection)[^\]]*\]\s*/gi;

/** Removes Tideline's bracket tags from `text`. */
export function stripBracketTags(text: string): string {
  return text.replace(BRACKET_TAG, '').trim();
}

/** Collapses whitespace so that one memory is one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const SENTENCE_END = /[.!?。！？；;](?=\s|$)|[。！？；]/g;

/**
 * Cuts `text` to at most `max` characters: at the last sentence end inside the limit when that keeps at least half,
 * else at the last space, else hard; an ellipsis marks the cut. Text within the limit is returned unchanged.
 */
export function clipAtBoundary(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join('');
  let cut = -1;
  for (const m of head.matchAll(SENTENCE_END)) cut = m.index + m[0].length;
  if (cut >= head.length / 2) return head.slice(0, cut).trimEnd();
  const space = head.lastIndexOf(' ');
  return `${(space >= head.length / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}
