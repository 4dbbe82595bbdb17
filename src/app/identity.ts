/** Identity use cases: profiles with history, self-concept, snapshots and threads (Tideline's tools). */
import { TidepoolError } from '../core/errors.js';
import {
  parseInput,
  profileInput,
  selfConceptInput,
  snapshotInput,
  threadInput,
} from '../core/schemas.js';
import { isSelfConceptField, type Profile, type ProfileType, type SelfConcept, type Snapshot, type Thread, type ThreadStatus } from '../core/types.js';
import { computeWeight } from '../script/weight-policy.js';
import { spaceTransaction, type AppContext } from './app-context.js';
import { refuseSecretsIn } from './guard-secrets.js';

/** Upserts a profile; the previous content is kept as history. */
export async function writeProfile(ctx: AppContext, raw: unknown): Promise<{ id: number; entity: string; ptype: ProfileType; replaced: boolean }> {
  const p = parseInput(profileInput, raw);
  refuseSecretsIn({ ...p });
  const now = ctx.clock.now();
  const r = await spaceTransaction(ctx, async (scope, tx) => {
    await tx.spaces.ensure(ctx.space, now);
    return scope.identity.upsertProfile({ entity: p.entity, ptype: p.profile_type, content: p.content.trim(), pinned: p.pinned, at: now });
  });
  return { id: r.id, entity: p.entity, ptype: p.profile_type, replaced: r.previous !== undefined };
}

/** All profiles, or one entity's, newest first. */
export async function readProfiles(ctx: AppContext, entity?: string): Promise<Profile[]> {
  return ctx.scope.identity.profiles(entity);
}

/** Upserts one self-concept field; the previous content is kept as history. */
export async function writeSelfConcept(ctx: AppContext, raw: unknown): Promise<{ field: string; replaced: boolean }> {
  const s = parseInput(selfConceptInput, raw);
  refuseSecretsIn({ ...s });
  const now = ctx.clock.now();
  const r = await spaceTransaction(ctx, async (scope, tx) => {
    await tx.spaces.ensure(ctx.space, now);
    return scope.identity.upsertSelfConcept(s.field, s.content.trim(), now);
  });
  return { field: s.field, replaced: r.previous !== undefined };
}

/**
 * Tideline's self-concept (SEEDS §1.4 `memory_read_self_concept`): the fact, terrain and self_reflection fields,
 * ordered by field name. The sleep's self-image parts share the table and are read with `readSelf`.
 */
export async function readSelfConcept(ctx: AppContext): Promise<SelfConcept[]> {
  return (await ctx.scope.identity.selfConcept()).filter((r) => isSelfConceptField(r.field));
}

/** Adds a "how I am right now" snapshot. */
export async function writeSnapshot(ctx: AppContext, raw: unknown): Promise<{ id: number }> {
  const s = parseInput(snapshotInput, raw);
  refuseSecretsIn({ ...s });
  const now = ctx.clock.now();
  const id = await spaceTransaction(ctx, async (scope, tx) => {
    await tx.spaces.ensure(ctx.space, now);
    return scope.identity.addSnapshot(s.content.trim(), now);
  });
  return { id };
}

/** Newest snapshots. */
export async function readSnapshots(ctx: AppContext, limit = 1): Promise<Snapshot[]> {
  return ctx.scope.identity.snapshots(limit);
}

/** Inserts a thread, or updates one when `thread_id` is given (explored_at set when it leaves `open`). */
export async function writeThread(ctx: AppContext, raw: unknown): Promise<{ id: number; weight: number; created: boolean }> {
  const t = parseInput(threadInput, raw);
  refuseSecretsIn({ ...t });
  const now = ctx.clock.now();
  const weight = computeWeight(t);
  return spaceTransaction(ctx, async (scope, tx) => {
    await tx.spaces.ensure(ctx.space, now);
    if (t.thread_id !== undefined) {
      const ok = await scope.identity.updateThread(t.thread_id, {
        ...(t.content ? { content: t.content.trim() } : {}),
        importance: t.importance, emotional: t.emotional, recurrence: t.recurrence, unresolved: t.unresolved,
        weight, status: t.status, updatedAt: now, exploredAt: t.status === 'open' ? null : now,
      });
      if (!ok) throw new TidepoolError('not_found', `thread ${t.thread_id} does not exist`, { field: 'thread_id' });
      return { id: t.thread_id, weight, created: false };
    }
    if (!t.content) throw new TidepoolError('invalid_input', 'content: must not be empty for a new thread', { field: 'content' });
    const id = await scope.identity.insertThread({
      content: t.content.trim(), importance: t.importance, emotional: t.emotional, recurrence: t.recurrence,
      unresolved: t.unresolved, weight, status: t.status, createdAt: now,
    });
    return { id, weight, created: true };
  });
}

/** Threads by status, heaviest first. */
export async function readThreads(ctx: AppContext, status: ThreadStatus | 'all' = 'open', limit = 20): Promise<Thread[]> {
  return ctx.scope.identity.threads(status, limit);
}
