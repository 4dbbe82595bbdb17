/** Episodes over portable SQL. */
import type { Episode, EpisodeKind } from '../../core/types.js';
import type { EpisodeStore, NewEpisode, RecallEpisode, SearchIndex, TimelineQuery } from '../port.js';
import type { SqlDriver, SqlValue } from '../sql-driver.js';
import { bit, bool, chunks, json, jsonRecords, marks, num, timeOf, timeOrNull, toJson } from './sql-util.js';

/** The episode columns a PostgreSQL batch insert reads from its JSON records, in `values` order. */
const EPISODE_FIELDS = [
  'kind', 'role', 'speaker', 'content', 'session', 'tool', 'ok', 'source', 'ref', 'meta', 'durable', 'occurred_at',
  'created_at', 'consolidated_at', 'embed_pending',
] as const;

const COLS =
  'id, space, kind, role, speaker, content, session, tool, ok, source, ref, meta, durable, occurred_at, created_at, consolidated_at, archived_at';

/** Maps a database row to what recall reads of an episode. */
function toRecallEpisode(r: Record<string, unknown>): RecallEpisode {
  return {
    id: num(r.id),
    kind: r.kind as EpisodeKind,
    role: (r.role as string | null) ?? null,
    speaker: (r.speaker as string | null) ?? null,
    content: String(r.content),
    session: (r.session as string | null) ?? null,
    occurredAt: timeOf(r.occurred_at),
    archivedAt: timeOrNull(r.archived_at),
  };
}

/** Maps a database row to an Episode. */
export function toEpisode(r: Record<string, unknown>): Episode {
  return {
    ...toRecallEpisode(r),
    space: String(r.space),
    tool: (r.tool as string | null) ?? null,
    ok: bool(r.ok),
    source: String(r.source),
    ref: (r.ref as string | null) ?? null,
    meta: json(r.meta, {}, { table: 'episodes', column: 'meta', row: r }),
    durable: bool(r.durable) ?? false,
    createdAt: timeOf(r.created_at),
    consolidatedAt: timeOrNull(r.consolidated_at),
  };
}

/** Episode store written once for every engine. */
export class EpisodeSql implements EpisodeStore {
  readonly #db: SqlDriver;
  readonly #search: SearchIndex;
  constructor(db: SqlDriver, search: SearchIndex) {
    this.#db = db;
    this.#search = search;
  }

