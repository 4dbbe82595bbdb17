/** Asks a model for JSON and accepts only what a zod schema allows: retry once on a bad answer, then skip and report. */

import { z } from 'zod';
import type { Model, ModelMessage } from './model.js';
import { extractJson } from './extract-json.js';

/** Tokens spent on one structured question, over all its attempts. */
export interface TokenCount {
  input: number;
  output: number;
  /** Of `input`, served from the provider's prompt cache. */
  cached?: number;
}

/** The validated value, or why the step was skipped; tokens are counted either way. */
export type StructuredResult<T> =
  | { kind: 'ok'; value: T; tokens: TokenCount; attempts: number; dropped: number }
  | { kind: 'skipped'; reason: string; tokens: TokenCount; attempts: number };

/** Options of one structured question. */
export interface AskOptions {
  /** The sleep step, for the token ledger, the scripted model and the agent's work packet. */
  step: string;
  maxTokens: number;
  temperature?: number;
}

/** A bad first answer gets exactly one more chance (DESIGN §6). */
const MAX_ATTEMPTS = 2;
/** The validation error echoed back to the model is cut here to keep the retry cheap. */
const MAX_ERROR_CHARS = 600;
/** Bound on drop rounds; each round removes every item an issue points at. */
const MAX_DROP_ROUNDS = 10;

/**
 * Sends `prompt` and parses the answer against `schema` (STYLE §5: LLM output is untrusted). Invalid items of
 * arrays are dropped one by one and counted in `dropped`; an answer that is not JSON, fails outside an array item,
 * or whose array items are all invalid is retried once with the error appended, then skipped. A model that throws
 * (the SDK has already retried HTTP failures) is skipped at once.
 */
export async function askStructured<T>(
  model: Model,
  prompt: { system: string; messages: ModelMessage[] },
  schema: z.ZodType<T>,
  options: AskOptions,
): Promise<StructuredResult<T>> {
  const tokens: TokenCount = { input: 0, output: 0 };
  const messages = [...prompt.messages];
  let lastError = '';
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    let text: string;
    try {
      const answer = await model.complete({
        system: prompt.system,
        messages,
        maxTokens: options.maxTokens,
        json: true,
        step: options.step,
        check: (t) => {
          const c = checkAnswer(t, schema);
          return c.ok ? null : c.error.slice(0, MAX_ERROR_CHARS);
        },
        ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      });
      tokens.input += answer.inputTokens;
      tokens.output += answer.outputTokens;
      if (answer.cachedInputTokens) tokens.cached = (tokens.cached ?? 0) + answer.cachedInputTokens;
      text = answer.text;
    } catch (e) {
      return {
        kind: 'skipped',
        reason: `model_error: ${e instanceof Error ? e.message : String(e)}`,
        tokens,
        attempts: attempt,
      };
    }
    const checked = checkAnswer(text, schema);
    if (checked.ok)
      return { kind: 'ok', value: checked.value, tokens, attempts: attempt, dropped: checked.dropped };
    lastError = checked.error;
    messages.push(
      { role: 'assistant', content: text },
      {
        role: 'user',
        content: `Your answer was rejected: ${lastError.slice(0, MAX_ERROR_CHARS)}\nAnswer again with JSON only, in the requested shape.`,
      },
    );
  }
  return { kind: 'skipped', reason: `invalid_answer: ${lastError}`, tokens, attempts: MAX_ATTEMPTS };
}

type Checked<T> = { ok: true; value: T; dropped: number } | { ok: false; error: string };

/** Extracts and validates one answer; exported for the agent surface, which checks a submission the same way. */
export function checkAnswer<T>(text: string, schema: z.ZodType<T>): Checked<T> {
  const extracted = extractJson(text);
  if (!extracted.ok) return { ok: false, error: extracted.reason };
  return parseDroppingInvalidItems(extracted.value, schema);
}

/**
 * Parses `value`, removing array items that issues point at (the outermost array on each issue's path) until it
 * parses. Fails when an issue is not inside an array item, or when every item of the affected arrays was invalid.
 */
export function parseDroppingInvalidItems<T>(value: unknown, schema: z.ZodType<T>): Checked<T> {
  const current: unknown = structuredClone(value);
  let dropped = 0;
  const touched = new Set<unknown[]>();
  let firstError: string | undefined;
  for (let round = 0; round <= MAX_DROP_ROUNDS; round++) {
    const r = schema.safeParse(current);
    if (r.success) {
      if (dropped > 0 && [...touched].every((a) => a.length === 0)) {
        return { ok: false, error: `all ${dropped} items were invalid: ${firstError ?? ''}` };
      }
      return { ok: true, value: r.data, dropped };
    }
    const pretty = z.prettifyError(r.error);
    firstError ??= pretty;
    const removals = new Map<unknown[], Set<number>>();
    for (const issue of r.error.issues) {
      const target = outermostItem(current, issue.path);
      if (target === undefined) return { ok: false, error: pretty };
      const set = removals.get(target.array) ?? new Set<number>();
      set.add(target.index);
      removals.set(target.array, set);
    }
    for (const [array, indexes] of removals) {
      for (const i of [...indexes].sort((a, b) => b - a)) array.splice(i, 1);
      dropped += indexes.size;
      touched.add(array);
    }
  }
  return { ok: false, error: firstError ?? 'validation did not converge' };
}

function outermostItem(
  root: unknown,
  path: readonly PropertyKey[],
): { array: unknown[]; index: number } | undefined {
  let node: unknown = root;
  for (const key of path) {
    if (Array.isArray(node) && typeof key === 'number') return { array: node, index: key };
    if (typeof node !== 'object' || node === null || typeof key === 'symbol') return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return undefined;
}
