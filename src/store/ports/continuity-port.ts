/** Goals, checkpoints and pending events. */

/** The one active goal of a space. */
export interface GoalRow {
  id: number;
  text: string;
  status: 'active' | 'done' | 'replaced';
  session: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A plan to resume after compaction. */
export interface CheckpointRow {
  id: number;
  goalId: number | null;
  plan: string;
  session: string | null;
  createdAt: number;
}

/** An event an agent may have missed (compaction, a new goal, a checkpoint). */
export interface PendingEventRow {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  session: string | null;
  createdAt: number;
  deliveredAt: number | null;
}

/** Goals, checkpoints and pending events (Tulimoa set_goal / checkpoint / get_pending). */
export interface ContinuityStore {
  /** Makes `text` the active goal; the previous active goal becomes `replaced`. */
  setGoal(g: {
    text: string;
    session: string | null;
    at: number;
  }): Promise<{ id: number; replaced: GoalRow | undefined }>;
  /** Marks the active goal `done`; undefined when there was none. */
  finishGoal(at: number): Promise<GoalRow | undefined>;
  activeGoal(): Promise<GoalRow | undefined>;
  addCheckpoint(c: {
    goalId: number | null;
    plan: string;
    session: string | null;
    at: number;
  }): Promise<number>;
  latestCheckpoint(): Promise<CheckpointRow | undefined>;
  addEvent(e: {
    kind: string;
    payload: Record<string, unknown>;
    session: string | null;
    at: number;
  }): Promise<number>;
  /** Undelivered events, oldest first; with `session`, that session's and the space-wide ones. */
  pendingEvents(q: { session?: string; limit: number }): Promise<PendingEventRow[]>;
  markDelivered(ids: readonly number[], at: number): Promise<void>;
}
