/** Symbolic dream (SEEDS §1.8 layer 3): 3-5 symbols of the day woven into a dream, stored with importance fixed at 1. */

import { z } from 'zod';
import { buildPrompt, clip, type BuiltPrompt, type PromptOptions } from './prompt.js';
import { id, score, text } from './schema-parts.js';

/** Input of the dream step: today's memories. */
export interface DreamInput {
  memories: Array<{ id: string; gesture: string; tags: string[] }>;
}

/** SEEDS §1.8: "3-5 symbols". */
export const MIN_SYMBOLS = 3;
export const MAX_SYMBOLS = 5;
const GESTURE_CHARS = 200;
const ANSWER_TOKENS = 500;

/** Response schema; more than 5 symbols are cut to 5 rather than refused. */
export const dreamResponseSchema = z.strictObject({
  symbols: z
    .array(text(60))
    .min(MIN_SYMBOLS)
    .transform((s) => [...new Set(s)].slice(0, MAX_SYMBOLS)),
  sources: z.array(id).default([]),
  dream: text(1_500),
  reflection: text(800),
  emotional: score,
  unresolved: score,
});

/** A parsed dream answer. */
export type DreamResponse = z.infer<typeof dreamResponseSchema>;

/** Builds the dream prompt. */
export function buildDreamPrompt(input: DreamInput, options: PromptOptions = {}): BuiltPrompt {
  const memories = input.memories.map((m) => ({
    id: m.id,
    gesture: clip(m.gesture, GESTURE_CHARS),
    tags: m.tags,
  }));
  return buildPrompt('dream', { memories }, ANSWER_TOKENS, options);
}

/** What the night stores from a dream: the dream narrative and the self-reflection derived from it. */
export interface DreamRecords {
  dream: {
    kind: 'dream';
    gesture: string;
    context: string;
    moment: string;
    tags: string[];
    importance: 1;
    emotional: number;
    unresolved: number;
    /** Today's narratives the symbols came from (only ids that were shown). */
    relatedNarratives: string[];
  };
  reflection: { kind: 'self_reflection'; gesture: string; tags: string[] };
}

/**
 * Turns an answer into records (SEEDS §1.8): importance fixed at 1 so dreams never pollute real weights, tag
 * `dream`, gesture = the dream, context = "mapped from today's X, Y, Z" (in the prompt language). Recurrence is
 * left to the system's tag-frequency mapping. Symbols go into `moment`, not tags, so they do not skew topic clusters.
 */
export function dreamRecords(
  answer: DreamResponse,
  input: DreamInput,
  language: 'en' | 'zh' = 'en',
): DreamRecords {
  const shown = new Set(input.memories.map((m) => m.id));
  const context =
    language === 'zh'
      ? `从今天的${answer.symbols.join('、')}映射`
      : `mapped from today's ${answer.symbols.join(', ')}`;
  return {
    dream: {
      kind: 'dream',
      gesture: answer.dream,
      context,
      moment: answer.symbols.join(' · '),
      tags: ['dream'],
      importance: 1,
      emotional: answer.emotional,
      unresolved: answer.unresolved,
      relatedNarratives: answer.sources.filter((s) => shown.has(s)),
    },
    reflection: { kind: 'self_reflection', gesture: answer.reflection, tags: ['dream'] },
  };
}
