/** Night drift (SEEDS §1.8 layer 2): from one high-weight memory of today to unrelated territory, looking for a hidden link. */

import { z } from 'zod';
import { buildPrompt, clip, type BuiltPrompt, type PromptOptions } from './prompt.js';
import { id, score, text } from './schema-parts.js';

/** A memory as the drift sees it; `via` says how it was reached from the seed. */
export interface DriftMemory {
  id: string;
  gesture: string;
  tags: string[];
  via?: 'embedding' | 'entity' | 'topic';
}

/** Input of the drift step: the seed (picked at random among today's high-weight memories by the caller's rng). */
export interface DriftInput {
  seed: DriftMemory;
  far: DriftMemory[];
}

const GESTURE_CHARS = 300;
const ANSWER_TOKENS = 300;

/** Response schema: a connection to one far memory and an optional thread, or nothing (no pressure, SEEDS §1.8). */
export const driftResponseSchema = z.strictObject({
  connection: z
    .object({ to: id, insight: text(500) })
    .nullable()
    .default(null),
  thread: z
    .object({ content: text(300), importance: score, emotional: score, unresolved: score })
    .nullable()
    .default(null),
});

/** A parsed drift answer. */
export type DriftResponse = z.infer<typeof driftResponseSchema>;

/** Builds the drift prompt. */
export function buildDriftPrompt(input: DriftInput, options: PromptOptions = {}): BuiltPrompt {
  const show = (m: DriftMemory) => ({
    id: m.id,
    gesture: clip(m.gesture, GESTURE_CHARS),
    tags: m.tags,
    via: m.via,
  });
  return buildPrompt('drift', { seed: show(input.seed), far: input.far.map(show) }, ANSWER_TOKENS, options);
}

/** Drops a connection to a memory that was not among the far ones (the thread stays). */
export function acceptDrift(
  answer: DriftResponse,
  input: DriftInput,
): { value: DriftResponse; dropped: number } {
  const far = new Set(input.far.map((m) => m.id));
  if (answer.connection === null || far.has(answer.connection.to)) return { value: answer, dropped: 0 };
  return { value: { ...answer, connection: null }, dropped: 1 };
}
