/** Profiles (with history), self-concept (with history), snapshots and threads over portable SQL. */
import type {
  HistoryEntry,
  Profile,
  ProfileType,
  SelfConcept,
  SelfConceptField,
  SelfImageField,
  Snapshot,
  Thread,
  ThreadStatus,
} from '../../core/types.js';
import type { IdentityStore } from '../port.js';
import type { SqlDriver, SqlValue } from '../sql-driver.js';
import { bit, bool, num, numOrNull } from './sql-util.js';

/** Versions kept per profile or self-concept field (Tideline v2.5: 30 per key). */
const HISTORY_CAP = 30;

function toThread(r: Record<string, unknown>): Thread {
  return {
    id: num(r.id),
    content: String(r.content),
    importance: num(r.importance),
    emotional: num(r.emotional),
    recurrence: num(r.recurrence),
    unresolved: num(r.unresolved),
    weight: num(r.weight),
    status: r.status as ThreadStatus,
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
    exploredAt: numOrNull(r.explored_at),
  };
}

/** Identity store written once for every engine. */
export class IdentitySql implements IdentityStore {
  readonly #db: SqlDriver;
  readonly #space: string;
  constructor(db: SqlDriver, space: string) {
    this.#space = space;
    this.#db = db;
  }

  async upsertProfile(
    p: { entity: string; ptype: ProfileType; content: string; pinned?: boolean; at: number },
  ): Promise<{ id: number; previous?: string }> {
    const old = await this.#db.get<Record<string, unknown>>(
      'SELECT id, content, updated_at, pinned FROM profiles WHERE space = ? AND entity = ? AND ptype = ?',
      [this.#space, p.entity, p.ptype],
    );
    if (old) {
      const previous = String(old.content);
      if (previous !== p.content) {
        await this.#db.run(
          'INSERT INTO profile_history (space, entity, ptype, content, valid_from, replaced_at) VALUES (?, ?, ?, ?, ?, ?)',
          [this.#space, p.entity, p.ptype, previous, num(old.updated_at), p.at],
        );
        await this.#trim('profile_history', 'space = ? AND entity = ? AND ptype = ?', [this.#space, p.entity, p.ptype]);
      }
      await this.#db.run('UPDATE profiles SET content = ?, pinned = ?, updated_at = ? WHERE id = ?', [
        p.content,
        bit(p.pinned ?? bool(old.pinned) ?? false),
        p.at,
        num(old.id),
      ]);
      return { id: num(old.id), previous };
    }
    const got = await this.#db.get<{ id: unknown }>(
      `INSERT INTO profiles (space, entity, ptype, content, pinned, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       RETURNING id`,
      [this.#space, p.entity, p.ptype, p.content, bit(p.pinned ?? false), p.at, p.at],
    );
    return { id: num(got!.id) };
  }

  async #trim(table: string, where: string, params: SqlValue[]): Promise<void> {
    // Keep the newest HISTORY_CAP versions of one key (the v2.5 trigger, done in code so both engines agree).
    const rows = await this.#db.all<{ id: unknown }>(`SELECT id FROM ${table} WHERE ${where} ORDER BY id DESC`, params);
    const drop = rows.slice(HISTORY_CAP).map((r) => num(r.id));
    for (const id of drop) await this.#db.run(`DELETE FROM ${table} WHERE id = ?`, [id]);
  }

  async profiles(entity?: string): Promise<Profile[]> {
    const rows = await this.#db.all<Record<string, unknown>>(
      `SELECT id, entity, ptype, content, pinned, created_at, updated_at FROM profiles WHERE space = ?
       ${entity ? 'AND entity = ?' : ''} ORDER BY updated_at DESC, id DESC`,
      entity ? [this.#space, entity] : [this.#space],
    );
    return rows.map((r) => ({
      id: num(r.id),
      entity: String(r.entity),
      ptype: r.ptype as ProfileType,
      content: String(r.content),
      pinned: bool(r.pinned) ?? false,
      createdAt: num(r.created_at),
      updatedAt: num(r.updated_at),
    }));
  }

  async profileHistory(entity: string, ptype: ProfileType): Promise<HistoryEntry[]> {
    const rows = await this.#db.all<Record<string, unknown>>(
      `SELECT content, valid_from, replaced_at FROM profile_history WHERE space = ? AND entity = ? AND ptype = ?
       ORDER BY id DESC`,
      [this.#space, entity, ptype],
    );
    return rows.map((r) => ({ content: String(r.content), validFrom: num(r.valid_from), replacedAt: num(r.replaced_at) }));
  }

  async upsertSelfConcept(field: SelfConceptField | SelfImageField, content: string, at: number): Promise<{ previous?: string }> {
    const old = await this.#db.get<Record<string, unknown>>(
      'SELECT content, updated_at FROM self_concept WHERE space = ? AND field = ?',
      [this.#space, field],
    );
    if (old) {
      const previous = String(old.content);
      if (previous !== content) {
        await this.#db.run(
          'INSERT INTO self_concept_history (space, field, content, valid_from, replaced_at) VALUES (?, ?, ?, ?, ?)',
          [this.#space, field, previous, num(old.updated_at), at],
        );
        await this.#trim('self_concept_history', 'space = ? AND field = ?', [this.#space, field]);
      }
      await this.#db.run('UPDATE self_concept SET content = ?, updated_at = ? WHERE space = ? AND field = ?', [
        content,
        at,
        this.#space,
        field,
      ]);
      return { previous };
    }
    await this.#db.run('INSERT INTO self_concept (space, field, content, updated_at) VALUES (?, ?, ?, ?)', [
      this.#space,
      field,
      content,
      at,
    ]);
    return {};
  }

  async selfConcept(): Promise<SelfConcept[]> {
    const rows = await this.#db.all<Record<string, unknown>>(
      'SELECT field, content, updated_at FROM self_concept WHERE space = ? ORDER BY field',
      [this.#space],
    );
    return rows.map((r) => ({ field: r.field as SelfConceptField | SelfImageField, content: String(r.content), updatedAt: num(r.updated_at) }));
  }

  async selfConceptHistory(field: SelfConceptField): Promise<HistoryEntry[]> {
    const rows = await this.#db.all<Record<string, unknown>>(
      'SELECT content, valid_from, replaced_at FROM self_concept_history WHERE space = ? AND field = ? ORDER BY id DESC',
      [this.#space, field],
    );
    return rows.map((r) => ({ content: String(r.content), validFrom: num(r.valid_from), replacedAt: num(r.replaced_at) }));
  }

  async addSnapshot(content: string, at: number): Promise<number> {
    const got = await this.#db.get<{ id: unknown }>(
      'INSERT INTO snapshots (space, content, created_at) VALUES (?, ?, ?) RETURNING id',
      [this.#space, content, at],
    );
    return num(got!.id);
  }

  async snapshots(limit: number): Promise<Snapshot[]> {
    const rows = await this.#db.all<Record<string, unknown>>(
      'SELECT id, content, created_at FROM snapshots WHERE space = ? ORDER BY created_at DESC, id DESC LIMIT ?',
      [this.#space, limit],
    );
    return rows.map((r) => ({ id: num(r.id), content: String(r.content), createdAt: num(r.created_at) }));
  }

  async insertThread(t: Omit<Thread, 'id' | 'updatedAt' | 'exploredAt'>): Promise<number> {
    const got = await this.#db.get<{ id: unknown }>(
      `INSERT INTO threads (space, content, importance, emotional, recurrence, unresolved, weight, status, created_at,
         updated_at, explored_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [
        this.#space, t.content, t.importance, t.emotional, t.recurrence, t.unresolved, t.weight, t.status, t.createdAt,
        t.createdAt, t.status === 'open' ? null : t.createdAt,
      ],
    );
    return num(got!.id);
  }

  async updateThread(id: number, patch: Partial<Omit<Thread, 'id' | 'createdAt'>>): Promise<boolean> {
    const cols: Record<string, string> = {
      content: 'content', importance: 'importance', emotional: 'emotional', recurrence: 'recurrence',
      unresolved: 'unresolved', weight: 'weight', status: 'status', updatedAt: 'updated_at', exploredAt: 'explored_at',
    };
    const sets: string[] = [];
    const params: SqlValue[] = [];
    for (const [k, col] of Object.entries(cols)) {
      const v = (patch as Record<string, unknown>)[k];
      if (v !== undefined) {
        sets.push(`${col} = ?`);
        params.push(v as SqlValue);
      }
    }
    if (sets.length === 0) return (await this.#db.get('SELECT id FROM threads WHERE space = ? AND id = ?', [this.#space, id])) !== undefined;
    const r = await this.#db.run(`UPDATE threads SET ${sets.join(', ')} WHERE space = ? AND id = ?`, [...params, this.#space, id]);
    return r.changes > 0;
  }

  async threads(status: ThreadStatus | 'all', limit: number): Promise<Thread[]> {
    const rows = await this.#db.all<Record<string, unknown>>(
      `SELECT * FROM threads WHERE space = ? ${status === 'all' ? '' : 'AND status = ?'}
       ORDER BY weight DESC, created_at DESC LIMIT ?`,
      status === 'all' ? [this.#space, limit] : [this.#space, status, limit],
    );
    return rows.map(toThread);
  }
}
