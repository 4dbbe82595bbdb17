/** Goals, checkpoints and pending events (Tulimoa continuity) over portable SQL. */
import type { CheckpointRow, ContinuityStore, GoalRow, PendingEventRow } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { chunks, json, marks, num, numOrNull, toJson } from './sql-util.js';

function toGoal(r: Record<string, unknown>): GoalRow {
  return {
    id: num(r.id),
    text: String(r.text),
    status: r.status as GoalRow['status'],
    session: (r.session as string | null) ?? null,
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  };
}

/** Continuity store written once for every engine. */
export class ContinuitySql implements ContinuityStore {
  readonly #db: SqlDriver;
  readonly #space: string;
  constructor(db: SqlDriver, space: string) {
    this.#space = space;
    this.#db = db;
  }

  async setGoal(g: { text: string; session: string | null; at: number }): Promise<{ id: number; replaced: GoalRow | undefined }> {
    return this.#db.transaction(async (tx) => {
      const old = await tx.get("SELECT * FROM goals WHERE space = ? AND status = 'active' ORDER BY id DESC LIMIT 1", [this.#space]);
      await tx.run("UPDATE goals SET status = 'replaced', updated_at = ? WHERE space = ? AND status = 'active'", [g.at, this.#space]);
      const got = await tx.get<{ id: unknown }>(
        "INSERT INTO goals (space, text, status, session, created_at, updated_at) VALUES (?, ?, 'active', ?, ?, ?) RETURNING id",
        [this.#space, g.text, g.session, g.at, g.at],
      );
      return { id: num(got!.id), replaced: old ? { ...toGoal(old), status: 'replaced' as const, updatedAt: g.at } : undefined };
    });
  }

  async finishGoal(at: number): Promise<GoalRow | undefined> {
    const old = await this.activeGoal();
    if (!old) return undefined;
    await this.#db.run("UPDATE goals SET status = 'done', updated_at = ? WHERE space = ? AND status = 'active'", [at, this.#space]);
    return { ...old, status: 'done', updatedAt: at };
  }

  async activeGoal(): Promise<GoalRow | undefined> {
    const r = await this.#db.get("SELECT * FROM goals WHERE space = ? AND status = 'active' ORDER BY id DESC LIMIT 1", [this.#space]);
    return r ? toGoal(r) : undefined;
  }

  async addCheckpoint(c: { goalId: number | null; plan: string; session: string | null; at: number }): Promise<number> {
    const got = await this.#db.get<{ id: unknown }>(
      'INSERT INTO checkpoints (space, goal_id, plan, session, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
      [this.#space, c.goalId, c.plan, c.session, c.at],
    );
    return num(got!.id);
  }

  async latestCheckpoint(): Promise<CheckpointRow | undefined> {
    const r = await this.#db.get('SELECT * FROM checkpoints WHERE space = ? ORDER BY created_at DESC, id DESC LIMIT 1', [this.#space]);
    if (!r) return undefined;
    return { id: num(r.id), goalId: numOrNull(r.goal_id), plan: String(r.plan), session: (r.session as string | null) ?? null, createdAt: num(r.created_at) };
  }

  async addEvent(e: { kind: string; payload: Record<string, unknown>; session: string | null; at: number }): Promise<number> {
    const got = await this.#db.get<{ id: unknown }>(
      'INSERT INTO pending_events (space, kind, payload, session, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
      [this.#space, e.kind, toJson(e.payload), e.session, e.at],
    );
    return num(got!.id);
  }

  async pendingEvents(q: { session?: string; limit: number }): Promise<PendingEventRow[]> {
    const bySession = q.session !== undefined ? 'AND (session IS NULL OR session = ?)' : '';
    const rows = await this.#db.all(
      `SELECT * FROM pending_events WHERE space = ? AND delivered_at IS NULL ${bySession} ORDER BY created_at ASC, id ASC LIMIT ?`,
      q.session !== undefined ? [this.#space, q.session, q.limit] : [this.#space, q.limit],
    );
    return rows.map((r) => ({
      id: num(r.id),
      kind: String(r.kind),
      payload: json<Record<string, unknown>>(r.payload, {}, { table: 'pending_events', column: 'payload', row: r }),
      session: (r.session as string | null) ?? null,
      createdAt: num(r.created_at),
      deliveredAt: numOrNull(r.delivered_at),
    }));
  }

  async markDelivered(ids: readonly number[], at: number): Promise<void> {
    for (const part of chunks(ids)) {
      await this.#db.run(`UPDATE pending_events SET delivered_at = ? WHERE space = ? AND id IN (${marks(part.length)})`, [at, this.#space, ...part]);
    }
  }
}
