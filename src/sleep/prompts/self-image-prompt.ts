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

/** Builds the self-image prompt from the first `SELF_IMAGE_MAX_ENTRIES` entries. */
export function buildSelfImagePrompt(input: SelfImageInput, options: PromptOptions = {}): BuiltPrompt {
  const knowledge = input.knowledge
    .slice(0, SELF_IMAGE_MAX_ENTRIES)
    .map((k) => ({ kind: k.kind, content: clip(k.content, ENTRY_CHARS) }));
  return buildPrompt('self_image', { knowledge }, ANSWER_TOKENS, options);
}
