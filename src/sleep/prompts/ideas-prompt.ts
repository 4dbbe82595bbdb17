/** Ideas (SEEDS §3.5): one next step for each of up to 3 open problems; briefing only, never stored as knowledge. */

import { z } from 'zod';
import { buildPrompt, clip, type BuiltPrompt, type PromptOptions } from './prompt.js';
import { id, text } from './schema-parts.js';

/** Input of the ideas step. */
export interface IdeasInput {
  problems: Array<{ id: string; content: string }>;
  /** Knowledge that may help (e.g. linked to the problems). */
  related?: Array<{ content: string }>;
}

/** SEEDS §3.5: ideas for up to 3 open problems. */
export const MAX_IDEAS = 3;
const RELATED_SHOWN = 10;
const CONTENT_CHARS = 300;
const ANSWER_TOKENS = 300;

/** Response schema of the ideas step. */
export const ideasResponseSchema = z.strictObject({
  ideas: z.array(z.object({ problem: id, next_step: text(400) })),
});

/** A parsed ideas answer. */
export type IdeasResponse = z.infer<typeof ideasResponseSchema>;

/** Builds the ideas prompt for the first `MAX_IDEAS` problems. */
export function buildIdeasPrompt(input: IdeasInput, options: PromptOptions = {}): BuiltPrompt {
  const payload = {
    problems: input.problems
      .slice(0, MAX_IDEAS)
      .map((p) => ({ id: p.id, content: clip(p.content, CONTENT_CHARS) })),
    related: (input.related ?? [])
      .slice(0, RELATED_SHOWN)
      .map((r) => ({ content: clip(r.content, CONTENT_CHARS) })),
  };
  return buildPrompt('ideas', payload, ANSWER_TOKENS, options);
}

/** One idea per shown problem (the first wins), at most 3, each carrying the problem's text for the briefing. */
export function acceptIdeas(
  answer: IdeasResponse,
  input: IdeasInput,
): { ideas: Array<{ problemId: string; problem: string; nextStep: string }>; dropped: number } {
  const shown = new Map(input.problems.slice(0, MAX_IDEAS).map((p) => [p.id, p.content]));
  const ideas: Array<{ problemId: string; problem: string; nextStep: string }> = [];
  for (const i of answer.ideas) {
    const problem = shown.get(i.problem);
    if (problem === undefined || ideas.some((x) => x.problemId === i.problem)) continue;
    ideas.push({ problemId: i.problem, problem, nextStep: i.next_step });
  }
  return { ideas, dropped: answer.ideas.length - ideas.length };
}
