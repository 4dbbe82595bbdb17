/** Self-image (SEEDS §3.5): what the agent mainly works on, how the user wants things done, where it gets stuck. */

import { z } from 'zod';
import { buildPrompt, clip, type BuiltPrompt, type PromptOptions } from './prompt.js';
import { text } from './schema-parts.js';

/** Input of the self-image step: knowledge entries, strongest first. */
export interface SelfImageInput {
  knowledge: Array<{ kind: string; content: string }>;
}

/** SEEDS §3.5: the self-image is written once there are ≥ 5 knowledge entries. */
export const SELF_IMAGE_MIN_ENTRIES = 5;
/** The strongest entries shown; more adds tokens, not insight. */
export const SELF_IMAGE_MAX_ENTRIES = 20;
const ENTRY_CHARS = 240;
const ANSWER_TOKENS = 400;

/** Response schema of the self-image step. */
export const selfImageResponseSchema = z.strictObject({
  works_on: text(800),
  user_wants: text(800),
  stuck_on: text(800),
});

/** A parsed self-image. */
export type SelfImageResponse = z.infer<typeof selfImageResponseSchema>;

/** True when there is enough knowledge for a self-image (SEEDS §3.5). */
export function selfImageDue(knowledgeCount: number): boolean {
  return knowledgeCount >= SELF_IMAGE_MIN_ENTRIES;
}

/**
 * Builds the self-image prompt from the first `SELF_IMAGE_MAX_ENTRIES` entries, one `kind: content` line each: a JSON
 * row `{"kind":"fact","content":"…"}` cost about 8 tokens beside its text, a line 2.
 */
export function buildSelfImagePrompt(input: SelfImageInput, options: PromptOptions = {}): BuiltPrompt {
  const lines = input.knowledge
    .slice(0, SELF_IMAGE_MAX_ENTRIES)
    .map((k) => `${k.kind}: ${clip(k.content, ENTRY_CHARS).replace(/\s*\n\s*/g, ' / ')}`);
  return buildPrompt('self_image', lines.join('\n'), ANSWER_TOKENS, options);
}

/** Reads a self-image packet back into its entries (the mock provider answers from it, as a model reads it). */
export function parseSelfImagePacket(text: string): Array<{ kind: string; content: string }> {
  return text.split('\n').flatMap((line) => {
    const at = line.indexOf(': ');
    return at > 0 ? [{ kind: line.slice(0, at), content: line.slice(at + 2) }] : [];
  });
}
