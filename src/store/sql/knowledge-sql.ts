/** Knowledge entries and typed links over portable SQL. */
import type { Knowledge, KnowledgeKind, KnowledgeLink, KnowledgeStatus, LinkType } from '../../core/types.js';
import type { IndexText, KnowledgeStore, NewKnowledge, Reinforcement, SearchIndex } from '../port.js';
import type { SqlDriver, SqlValue } from '../sql-driver.js';
import { strengthNow } from '../../script/strength.js';
import { bit, bool, chunks, idsLike, json, marks, num, numOrNull, rowsInSpace, timeOf, timeOrNull, toJson } from './sql-util.js';

const COLS = `id, space, kind, key, subject, content, status, occurrences, strength, last_reinforced_at, importance,
  durable, tags, evidence, source, valid_from, valid_to, created_at, updated_at, superseded_by, meta`;

// A prefix test both engines read the same way (characters, case-sensitive); LIKE would need escaping and is
// case-insensitive for ASCII in SQLite. Parameters: the prefix's length in characters, then the prefix.
const KEY_PREFIX = 'key IS NOT NULL AND substr(key, 1, ?) = ?';

/** Maps a database row to a Knowledge entry. */
export function toKnowledge(r: Record<string, unknown>): Knowledge {
  return {
    id: num(r.id),
    space: String(r.space),
    kind: r.kind as KnowledgeKind,
    key: (r.key as string | null) ?? null,
    subject: (r.subject as string | null) ?? null,
    content: String(r.content),
    status: r.status as KnowledgeStatus,
    occurrences: num(r.occurrences),
    strength: num(r.strength),
    lastReinforcedAt: timeOf(r.last_reinforced_at),
    importance: num(r.importance),
    durable: bool(r.durable) ?? false,
    tags: json(r.tags, [], { table: 'knowledge', column: 'tags', row: r }),
    evidence: json(r.evidence, { episodes: [], narratives: [] }, { table: 'knowledge', column: 'evidence', row: r }),
    source: String(r.source),
    validFrom: timeOrNull(r.valid_from),
    validTo: timeOrNull(r.valid_to),
    createdAt: timeOf(r.created_at),
    updatedAt: timeOf(r.updated_at),
    supersededBy: numOrNull(r.superseded_by),
    meta: json(r.meta, {}, { table: 'knowledge', column: 'meta', row: r }),
  };
}

/** Knowledge store written once for every engine. */
export class KnowledgeSql implements KnowledgeStore {
  readonly #db: SqlDriver;
  readonly #search: SearchIndex;
  readonly #space: string;
  constructor(db: SqlDriver, space: string, search: SearchIndex) {
    this.#space = space;
    this.#db = db;
    this.#search = search;
  }

  async insert(r: NewKnowledge): Promise<number> {
    const got = await this.#db.get<{ id: unknown }>(
      `INSERT INTO knowledge (space, kind, key, subject, content, status, occurrences, strength, last_reinforced_at,
         importance, durable, tags, evidence, source, valid_from, valid_to, created_at, updated_at, meta, embed_pending)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [
        this.#space, r.kind, r.key, r.subject, r.content, r.status, r.occurrences, r.strength, r.createdAt, r.importance,
        bit(r.durable), toJson(r.tags), toJson(r.evidence), r.source, r.validFrom, r.validTo, r.createdAt, r.createdAt,
        toJson(r.meta), bit(r.embedPending),
      ],
    );
    const id = num(got!.id);
    await this.#search.index('knowledge', [{ id, ...r.index }], this.#space);
    return id;
  }

  async get(id: number): Promise<Knowledge | undefined> {
    const r = await this.#db.get(`SELECT ${COLS} FROM knowledge WHERE space = ? AND id = ?`, [this.#space, id]);
    return r ? toKnowledge(r) : undefined;
  }

  async getMany(ids: readonly number[]): Promise<Knowledge[]> {
    return (await rowsInSpace(this.#db, 'knowledge', COLS, this.#space, ids)).map(toKnowledge);
  }

  async getLiveByKey(key: string): Promise<Knowledge | undefined> {
    if (this.#db.dialect === 'postgres') {
      // Servers sharing a database write one key in turn: the caller's transaction holds the key until it commits,
      // and the SELECT below (a statement of its own, so a fresh READ COMMITTED snapshot) sees the entry written by
      // the transaction it waited for. Without it two writers both see no live entry and the second insert breaks
      // ux_knowledge_live_key (issue 22.6). SQLite's single writer already serialises them.
      await this.#db.get('SELECT pg_advisory_xact_lock(hashtextextended(?, 0)) AS locked', [`tidepool.key\u001f${this.#space}\u001f${key}`]);
    }
    const r = await this.#db.get(
      `SELECT ${COLS} FROM knowledge WHERE space = ? AND key = ? AND status NOT IN ('superseded', 'forgotten')`,
      [this.#space, key],
    );
    return r ? toKnowledge(r) : undefined;
  }

