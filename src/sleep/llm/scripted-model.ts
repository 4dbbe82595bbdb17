/** A `Model` that replays canned answers keyed by sleep step: the fake provider for tests and for replaying a night. */

import { TidepoolError } from '../../core/errors.js';
import type { Model, ModelRequest, ModelResponse } from './model.js';
import { estimateRequestTokens, estimateTokens } from './token-estimate.js';

/** One canned answer: text (tokens estimated), text with exact token counts, or a failure to throw. */
export type ScriptedAnswer =
  string | { text: string; inputTokens?: number; outputTokens?: number } | { fail: string };

/** Canned answers per step name, consumed in order; the key `*` serves any step whose own queue is empty. */
export type Script = Record<string, readonly ScriptedAnswer[]>;

/** A request the scripted model received, with the step it was asked for. */
export interface ScriptedCall {
  step: string;
  request: ModelRequest;
}

/**
 * Answers each request with the next canned answer for `req.step` (then from `*`). Every request is recorded in
 * `calls`, so a test can assert what a model would have seen (e.g. that no personal data reached it).
 * An exhausted script throws `llm_failed`, as a dead provider would.
 */
export class ScriptedModel implements Model {
  readonly name: string;
  readonly calls: ScriptedCall[] = [];
  #queues = new Map<string, ScriptedAnswer[]>();

  constructor(script: Script, name = 'scripted') {
    this.name = name;
    for (const [step, answers] of Object.entries(script)) this.#queues.set(step, [...answers]);
  }

  /** Appends answers for `step` after the ones already queued. */
  push(step: string, ...answers: ScriptedAnswer[]): void {
    const queue = this.#queues.get(step) ?? [];
    queue.push(...answers);
    this.#queues.set(step, queue);
  }

  /** How many canned answers are still unused, over all steps. */
  remaining(): number {
    let n = 0;
    for (const q of this.#queues.values()) n += q.length;
    return n;
  }

  async complete(req: ModelRequest): Promise<ModelResponse> {
    const step = req.step ?? '*';
    this.calls.push({ step, request: req });
    const answer = this.#queues.get(step)?.shift() ?? this.#queues.get('*')?.shift();
    if (answer === undefined) {
      throw new TidepoolError('llm_failed', `${this.name} has no answer left for step "${step}"`, {
        details: { step },
      });
    }
    if (typeof answer === 'object' && 'fail' in answer) {
      throw new TidepoolError('llm_failed', `${this.name}: ${answer.fail}`, { details: { step } });
    }
    const text = typeof answer === 'string' ? answer : answer.text;
    const exact: { inputTokens?: number; outputTokens?: number } = typeof answer === 'string' ? {} : answer;
    return {
      text,
      inputTokens: exact.inputTokens ?? estimateRequestTokens(req),
      outputTokens: exact.outputTokens ?? estimateTokens(text),
    };
  }
}
