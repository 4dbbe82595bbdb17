/** The shape every prompt builder returns, and the one way a payload becomes the user message. */

import type { ModelMessage } from '../llm/model.js';
import { estimateRequestTokens } from '../llm/token-estimate.js';
import { promptText, type PromptLanguage, type PromptStep } from './prompt-texts.js';

/** A ready request for `askStructured`: system prompt, one JSON user message and an answer-length cap. */
export interface BuiltPrompt {
  step: PromptStep;
  system: string;
  messages: ModelMessage[];
  maxTokens: number;
}

/** Options every builder takes. */
export interface PromptOptions {
  language?: PromptLanguage;
  /** Overrides the step's default answer cap. */
  maxTokens?: number;
}

/**
 * Builds the prompt: the step's text as system prompt and `payload` as compact JSON, or as it is when it is already
 * text (the turn packets of `packet-text.ts`).
 */
export function buildPrompt(
  step: PromptStep,
  payload: unknown,
  maxTokens: number,
  options: PromptOptions = {},
): BuiltPrompt {
  return {
    step,
    system: promptText(step, options.language),
    messages: [{ role: 'user', content: typeof payload === 'string' ? payload : JSON.stringify(payload) }],
    maxTokens: options.maxTokens ?? maxTokens,
  };
}

/** Cuts `s` to `max` characters, marking the cut, so one long episode cannot eat the night's budget. */
export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** `YYYY-MM-DDTHH:MMZ`: minute precision is all a prompt needs. */
export function isoMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}Z`;
}

/**
 * Worst-case tokens of one call: the prompt as counted by the tokenizer plus the answer cap. This is the `estimate`
 * a work packet carries into `planSleepWork`; a retry can cost up to twice that, which the ledger records.
 */
export function estimatePromptTokens(prompt: Pick<BuiltPrompt, 'system' | 'messages' | 'maxTokens'>): number {
  return estimateRequestTokens(prompt) + prompt.maxTokens;
}

/** A turn as a packet shows it: who said it (speaker and role), when, and what. */
export interface PacketTurn {
  id: string;
  at: number;
  /** The speaker's name as recorded (a placeholder once redacted), or null. */
  speaker: string | null;
  /** user, assistant, tool … (a tool result names its tool: `tool:grep`). */
  role: string;
  text: string;
}

/** The role label of an episode in a packet: its role, a tool result with its tool's name. */
export function roleLabel(e: { role: string | null; kind: string; tool: string | null }): string {
  const role = e.role ?? e.kind;
  return role === 'tool' && e.tool ? `tool:${e.tool}` : role;
}