  async insertMany(space: string, rows: readonly NewEpisode[]): Promise<{ ids: number[]; skipped: number }> {
    const ids: number[] = [];
    const docs: Array<{ id: number; body: string; extra: string; raw: string }> = [];
    let skipped = 0;
    const pg = this.#db.dialect === 'postgres';
    // SQLite: multi-row INSERTs (200 rows, 3,200 parameters: inside its limit). PostgreSQL: a whole batch of up to
    // 2,000 rows as one JSON parameter expanded by json_to_recordset — one statement, one parse and one plan per
    // batch instead of per 200 rows, which is what a network database pays for most (4.7k -> 20k+ rows/s, issue 20).
    for (const part of chunks(rows, pg ? 2000 : 200)) {
      const values = (r: NewEpisode): SqlValue[] => [
        r.kind, r.role, r.speaker, r.content, r.session, r.tool, bit(r.ok), r.source, r.ref, toJson(r.meta),
        bit(r.durable), r.occurredAt, r.createdAt, r.consolidatedAt ?? null, bit(r.embedPending),
      ];
      const inserting = pg
        ? this.#db.all<{ id: unknown; ref: unknown }>(
            // ORDER BY the ordinal: identity values are drawn in input order, which the matching below relies on.
            `INSERT INTO episodes (space, kind, role, speaker, content, session, tool, ok, source, ref, meta, durable,
               occurred_at, created_at, consolidated_at, embed_pending)
             SELECT ?, u.kind, u.role, u.speaker, u.content, u.session, u.tool, u.ok, u.source, u.ref, u.meta, u.durable,
               u.occurred_at, u.created_at, u.consolidated_at, u.embed_pending
             FROM ROWS FROM (json_to_recordset(?::json) AS (kind text, role text, speaker text, content text, session text,
               tool text, ok bigint, source text, ref text, meta text, durable bigint, occurred_at bigint, created_at bigint,
               consolidated_at bigint, embed_pending bigint)) WITH ORDINALITY AS u
             ORDER BY u.ordinality
             ON CONFLICT DO NOTHING RETURNING id, ref`,
            [space, jsonRecords(EPISODE_FIELDS, part.map(values))],
          )
        : this.#db.all<{ id: unknown; ref: unknown }>(
            `INSERT INTO episodes (space, kind, role, speaker, content, session, tool, ok, source, ref, meta, durable,
               occurred_at, created_at, consolidated_at, embed_pending)
             VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
             ON CONFLICT DO NOTHING RETURNING id, ref`,
            part.flatMap((r) => [space, ...values(r)]),
          );
      // The statement is on its way: the index entries are built while the database inserts the rows.
      this.#search.prepare?.(part.map((r) => r.index));
      const got = await inserting;
      // Ids grow in insertion order within one statement, so the inserted rows sorted by id line up with the input;
      // an input row whose ref does not match the next inserted row was skipped (its ref already existed).
      const inserted = got.map((g) => ({ id: num(g.id), ref: (g.ref as string | null) ?? null })).sort((a, b) => a.id - b.id);
      let next = 0;
      for (const r of part) {
        const hit = inserted[next];
        if (!hit || hit.ref !== (r.ref ?? null)) {
          skipped++;
          continue;
        }
        next++;
        ids.push(hit.id);
        docs.push({ id: hit.id, ...r.index });
      }
      if (next !== inserted.length) throw new Error(`episode insert: ${inserted.length} rows inserted, ${next} matched to the input`);
    }
    if (docs.length > 0) await this.#search.index('episode', docs);
    return { ids, skipped };
  }

  async get(space: string, id: number): Promise<Episode | undefined> {
    const r = await this.#db.get(`SELECT ${COLS} FROM episodes WHERE space = ? AND id = ?`, [space, id]);
    return r ? toEpisode(r) : undefined;
  }

  async getForRecall(space: string, ids: readonly number[]): Promise<RecallEpisode[]> {
    const out: RecallEpisode[] = [];
    for (const part of chunks(ids)) {
      const rows = await this.#db.all<Record<string, unknown>>(
        `SELECT id, kind, role, speaker, content, session, occurred_at, archived_at FROM episodes
         WHERE (space || '') = ? AND id IN (${marks(part.length)})`,
        [space, ...part],
      );
      out.push(...rows.map(toRecallEpisode));
    }
    return out;
  }

  async getMany(space: string, ids: readonly number[]): Promise<Episode[]> {
    const out: Episode[] = [];
    for (const part of chunks(ids)) {
      const rows = await this.#db.all(`SELECT ${COLS} FROM episodes WHERE (space || '') = ? AND id IN (${marks(part.length)})`, [
        space,
        ...part,
      ]);
      out.push(...rows.map(toEpisode));
    }
    return out;
  }

  async timeline(space: string, q: TimelineQuery): Promise<{ items: Episode[]; total: number }> {
    const where: string[] = ['space = ?'];
    const params: SqlValue[] = [space];
    if (q.from !== undefined) {
      where.push('occurred_at >= ?');
      params.push(q.from);
    }
    if (q.to !== undefined) {
      where.push('occurred_at <= ?');
      params.push(q.to);
    }
    if (q.session !== undefined) {
      where.push('session = ?');
      params.push(q.session);
    }
    if (!q.includeArchived) where.push('archived_at IS NULL');
    const w = where.join(' AND ');
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const items = await this.#db.all(
      `SELECT ${COLS} FROM episodes WHERE ${w} ORDER BY occurred_at ${dir}, id ${dir} LIMIT ? OFFSET ?`,
      [...params, q.limit, q.offset],
    );
    const total = await this.#db.get<{ n: unknown }>(`SELECT COUNT(*) AS n FROM episodes WHERE ${w}`, params);
    return { items: items.map(toEpisode), total: num(total?.n ?? 0) };
  }

  async around(
    space: string,
    ids: readonly number[],
    window: number,
  ): Promise<Array<{ id: number; session: string | null; occurredAt: number; speaker: string | null }>> {
    if (ids.length === 0) return [];
    // Enumerate the ids of every window: primary-key lookups stay fast however large the space is.
    const want = new Set<number>();
    for (const id of ids) for (let d = -window; d <= window; d++) if (id + d > 0) want.add(id + d);
    const out: Array<{ id: number; session: string | null; occurredAt: number; speaker: string | null }> = [];
    // (space || '') keeps the planner on the primary key instead of the space index (SQLite; harmless on Postgres).
    for (const part of chunks([...want], 500)) {
      const rows = await this.#db.all<Record<string, unknown>>(
        `SELECT id, session, occurred_at, speaker FROM episodes WHERE (space || '') = ? AND id IN (${marks(part.length)})`,
        [space, ...part],
      );
      for (const r of rows) {
        out.push({ id: num(r.id), session: (r.session as string | null) ?? null, occurredAt: timeOf(r.occurred_at), speaker: (r.speaker as string | null) ?? null });
      }
    }
    return out;
  }

  async lastInSessions(space: string, sessions: readonly string[], n: number): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    // One statement per 100 sessions, a LIMITed branch per session (each walks its own index range), instead of a
    // round trip per session: a batch of 1,000 turns spans ~50 sessions (issue 20).
    for (const part of chunks([...new Set(sessions)], 100)) {
      const branch = `SELECT * FROM (SELECT session, content, occurred_at, id FROM episodes WHERE space = ? AND session = ?
        ORDER BY occurred_at DESC, id DESC LIMIT ?) s`;
      const rows = await this.#db.all<{ session: string; content: string }>(
        `SELECT session, content FROM (${part.map(() => branch).join(' UNION ALL ')}) u ORDER BY session, occurred_at, id`,
        part.flatMap((session) => [space, session, n]),
      );
      for (const r of rows) {
        const list = out.get(r.session);
        if (list) list.push(r.content);
        else out.set(r.session, [r.content]);
      }
    }
    return out;
  }

  async openingTurns(space: string, sessions: readonly string[], n: number): Promise<number[]> {
    const out: number[] = [];
    for (const session of new Set(sessions)) {
      const rows = await this.#db.all<{ id: unknown }>(
        'SELECT id FROM episodes WHERE space = ? AND session = ? ORDER BY occurred_at, id LIMIT ?',
        [space, session, n],
      );
      out.push(...rows.map((r) => num(r.id)));
    }
    return out;
  }

  async speakers(space: string): Promise<string[]> {
    const rows = await this.#db.all<{ speaker: string }>(
      'SELECT DISTINCT speaker FROM episodes WHERE space = ? AND speaker IS NOT NULL',
      [space],
    );
    return rows.map((r) => r.speaker);
  }

  async neighbours(space: string, id: number, n: number): Promise<Episode[]> {
    const self = await this.get(space, id);
    if (!self) return [];
    if (self.session === null || n === 0) return [self];
    const before = await this.#db.all(
      `SELECT ${COLS} FROM episodes WHERE space = ? AND session = ? AND (occurred_at < ? OR (occurred_at = ? AND id < ?))
       ORDER BY occurred_at DESC, id DESC LIMIT ?`,
      [space, self.session, self.occurredAt, self.occurredAt, id, n],
    );
    const after = await this.#db.all(
      `SELECT ${COLS} FROM episodes WHERE space = ? AND session = ? AND (occurred_at > ? OR (occurred_at = ? AND id > ?))
       ORDER BY occurred_at ASC, id ASC LIMIT ?`,
      [space, self.session, self.occurredAt, self.occurredAt, id, n],
    );
    return [...before.reverse().map(toEpisode), self, ...after.map(toEpisode)];
  }

  async delete(space: string, ids: readonly number[]): Promise<number> {
    let n = 0;
    for (const part of chunks(ids)) {
      const owned = await this.#db.all<{ id: unknown }>(
        `SELECT id FROM episodes WHERE (space || '') = ? AND id IN (${marks(part.length)})`,
        [space, ...part],
      );
      const own = owned.map((r) => num(r.id));
      if (own.length === 0) continue;
      await this.#search.unindex('episode', own);
      await this.#db.run(`DELETE FROM embeddings WHERE layer = 'episode' AND item_id IN (${marks(own.length)})`, own);
      n += (await this.#db.run(`DELETE FROM episodes WHERE id IN (${marks(own.length)})`, own)).changes;
    }
    return n;
  }

  async count(space: string): Promise<number> {
    const r = await this.#db.get<{ n: unknown }>('SELECT COUNT(*) AS n FROM episodes WHERE space = ?', [space]);
    return num(r?.n ?? 0);
  }

  async idsWithContent(space: string, contents: readonly string[], source?: string): Promise<number[]> {
    const out: number[] = [];
    for (const part of chunks(contents)) {
      const rows = await this.#db.all<{ id: unknown }>(
        `SELECT id FROM episodes WHERE space = ?${source === undefined ? '' : ' AND source = ?'} AND content IN (${marks(part.length)}) ORDER BY id`,
        [space, ...(source === undefined ? [] : [source]), ...part],
      );
      out.push(...rows.map((r) => num(r.id)));
    }
    return out;
  }
}
