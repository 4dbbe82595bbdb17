/** The agent-driven night inside `tidepool serve`: the night runs in the background and the agent answers its packets. */
import type { Store } from '../store/port.js';
import { AgentModel, type AgentPacket, type AgentSubmitResult } from '../sleep/llm/agent-model.js';
import {
  SamplingModel,
  sampleFnFromCreateMessage,
  type CreateMessageFn,
} from '../sleep/llm/sampling-model.js';
import type { Model } from '../sleep/llm/model.js';
import type { NightResult } from '../sleep/night-types.js';
import type { AppContext } from './app-context.js';
import { sleep } from './sleep.js';

export type { AgentPacket, CreateMessageFn };

/** What the agent gets from `next`: a packet to answer, the night's end, or nothing going on. */
export type AgentNext =
  | { kind: 'packet'; packet: AgentPacket }
  | { kind: 'finished'; result: NightResult }
  | { kind: 'failed'; message: string }
  | { kind: 'idle' };

/** Options of a night started by an agent. */
export interface AgentNightOptions {
  force?: boolean;
  /** Answer with the connected client's own model (MCP sampling) instead of packets for the agent. */
  sample?: CreateMessageFn;
}

/**
 * One per space and store: the night in progress (if any), its `AgentModel` rendezvous, and the last outcome. Packets
 * wait for the agent up to `answerTimeoutMs` (then the step is skipped and reported, DESIGN §6). A night started
 * here takes the space's sleep lock like any other, so it never overlaps the scheduled one.
 */
export class AgentSleep {
  readonly model: AgentModel;
  readonly #ctx: AppContext;
  #night: Promise<void> | undefined;
  #outcome: AgentNext | undefined;

  constructor(ctx: AppContext, opts: { answerTimeoutMs?: number } = {}) {
    this.#ctx = ctx;
    this.model = new AgentModel(
      opts.answerTimeoutMs === undefined ? {} : { answerTimeoutMs: opts.answerTimeoutMs },
    );
  }

  /** True while a night started here runs. */
  get running(): boolean {
    return this.#night !== undefined;
  }

  /** Starts a night unless one runs; `false` when one was already running. */
  start(opts: AgentNightOptions = {}): boolean {
    if (this.#night !== undefined) return false;
    this.#outcome = undefined;
    const model: Model = opts.sample ? new SamplingModel(sampleFnFromCreateMessage(opts.sample)) : this.model;
    this.model.newNight();
    // The agent asked to sleep now: its packets come tonight, however small the day.
    this.#night = sleep(this.#ctx, { modelInstance: model, force: opts.force ?? false, askNow: true }).then(
      (result) => {
        this.#outcome = { kind: 'finished', result };
      },
      (e: unknown) => {
        this.#outcome = { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
      },
    );
    void this.#night.finally(() => {
      this.#night = undefined;
    });
    return true;
  }

  /** The packet waiting now, else waits up to `waitMs` for the next packet or for the night to end. */
  async next(waitMs: number): Promise<AgentNext> {
    const ready = this.model.next();
    if (ready) return { kind: 'packet', packet: ready };
    const night = this.#night;
    if (night === undefined) return this.#outcome ?? { kind: 'idle' };
    const packet = await Promise.race([this.model.waitForPacket(waitMs), night.then(() => undefined)]);
    if (packet) return { kind: 'packet', packet };
    // Either the night ended (its outcome is set) or the wait ran out with the night still thinking.
    await Promise.race([night, new Promise((r) => setTimeout(r, 0))]);
    return this.#outcome ?? { kind: 'idle' };
  }

  /** Answers a packet; the night continues with the answer (a bad one gets one retry packet, then a skip). */
  submit(id: string, answer: string): AgentSubmitResult {
    return this.model.submit(id, answer);
  }

  /** Waits for a running night to end (tests, shutdown). */
  async settled(): Promise<void> {
    await this.#night;
  }
}

const hubs = new WeakMap<Store, Map<string, AgentSleep>>();

/** The agent night hub of the context's store and space (shared by every MCP session of the process). */
export function agentSleep(ctx: AppContext): AgentSleep {
  let bySpace = hubs.get(ctx.store);
  if (!bySpace) hubs.set(ctx.store, (bySpace = new Map()));
  let hub = bySpace.get(ctx.space);
  if (!hub) bySpace.set(ctx.space, (hub = new AgentSleep(ctx)));
  return hub;
}
