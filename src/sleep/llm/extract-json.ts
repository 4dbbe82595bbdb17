/** Finds the JSON value in a model's answer: the whole text, a ```json fence, or the first balanced object/array. */

/** The parsed JSON value, or why none was found. */
export type ExtractedJson = { ok: true; value: unknown } | { ok: false; reason: string };

/** How many candidate start positions to try before giving up; answers are short (SEEDS §1.8 token budget). */
const MAX_STARTS = 20;

/**
 * Extracts JSON from free model text. Reasoning models wrap thoughts in `<think>…</think>`; those are removed first,
 * since they may hold draft JSON that is not the answer.
 */
export function extractJson(text: string): ExtractedJson {
  const cleaned = text.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  if (cleaned.length === 0) return { ok: false, reason: 'the answer is empty' };
  const whole = tryParse(cleaned);
  if (whole.ok) return whole;
  for (const m of cleaned.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)) {
    const fenced = tryParse((m[1] ?? '').trim());
    if (fenced.ok) return fenced;
  }
  let starts = 0;
  for (let i = 0; i < cleaned.length && starts < MAX_STARTS; i++) {
    const c = cleaned[i];
    if (c !== '{' && c !== '[') continue;
    starts += 1;
    const end = matchingClose(cleaned, i);
    if (end < 0) continue;
    const inner = tryParse(cleaned.slice(i, end + 1));
    if (inner.ok) return inner;
  }
  return { ok: false, reason: 'no JSON object or array found in the answer' };
}

function tryParse(s: string): ExtractedJson {
  try {
    return { ok: true, value: JSON.parse(s) as unknown };
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
}

/** Index of the bracket closing the one at `start`, skipping brackets inside strings; -1 if unbalanced. */
function matchingClose(s: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
