// How a LoCoMo conversation becomes a memory's turns and when its questions are asked: shared by `bench retrieval` and `bench lifetime`.
import { DAY_MS } from '../core/clock.js';
import type { BenchConversation } from './locomo.js';

/** One dialog turn as recorded: a user turn at its session's time, turns a second apart, speaker kept. */
export interface LocomoTurn {
  readonly role: 'user';
  readonly content: string;
  readonly speaker: string;
  /** `<conv>:S<n>`. */
  readonly session: string;
  /** Epoch ms: the session's start plus one second per earlier turn (keeps their order). */
  readonly at: number;
  /** `locomo:<conv>:<diaId>`. */
  readonly ref: string;
  readonly diaId: string;
  /** The session number n of `session_n`. */
  readonly sessionN: number;
}

/** The conversation's turns in order, one per dialog turn (see {@link LocomoTurn}). */
export function locomoTurns(conv: BenchConversation): LocomoTurn[] {
  return conv.sessions.flatMap((s) =>
    s.turns.map((t, i) => ({
      role: 'user' as const, content: t.text, speaker: t.speaker, session: `${conv.id}:S${s.n}`, at: s.at + i * 1000,
      ref: `locomo:${conv.id}:${t.diaId}`, diaId: t.diaId, sessionN: s.n,
    })),
  );
}

/** When the questions are asked: the day after the last session, so "last week" or "in June" mean what they meant then. */
export function questionTime(conv: BenchConversation): number {
  return Math.max(...conv.sessions.map((s) => s.at + s.turns.length * 1000)) + DAY_MS;
}
