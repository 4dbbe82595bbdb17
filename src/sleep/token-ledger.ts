/** Counts the tokens a night spends, per step and in total, against the night's budget (DESIGN §6). */

import type { TokenCount } from './llm/ask-structured.js';

/** Tokens of one step: summed over its calls. */
export interface StepTokens {
  input: number;
  output: number;
  /** Of `input`, served from the provider's prompt cache: counted in `input` (and the budget) and apart here. */
  cached: number;
  calls: number;
}

/** Per-step and per-night token accounting; `remaining()` tells the night whether the next packet still fits. */
export class TokenLedger {
  readonly budget: number;
  #steps = new Map<string, StepTokens>();

  constructor(budget: number) {
    this.budget = budget;
  }

  /** Records one model call (all its attempts) of `step`. */
  add(step: string, tokens: TokenCount): void {
    const s = this.#steps.get(step) ?? { input: 0, output: 0, cached: 0, calls: 0 };
    s.input += tokens.input;
    s.output += tokens.output;
    s.cached += tokens.cached ?? 0;
    s.calls += 1;
    this.#steps.set(step, s);
  }

  /** Input plus output tokens spent so far this night. */
  used(): number {
    let n = 0;
    for (const s of this.#steps.values()) n += s.input + s.output;
    return n;
  }

  /** Input tokens a provider served from its prompt cache so far this night. */
  cached(): number {
    let n = 0;
    for (const s of this.#steps.values()) n += s.cached;
    return n;
  }

  /** Tokens left in the budget (never negative). */
  remaining(): number {
    return Math.max(0, this.budget - this.used());
  }

  /** True when a packet estimated at `estimate` tokens still fits. */
  fits(estimate: number): boolean {
    return estimate <= this.remaining();
  }

  /** A copy of the per-step counts, in the order the steps first spent tokens (for the night log). */
  byStep(): Record<string, StepTokens> {
    return Object.fromEntries([...this.#steps].map(([k, v]) => [k, { ...v }]));
  }
}
