/**
 * A memory provider for agent runtimes that load plugins, with Tideline's provider hooks (SEEDS §1.6):
 * a session-start block, per-turn prefetch (queued ahead), turn sync, pre-compression rescue and session-end sync.
 */
import { randomUUID } from 'node:crypto';
import { appContextOf, type Tidepool } from '../tidepool.js';
import { buildContext } from './context-block.js';
import { prefetch } from './prefetch.js';
import { rescueBeforeCompression, syncSessionEnd, syncTurn, type ProviderMessage } from './session-sync.js';

/** Options of a provider. */
export interface MemoryProviderOptions {
  /** The runtime's session id (default: a random one per provider). */
  session?: string;
  /** SOUL.md text, or a function that reads it when the block is built. */
  soul?: string | (() => Promise<string | undefined>);
  /** Token budget of the session-start block (default: `injection.maxTokens`). */
  maxTokens?: number;
}

/**
 * Plugs Tidepool into a runtime's hooks. Hook failures are reported through the memory's `warn` and answered with
 * an empty block: memory trouble must never break the agent's turn (Tideline wraps every hook the same way).
 * @example
 * const provider = new MemoryProvider(memory, { session: 'chat-42' });
 * const system = (await provider.systemPromptBlock()) + basePrompt;
 */
export class MemoryProvider {
  /** Provider name, as runtimes list it. */
  readonly name = 'tidepool';
  readonly #memory: Tidepool;
  readonly #opts: MemoryProviderOptions;
  #session: string;
  #block: Promise<string> | undefined;
  #queued: { query: string; result: Promise<string> } | undefined;
  readonly #background = new Set<Promise<unknown>>();
  #closed = false;

  constructor(memory: Tidepool, opts: MemoryProviderOptions = {}) {
    this.#memory = memory;
    this.#opts = opts;
    this.#session = opts.session ?? `provider-${randomUUID()}`;
  }

  /** The session this provider injects into and records under. */
  get session(): string {
    return this.#session;
  }

  /** True while the provider is usable (until `shutdown`). */
  isAvailable(): boolean {
    return !this.#closed;
  }

  /** The session-start block, built once per session (SEEDS §1.6: static for the session). */
  systemPromptBlock(): Promise<string> {
    this.#block ??= this.#guard('systemPromptBlock', async () => {
      const soul = typeof this.#opts.soul === 'function' ? await this.#opts.soul() : this.#opts.soul;
      const block = await buildContext(appContextOf(this.#memory), { session: this.#session, maxTokens: this.#opts.maxTokens, soul });
      return block.text;
    });
    return this.#block;
  }

  /** Memories for the user's new message; a message under 5 characters gets the result queued for it before. */
  async prefetch(query: string): Promise<string> {
    const q = query.trim();
    if (this.#queued && (this.#queued.query === q || [...q].length < 5)) {
      const queued = this.#queued.result;
      this.#queued = undefined;
      return queued;
    }
    return this.#guard('prefetch', async () => (await prefetch(appContextOf(this.#memory), { text: q, session: this.#session })).text);
  }

  /** Starts the prefetch for `query` in the background; the next `prefetch` picks it up. */
  queuePrefetch(query: string): void {
    const q = query.trim();
    const result = this.#guard('queuePrefetch', async () => (await prefetch(appContextOf(this.#memory), { text: q, session: this.#session })).text);
    this.#queued = { query: q, result };
    this.#track(result);
  }

  /** Records one finished exchange; a new `sessionId` switches the provider to that session. */
  async syncTurn(user: string, assistant: string, sessionId?: string): Promise<void> {
    if (sessionId && sessionId !== this.#session) {
      this.#session = sessionId;
      this.#block = undefined;
    }
    await this.#guard('syncTurn', async () => void (await syncTurn(appContextOf(this.#memory), { user, assistant, session: this.#session })));
  }

  /** Saves the messages a compression will drop; returns the rescue reminder for the compressor prompt. */
  onPreCompress(messages: ProviderMessage[]): Promise<string> {
    return this.#guard('onPreCompress', async () => (await rescueBeforeCompression(appContextOf(this.#memory), { session: this.#session, messages })).reminder);
  }

  /** Saves whatever the session said that was not recorded yet. */
  async onSessionEnd(messages: ProviderMessage[]): Promise<void> {
    await this.#guard('onSessionEnd', async () => void (await syncSessionEnd(appContextOf(this.#memory), { session: this.#session, messages })));
  }

  /** Waits for background work; the memory itself stays open (its owner closes it). */
  async shutdown(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#background]);
  }

  #track(p: Promise<unknown>): void {
    this.#background.add(p);
    void p.finally(() => this.#background.delete(p));
  }

  async #guard<T extends string | void>(hook: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      appContextOf(this.#memory).warn(`${hook} failed: ${(e as Error)?.message ?? String(e)}`);
      return '' as T;
    }
  }
}