  async idsByKey(key: string): Promise<number[]> {
    const rows = await this.#db.all<{ id: unknown }>('SELECT id FROM knowledge WHERE space = ? AND key = ? ORDER BY id', [this.#space, key]);
    return rows.map((r) => num(r.id));
  }

  async listLiveByKeyPrefix(prefix: string, page: { limit: number; offset?: number }): Promise<Knowledge[]> {
    const rows = await this.#db.all(
      `SELECT ${COLS} FROM knowledge WHERE space = ? AND ${KEY_PREFIX} AND status NOT IN ('superseded', 'forgotten')
       ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`,
      [this.#space, [...prefix].length, prefix, page.limit, page.offset ?? 0],
    );
    return rows.map(toKnowledge);
  }

  async liveKeysWithPrefix(prefix: string): Promise<string[]> {
    const rows = await this.#db.all<{ key: unknown }>(
      `SELECT key FROM knowledge WHERE space = ? AND ${KEY_PREFIX} AND status NOT IN ('superseded', 'forgotten')`,
      [this.#space, [...prefix].length, prefix],
    );
    // Sorted here, by code unit: PostgreSQL's ORDER BY follows the database's collation, SQLite's the bytes.
    return rows.map((r) => String(r.key)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  async list(
    q: { kinds?: readonly KnowledgeKind[]; statuses?: readonly KnowledgeStatus[]; subject?: string; limit: number; offset?: number },
  ): Promise<Knowledge[]> {
    const where = ['space = ?'];
    const params: SqlValue[] = [this.#space];
    if (q.kinds && q.kinds.length > 0) {
      where.push(`kind IN (${marks(q.kinds.length)})`);
      params.push(...q.kinds);
    }
    if (q.statuses && q.statuses.length > 0) {
      where.push(`status IN (${marks(q.statuses.length)})`);
      params.push(...q.statuses);
    }
    if (q.subject) {
      where.push('subject = ?');
      params.push(q.subject);
    }
    const rows = await this.#db.all(
      `SELECT ${COLS} FROM knowledge WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`,
      [...params, q.limit, q.offset ?? 0],
    );
    return rows.map(toKnowledge);
  }

  async supersede(id: number, by: number, at: number): Promise<void> {
    await this.#db.run(
      `UPDATE knowledge SET status = 'superseded', superseded_by = ?, valid_to = COALESCE(valid_to, ?), updated_at = ?
       WHERE space = ? AND id = ?`,
      [by, at, at, this.#space, id],
    );
  }

  async setStatus(ids: readonly number[], status: KnowledgeStatus, at: number): Promise<void> {
    for (const part of chunks(ids)) {
      await this.#db.run(`UPDATE knowledge SET status = ?, updated_at = ? WHERE (space || '') = ? AND id IN (${marks(part.length)})`, [
        status,
        at,
        this.#space,
        ...part,
      ]);
    }
  }

