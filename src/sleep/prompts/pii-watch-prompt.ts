/** PII night watch (SEEDS §3.5): names and contact data that slipped through without a placeholder. */

import { z } from 'zod';
import { buildPrompt, clip, type BuiltPrompt, type PromptOptions } from './prompt.js';
import { id, text } from './schema-parts.js';

/** Input of the PII watch: texts that already went through the placeholder redactor. */
export interface PiiWatchInput {
  texts: Array<{ id: string; text: string }>;
}

/** SEEDS §3.5: up to 10 names per night. */
export const MAX_PII_NAMES_PER_NIGHT = 10;
const TEXT_CHARS = 600;
const ANSWER_TOKENS = 300;
/** What placeholders look like (`[person_1]`, `[email_2]`, script/pii-scan): never reported as leaks. */
const PLACEHOLDER = /^[[<{]+[a-z]+[_-]?\d*[\]>}]+$/i;

/** Response schema of the PII watch. */
export const piiWatchResponseSchema = z.strictObject({
  names: z.array(z.object({ name: text(120), ids: z.array(id).min(1) })),
});

/** A parsed PII-watch answer. */
export type PiiWatchResponse = z.infer<typeof piiWatchResponseSchema>;

/** Builds the PII-watch prompt. */
export function buildPiiWatchPrompt(input: PiiWatchInput, options: PromptOptions = {}): BuiltPrompt {
  const texts = input.texts.map((t) => ({ id: t.id, text: clip(t.text, TEXT_CHARS) }));
  return buildPrompt('pii_watch', { texts }, ANSWER_TOKENS, options);
}

/** A confirmed leak: the exact string and the shown texts that contain it. */
export interface PiiLeak {
  name: string;
  ids: string[];
}

/**
 * Believes the model only where the text agrees: a reported name must literally occur in each text it cites (ids
 * where it does not are removed; a name with none left is dropped). Placeholders, names shorter than 2 characters
 * and names in `ignore` (e.g. the agent's own name) are dropped; duplicates merge; at most 10 per night.
 */
export function acceptPiiLeaks(
  answer: PiiWatchResponse,
  input: PiiWatchInput,
  options: { ignore?: readonly string[]; limit?: number } = {},
): { leaks: PiiLeak[]; dropped: number; overLimit: number } {
  const texts = new Map(input.texts.map((t) => [t.id, t.text]));
  const ignore = new Set((options.ignore ?? []).map((s) => s.toLowerCase()));
  const byName = new Map<string, Set<string>>();
  let dropped = 0;
  for (const n of answer.names) {
    const name = n.name.trim();
    const ids = n.ids.filter((i) => texts.get(i)?.includes(name) === true);
    if (name.length < 2 || PLACEHOLDER.test(name) || ignore.has(name.toLowerCase()) || ids.length === 0) {
      dropped += 1;
      continue;
    }
    const set = byName.get(name) ?? new Set<string>();
    for (const i of ids) set.add(i);
    byName.set(name, set);
  }
  const all = [...byName].map(([name, ids]) => ({ name, ids: [...ids] }));
  const limit = options.limit ?? MAX_PII_NAMES_PER_NIGHT;
  return { leaks: all.slice(0, limit), dropped, overLimit: Math.max(0, all.length - limit) };
}
