/** Continuity (Tulimoa): the one active goal, resume checkpoints and events missed across compaction or disconnects. */
import { z } from 'zod';
import { label, parseInput, text } from '../core/schemas.js';
import type { CheckpointRow, GoalRow, PendingEventRow } from '../store/port.js';
import { spaceTransaction, type AppContext } from './app-context.js';
import { refuseSecretsIn } from './guard-secrets.js';

/** `set_goal`: makes `goal` the one active goal (the previous one is kept as replaced), or `done: true` closes it. */
export const setGoalInput = z
  .object({ goal: text.optional(), done: z.boolean().optional(), session: label.optional() })
  .refine((v) => v.goal !== undefined || v.done === true, { message: 'give the goal text, or done: true to close the active goal', path: ['goal'] });
/** `checkpoint`: the plan to resume from after a compaction. */
export const checkpointInput = z.object({ plan: text, session: label.optional() });
/** `get_pending`: what the agent may have missed; `limit` caps the events. */
export const getPendingInput = z.object({ session: label.optional(), limit: z.number().int().min(1).max(200).default(20) });

/** What `set_goal` did. */
export type SetGoalResult =
  | { kind: 'set'; goal: GoalRow; replaced: GoalRow | undefined }
  | { kind: 'done'; goal: GoalRow }
  | { kind: 'none' };

/** The state to resume from: the active goal, the latest checkpoint and the undelivered events (now delivered). */
export interface PendingState {
  goal: GoalRow | undefined;
  checkpoint: CheckpointRow | undefined;
  events: PendingEventRow[];
}

/** Sets or closes the active goal; either way an event tells a later session. */
export async function setGoal(ctx: AppContext, raw: unknown): Promise<SetGoalResult> {
  const input = parseInput(setGoalInput, raw);
  refuseSecretsIn({ ...input });
  const now = ctx.clock.now();
  const session = input.session ?? null;
  return spaceTransaction(ctx, async (scope, tx) => {
    await tx.spaces.ensure(ctx.space, now);
    if (input.goal === undefined) {
      const goal = await scope.continuity.finishGoal(now);
      if (!goal) return { kind: 'none' };
      await scope.continuity.addEvent({ kind: 'goal_done', payload: { goal: goal.text }, session, at: now });
      return { kind: 'done', goal };
    }
    const goalText = input.goal.trim();
    const { id, replaced } = await scope.continuity.setGoal({ text: goalText, session, at: now });
    await scope.continuity.addEvent({ kind: 'goal_set', payload: { goal: goalText, replaced: replaced?.text ?? null }, session, at: now });
    const goal: GoalRow = { id, text: goalText, status: 'active', session, createdAt: now, updatedAt: now };
    return { kind: 'set', goal, replaced };
  });
}

/** Saves a resume plan, tied to the active goal. */
export async function checkpoint(ctx: AppContext, raw: unknown): Promise<CheckpointRow> {
  const input = parseInput(checkpointInput, raw);
  refuseSecretsIn({ ...input });
  const now = ctx.clock.now();
  const session = input.session ?? null;
  return spaceTransaction(ctx, async (scope, tx) => {
    await tx.spaces.ensure(ctx.space, now);
    const goal = await scope.continuity.activeGoal();
    const plan = input.plan.trim();
    const id = await scope.continuity.addCheckpoint({ goalId: goal?.id ?? null, plan, session, at: now });
    await scope.continuity.addEvent({ kind: 'checkpoint', payload: { plan }, session, at: now });
    return { id, goalId: goal?.id ?? null, plan, session, createdAt: now };
  });
}

/** Records an event for `get_pending` (compaction, a session that ended, a new briefing…). */
export async function addPendingEvent(ctx: AppContext, kind: string, payload: Record<string, unknown>, session: string | null): Promise<number> {
  const now = ctx.clock.now();
  return spaceTransaction(ctx, async (scope, tx) => {
    await tx.spaces.ensure(ctx.space, now);
    return scope.continuity.addEvent({ kind, payload, session, at: now });
  });
}

/** Reads the resume state; the events returned are marked delivered, so each is handed out once. */
export async function getPending(ctx: AppContext, raw: unknown = {}): Promise<PendingState> {
  const input = parseInput(getPendingInput, raw ?? {});
  const now = ctx.clock.now();
  return spaceTransaction(ctx, async (scope) => {
    const events = await scope.continuity.pendingEvents({ session: input.session, limit: input.limit });
    if (events.length > 0) await scope.continuity.markDelivered(events.map((e) => e.id), now);
    return {
      goal: await scope.continuity.activeGoal(),
      checkpoint: await scope.continuity.latestCheckpoint(),
      events,
    };
  });
}

/** The active goal and latest checkpoint without delivering anything (for the context block). */
export async function currentGoal(ctx: AppContext): Promise<{ goal: GoalRow | undefined; checkpoint: CheckpointRow | undefined }> {
  return { goal: await ctx.scope.continuity.activeGoal(), checkpoint: await ctx.scope.continuity.latestCheckpoint() };
}
