/** A `Model` answered by the agent itself: each request becomes a work packet that `sleep_next` hands out and `sleep_submit` answers. */

import { TidepoolError } from '../../core/errors.js';
import type { Model, ModelMessage, ModelRequest, ModelResponse } from './model.js';
import { estimateRequestTokens, estimateTokens } from './token-estimate.js';

/** One request waiting for the agent: everything it needs to answer as the model would. */
export interface AgentPacket {
  id: string;
  step: string;
  system: string;
  messages: ModelMessage[];
  maxTokens: number;
  json: boolean;
}

/**
 * Result of `submit`: taken, refused with the reason the night's schema check gave (the night then asks once more
 * or skips the unit), or the packet was not waiting.
 */
export type AgentSubmitResult =
  | { kind: 'accepted' }
  | { kind: 'rejected'; reason: string; retry: boolean }
  | { kind: 'unknown_packet'; id: string };

interface Waiting {
  packet: AgentPacket;
  check: ((text: string) => string | null) | undefined;
  resolve: (text: string) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/** What a packet says in place of instructions the agent was already given tonight. */
export function sameInstructions(packetId: string, step: string): string {
  return `Same instructions as ${packetId} (step "${step}") tonight.`;
}

/** How long a packet waits for the agent's answer before the step is skipped (DESIGN §6: skipped, reported). */
const DEFAULT_ANSWER_TIMEOUT_MS = 15 * 60_000;

/**
 * In-process rendezvous between a running night and the agent's sleep tools. `complete` queues a packet and
 * waits; `next` shows the oldest unanswered packet (idempotent, so a repeated `sleep_next` sees the same one);
 * `submit` answers it. Unanswered packets fail with `llm_failed` after `answerTimeoutMs`, which `askStructured`
 * reports as a skip.
 */
export class AgentModel implements Model {
  readonly name = 'agent';
  #waiting = new Map<string, Waiting>();
  #listeners: Array<() => void> = [];
  #seq = 0;
  #timeoutMs: number;
  /** Instructions already shown tonight → the packet that showed them. */
  #shown = new Map<string, string>();

  constructor(options: { answerTimeoutMs?: number } = {}) {
    this.#timeoutMs = options.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
  }

  /** A new night starts: the next packet of each step shows its instructions again. */
  newNight(): void {
    this.#shown.clear();
  }

  async complete(req: ModelRequest): Promise<ModelResponse> {
    this.#seq += 1;
    const id = `packet-${this.#seq}`;
    const step = req.step ?? 'unknown';
    // Instructions once per night: a later packet of the same step refers to the packet that showed them, which is
    // still in the agent's context; the token count is what the agent read.
    const first = this.#shown.get(req.system);
    if (first === undefined) this.#shown.set(req.system, id);
    const packet: AgentPacket = {
      id,
      step,
      system: first === undefined ? req.system : sameInstructions(first, step),
      messages: req.messages,
      maxTokens: req.maxTokens,
      json: req.json ?? false,
    };
    const text = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(packet.id);
        reject(
          new TidepoolError('llm_failed', `the agent did not answer ${packet.id} in time`, {
            details: { step: packet.step },
          }),
        );
      }, this.#timeoutMs);
      // A packet waiting for an agent must not keep the process alive: `serve` stopping (SIGTERM) exits at once and
      // the night resumes from its last finished unit at the next start, as after a crash.
      timer.unref();
      this.#waiting.set(packet.id, { packet, check: req.check, resolve, reject, timer });
      for (const wake of this.#listeners.splice(0)) wake();
    });
    return {
      text,
      inputTokens: estimateRequestTokens({ system: packet.system, messages: packet.messages }),
      outputTokens: estimateTokens(text),
    };
  }

  /** The oldest packet still waiting for an answer, if any. */
  next(): AgentPacket | undefined {
    return this.#waiting.values().next().value?.packet;
  }

  /** Waits up to `timeoutMs` for a packet (a night may be between steps); undefined when none came. */
  waitForPacket(timeoutMs: number): Promise<AgentPacket | undefined> {
    const ready = this.next();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve(this.next());
      };
      const timer = setTimeout(() => {
        this.#listeners = this.#listeners.filter((l) => l !== wake);
        resolve(undefined);
      }, timeoutMs);
      timer.unref();
      this.#listeners.push(wake);
    });
  }

  /** Answers packet `id` with the agent's text; the night continues with it. */
  submit(id: string, text: string): AgentSubmitResult {
    const w = this.#waiting.get(id);
    if (w === undefined) return { kind: 'unknown_packet', id };
    this.#waiting.delete(id);
    clearTimeout(w.timer);
    const reason = w.check?.(text) ?? null;
    w.resolve(text);
    if (reason === null) return { kind: 'accepted' };
    // A first answer is asked for again (the request then carries it and the refusal); a second one is skipped.
    const retry = !w.packet.messages.some((m) => m.role === 'assistant');
    return { kind: 'rejected', reason, retry };
  }

  /** Number of packets waiting for the agent. */
  pendingCount(): number {
    return this.#waiting.size;
  }

  /** Fails every waiting packet (the night was stopped or the agent disconnected). */
  cancelAll(reason: string): void {
    for (const w of this.#waiting.values()) {
      clearTimeout(w.timer);
      w.reject(new TidepoolError('llm_failed', `agent packet ${w.packet.id} cancelled: ${reason}`));
    }
    this.#waiting.clear();
  }
}