  async reinforce(hits: readonly Reinforcement[]): Promise<void> {
    // Decay to `at` first, then add the step: a hit restores what it earns, not everything lost since the last one.
    // PostgreSQL: every row named is locked before any is read, all in id order, however many reinforcements name
    // them. Writers on several servers then queue for a shared entry instead of locking two in opposite orders (a
    // deadlock: PostgreSQL waits a second before it aborts one), and no reinforcement is lost to a read-modify-write
    // race. SQLite's single writer already serialises them.
    const ids = [...new Set(hits.flatMap((h) => h.ids))].sort((a, b) => a - b);
    const lock = this.#db.dialect === 'postgres' ? ' FOR UPDATE' : '';
    const rows = new Map<number, { strength: number; at: number }>();
    for (const part of chunks(ids)) {
      for (const r of await this.#db.all<{ id: unknown; strength: unknown; last_reinforced_at: unknown }>(
        `SELECT id, strength, last_reinforced_at FROM knowledge WHERE (space || '') = ? AND id IN (${marks(part.length)})
         ORDER BY id${lock}`,
        [this.#space, ...part],
      )) {
        rows.set(num(r.id), { strength: num(r.strength), at: num(r.last_reinforced_at) });
      }
    }
    // In the order given; an entry named twice by one reinforcement gains its step once.
    for (const h of hits) {
      for (const id of new Set(h.ids)) {
        const row = rows.get(id);
        if (!row) continue; // another space's, or gone
        row.strength = Math.min(1, Math.round((strengthNow(row.strength, row.at, h.at) + h.step) * 1e6) / 1e6);
        row.at = h.at;
      }
    }
    // Every row read was named by some reinforcement, so each changed: one statement per part, not one per row (a
    // recall's notes reinforce its hits inside one transaction, and each statement is a round trip on PostgreSQL).
    // The CASTs type the parameters for PostgreSQL (a CASE of untyped parameters would be text there).
    for (const part of chunks([...rows], 200)) {
      const strength = part.map(() => 'WHEN ? THEN CAST(? AS DOUBLE PRECISION)').join(' ');
      const at = part.map(() => 'WHEN ? THEN CAST(? AS BIGINT)').join(' ');
      await this.#db.run(
        `UPDATE knowledge SET strength = CASE id ${strength} END, last_reinforced_at = CASE id ${at} END
         WHERE id IN (${marks(part.length)})`,
        [...part.flatMap(([id, r]) => [id, r.strength]), ...part.flatMap(([id, r]) => [id, r.at]), ...part.map(([id]) => id)],
      );
    }
  }

  async update(
    id: number,
    patch: Partial<Pick<Knowledge, 'content' | 'occurrences' | 'strength' | 'evidence' | 'tags' | 'validFrom' | 'validTo' | 'meta'>>,
    index?: IndexText,
    at?: number,
  ): Promise<void> {
    const sets: string[] = [];
    const params: SqlValue[] = [];
    const put = (col: string, v: SqlValue) => {
      sets.push(`${col} = ?`);
      params.push(v);
    };
    if (patch.content !== undefined) put('content', patch.content);
    if (patch.occurrences !== undefined) put('occurrences', patch.occurrences);
    if (patch.strength !== undefined) put('strength', patch.strength);
    if (patch.evidence !== undefined) put('evidence', toJson(patch.evidence));
    if (patch.tags !== undefined) put('tags', toJson(patch.tags));
    if (patch.validFrom !== undefined) put('valid_from', patch.validFrom);
    if (patch.validTo !== undefined) put('valid_to', patch.validTo);
    if (patch.meta !== undefined) put('meta', toJson(patch.meta));
    if (at !== undefined) put('updated_at', at);
    if (sets.length > 0) {
      await this.#db.run(`UPDATE knowledge SET ${sets.join(', ')} WHERE space = ? AND id = ?`, [...params, this.#space, id]);
    }
    // Re-index only an entry of this space: the index tables carry no space, so an id alone could reach another's.
    if (index && (await this.#db.get('SELECT id FROM knowledge WHERE space = ? AND id = ?', [this.#space, id]))) {
      await this.#search.unindex('knowledge', [id], this.#space);
      await this.#search.index('knowledge', [{ id, ...index }], this.#space);
    }
  }

  async link(fromId: number, toId: number, type: LinkType, at: number): Promise<boolean> {
    const r = await this.#db.run(
      'INSERT INTO knowledge_links (space, from_id, to_id, type, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [this.#space, fromId, toId, type, at],
    );
    return r.changes > 0;
  }

  async links(id: number): Promise<KnowledgeLink[]> {
    const rows = await this.#db.all<Record<string, unknown>>(
      'SELECT id, from_id, to_id, type, created_at FROM knowledge_links WHERE space = ? AND (from_id = ? OR to_id = ?) ORDER BY id',
      [this.#space, id, id],
    );
    return rows.map((r) => ({
      id: num(r.id),
      fromId: num(r.from_id),
      toId: num(r.to_id),
      type: r.type as LinkType,
      createdAt: num(r.created_at),
    }));
  }

  async delete(ids: readonly number[]): Promise<number> {
    let n = 0;
    for (const part of chunks(ids)) {
      const own = (await rowsInSpace<{ id: unknown }>(this.#db, 'knowledge', 'id', this.#space, part)).map((r) => num(r.id));
      if (own.length === 0) continue;
      await this.#search.unindex('knowledge', own, this.#space);
      const m = marks(own.length);
      await this.#db.run(`DELETE FROM knowledge_links WHERE from_id IN (${m}) OR to_id IN (${m})`, [...own, ...own]);
      await this.#db.run(`DELETE FROM embeddings WHERE layer = 'knowledge' AND item_id IN (${m})`, own);
      n += (await this.#db.run(`DELETE FROM knowledge WHERE id IN (${m})`, own)).changes;
    }
    return n;
  }

  async count(statuses?: readonly KnowledgeStatus[]): Promise<number> {
    const filter = statuses && statuses.length > 0 ? ` AND status IN (${marks(statuses.length)})` : '';
    const r = await this.#db.get<{ n: unknown }>(`SELECT COUNT(*) AS n FROM knowledge WHERE space = ?${filter}`, [
      this.#space,
      ...(statuses ?? []),
    ]);
    return num(r?.n ?? 0);
  }
  async idsWithContent(contents: readonly string[]): Promise<number[]> {
    const out: number[] = [];
    for (const part of chunks(contents)) {
      const rows = await this.#db.all<{ id: unknown }>(
        `SELECT id FROM knowledge WHERE space = ? AND content IN (${marks(part.length)}) ORDER BY id`,
        [this.#space, ...part],
      );
      out.push(...rows.map((r) => num(r.id)));
    }
    return out;
  }


  async idsContaining(needle: string, limit: number): Promise<number[]> {
    return idsLike(this.#db, 'knowledge', ['content'], this.#space, needle, limit);
  }

  async setKey(id: number, key: string | null, at: number): Promise<void> {
    await this.#db.run('UPDATE knowledge SET key = ?, updated_at = ? WHERE space = ? AND id = ?', [
      key,
      at,
      this.#space,
      id,
    ]);
  }
}
