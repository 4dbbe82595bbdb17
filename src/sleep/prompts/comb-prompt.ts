/** Comb (Tideline's digest, SEEDS §1.8 layer 1): re-score, profiles, self-concept, conflicts, attention, threads. */

import { z } from 'zod';
import { buildPrompt, clip, type BuiltPrompt, type PromptOptions } from './prompt.js';
import { id, list, score, text } from './schema-parts.js';

/** A narrative written or dreamt since the last comb. */
export interface CombNarrative {
  id: string;
  kind: 'narrative' | 'self_reflection' | 'dream';
  gesture: string;
  tags: string[];
  scores: { importance: number; emotional: number; recurrence: number; unresolved: number };
}

/** Input of the comb step. */
export interface CombInput {
  narratives: CombNarrative[];
  profiles: Array<{ entity: string; type: string; content: string }>;
  selfConcept: Array<{ field: string; content: string }>;
  threads: Array<{ id: string; content: string }>;
  /** The attention heatmap of the last days (SEEDS §1.8 ⑤): clusters lit by recall, and never lit. */
  attention?: { lit: Array<{ cluster: string; hits: number }>; unlit: string[] };
}

const GESTURE_CHARS = 300;
const PROFILE_CHARS = 400;
/** The heatmap is a reference only (SEEDS §1.9); a few clusters each way are enough. */
const ATTENTION_SHOWN = 10;
const ANSWER_TOKENS = 1_200;
const CONTENT_CHARS = 1_000;

/** Response schema of the comb step; every list may be omitted. */
export const combResponseSchema = z.strictObject({
  rescore: list(
    z.object({ id, importance: score.optional(), emotional: score.optional(), unresolved: score.optional() }),
  ),
  profiles: list(
    z.object({
      entity: text(100),
      type: z.enum(['impression', 'relationship']),
      content: text(CONTENT_CHARS),
    }),
  ),
  self: list(
    z.object({
      // `reflection` is how the prompt's readers say it; the domain field is `self_reflection` (SEEDS §1.4).
      field: z.preprocess(
        (v) => (v === 'reflection' ? 'self_reflection' : v),
        z.enum(['terrain', 'self_reflection']),
      ),
      content: text(CONTENT_CHARS),
    }),
  ),
  conflicts: list(z.object({ ids: z.array(id).min(1), note: text(500) })),
  attention: text(500).optional(),
  threads: list(z.object({ content: text(300), importance: score, emotional: score, unresolved: score })),
  thread_status: list(z.object({ id, status: z.enum(['explored', 'abandoned']) })),
});

/** A parsed comb answer. */
export type CombResponse = z.infer<typeof combResponseSchema>;

/** Builds the comb prompt. */
export function buildCombPrompt(input: CombInput, options: PromptOptions = {}): BuiltPrompt {
  const payload = {
    memories: input.narratives.map((n) => ({
      id: n.id,
      kind: n.kind,
      gesture: clip(n.gesture, GESTURE_CHARS),
      tags: n.tags,
      scores: [n.scores.importance, n.scores.emotional, n.scores.recurrence, n.scores.unresolved],
    })),
    profiles: input.profiles.map((p) => ({ ...p, content: clip(p.content, PROFILE_CHARS) })),
    self: input.selfConcept.map((s) => ({ ...s, content: clip(s.content, PROFILE_CHARS) })),
    threads: input.threads,
    attention:
      input.attention === undefined
        ? undefined
        : {
            lit: input.attention.lit.slice(0, ATTENTION_SHOWN),
            unlit: input.attention.unlit.slice(0, ATTENTION_SHOWN),
          },
  };
  return buildPrompt('comb', payload, ANSWER_TOKENS, options);
}

/**
 * Keeps only what refers to what was shown: re-scores of shown narratives (one per id, last wins), status changes
 * of shown threads, conflicts with their ids reduced to shown narratives (at least one left). Profiles, self-concept and new threads need no scope.
 */
export function acceptComb(answer: CombResponse, input: CombInput): { value: CombResponse; dropped: number } {
  const narratives = new Set(input.narratives.map((n) => n.id));
  const threads = new Set(input.threads.map((t) => t.id));
  const rescoreById = new Map(answer.rescore.filter((r) => narratives.has(r.id)).map((r) => [r.id, r]));
  const rescore = [...rescoreById.values()];
  const threadStatus = answer.thread_status.filter((t) => threads.has(t.id));
  const conflicts = answer.conflicts
    .map((c) => ({ ...c, ids: c.ids.filter((i) => narratives.has(i)) }))
    .filter((c) => c.ids.length > 0);
  const dropped =
    answer.rescore.length -
    rescore.length +
    (answer.thread_status.length - threadStatus.length) +
    (answer.conflicts.length - conflicts.length);
  return { value: { ...answer, rescore, thread_status: threadStatus, conflicts }, dropped };
}
