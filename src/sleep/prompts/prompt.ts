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

/** Builds the prompt: the step's text as system prompt and `payload` as compact JSON (DESIGN §6: aim below 7k-17k a day). */
export function buildPrompt(
  step: PromptStep,
  payload: unknown,
  maxTokens: number,
  options: PromptOptions = {},
): BuiltPrompt {
  return {
    step,
    system: promptText(step, options.language),
    messages: [{ role: 'user', content: JSON.stringify(payload) }],
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

/** Turns in the compact packet form: `who` names each speaker once, each turn is one line. */
export interface CompactTurns {
  /** "Caroline (user)", "assistant", "tool:grep": the turns point at these by index. */
  who: string[];
  /** `[id, when, who index, text]`; `when` is "YYYY-MM-DD HH:MM" on a turn that starts a new day, else "HH:MM". */
  turns: Array<[string, string, number, string]>;
}

/**
 * Renders turns compactly (packets are paid for every night): speaker names once, one line per turn, the date only
 * where the day changes. `previousDay` continues a day from an earlier part of the same packet.
 */
export function compactTurns(turns: readonly PacketTurn[], who: string[] = [], previousDay = ''): CompactTurns {
  const index = new Map(who.map((w, i) => [w, i]));
  let day = previousDay;
  const out: CompactTurns['turns'] = [];
  for (const t of turns) {
    const label = t.speaker ? `${t.speaker} (${t.role})` : t.role;
    let i = index.get(label);
    if (i === undefined) {
      i = who.length;
      who.push(label);
      index.set(label, i);
    }
    const stamp = isoMinute(t.at);
    const d = stamp.slice(0, 10);
    out.push([t.id, d === day ? stamp.slice(11, 16) : `${d} ${stamp.slice(11, 16)}`, i, t.text]);
    day = d;
  }
  return { who, turns: out };
}

/** The role label of an episode in a packet: its role, a tool result with its tool's name. */
export function roleLabel(e: { role: string | null; kind: string; tool: string | null }): string {
  const role = e.role ?? e.kind;
  return role === 'tool' && e.tool ? `tool:${e.tool}` : role;
}
