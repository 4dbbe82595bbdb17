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

/** Minutes after the last time shown before a turn shows its time again (a chunk is turns ≤ 10 minutes apart). */
export const TIME_STEP_MINUTES = 10;

/** A turn line of a packet: `[id, who index, text]`, with the time appended where it moved. */
export type TurnLine = [string, number, string] | [string, number, string, string];

/** Turns in the compact packet form: `who` names each speaker once, each turn is one line. */
export interface CompactTurns {
  /** "Caroline (user)", "assistant", "tool:grep": the turns point at these by index. */
  who: string[];
  /**
   * `[id, who index, text, when?]`: `when` is "YYYY-MM-DD HH:MM" on a turn of a new day, "HH:MM" where the time
   * moved at least 10 minutes since the last time shown, and left out otherwise (the turn is within minutes of it).
   */
  turns: TurnLine[];
}

/**
 * Renders turns compactly (packets are paid for every night): speaker names once, one line per turn, the date only
 * where the day changes and the time only where it moved. `who` may be shared by several calls of one packet.
 */
export function compactTurns(turns: readonly PacketTurn[], who: string[] = []): CompactTurns {
  const index = new Map(who.map((w, i) => [w, i]));
  let day = '';
  let shown = -Infinity;
  const out: TurnLine[] = [];
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
    if (d !== day) {
      out.push([t.id, i, t.text, `${d} ${stamp.slice(11, 16)}`]);
      shown = t.at;
    } else if (Math.abs(t.at - shown) >= TIME_STEP_MINUTES * 60_000) {
      out.push([t.id, i, t.text, stamp.slice(11, 16)]);
      shown = t.at;
    } else out.push([t.id, i, t.text]);
    day = d;
  }
  return { who, turns: out };
}

/** The role label of an episode in a packet: its role, a tool result with its tool's name. */
export function roleLabel(e: { role: string | null; kind: string; tool: string | null }): string {
  const role = e.role ?? e.kind;
  return role === 'tool' && e.tool ? `tool:${e.tool}` : role;
}
