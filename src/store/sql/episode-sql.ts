/**
 * Episodes over portable SQL: rows, reads for recall and the timeline, the script jobs' narrow reads, and the sleep's
 * lifecycle marks and rewrites. Past 400 lines because every query of the table sits here (issue 19: one module per
 * entity); each read names its own narrow column set.
 */
import type { Episode, EpisodeKind } from '../../core/types.js';
import type { EpisodeStore, IndexBatch, IndexText, NewEpisode, RecallEpisode, ScriptEpisodeRow, SearchIndex, TimelineQuery } from '../port.js';
import { pipelines, PREPARED, storableParams, type SqlDriver, type SqlValue } from '../sql-driver.js';
import { bit, bool, chunks, idsIn, idsLike, json, jsonRecords, marks, num, numOrNull, rowsInSpace, timeOf, timeOrNull, toJson } from './sql-util.js';

/**
 * The episode columns a PostgreSQL batch insert reads from its JSON records, in `values` order, each under a one-letter
 * key: the names were a third of a batch's JSON, which the app writes and sends and the server reads (issue 20).
 */
const EPISODE_FIELDS = [
  'kind', 'role', 'speaker', 'content', 'session', 'tool', 'ok', 'source', 'ref', 'meta', 'durable', 'occurred_at',
  'created_at', 'consolidated_at', 'embed_pending',
] as const;
const EPISODE_KEYS = EPISODE_FIELDS.map((_, i) => String.fromCharCode(97 + i));
/** Their types in the record (`ok` and the flags are 0/1 integers; times are epoch milliseconds). */
const EPISODE_TYPES = [
  'text', 'text', 'text', 'text', 'text', 'text', 'bigint', 'text', 'text', 'text', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint',
] as const;

const COLS =
  'id, space, kind, role, speaker, content, session, tool, ok, source, ref, meta, durable, occurred_at, created_at, consolidated_at, archived_at';

/**
 * Since when an episode waits for the night: the turn's own time when it happened before it was stored (imported
 * history: a week-old transcript waits since a week), else its insertion (a turn stamped in the future waits from
 * when it arrived). Portable SQL (no LEAST/MIN over two columns).
 */
const WAITING_SINCE = 'CASE WHEN occurred_at < created_at THEN occurred_at ELSE created_at END';

function toEpisodeRow(r: Record<string, unknown>): ScriptEpisodeRow {
  return {
    id: num(r.id),
    content: String(r.content),
    role: (r.role as string | null) ?? null,
    session: (r.session as string | null) ?? null,
    occurredAt: num(r.occurred_at),
  };
}

const SCRIPT_EPISODE_COLS = 'id, content, role, session, occurred_at';

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

/**
 * The episode columns a PostgreSQL part reads from its JSON records (`IndexBatch.rowsWith`), each under a one-letter
 * key. Its one arbiter is the ref index: no primary-key check per row (ids come from the identity).
 */
const PG_EPISODE_COLUMNS = EPISODE_FIELDS.map((column, i) => ({ column, key: EPISODE_KEYS[i]!, type: EPISODE_TYPES[i]! }));
const PG_EPISODE_CONFLICT = {
  sql: 'ON CONFLICT (space, ref) WHERE ref IS NOT NULL DO NOTHING',
  key: PG_EPISODE_COLUMNS.find((c) => c.column === 'ref')!.key,
};

/** Rows per PostgreSQL insert statement: parts small enough to pipeline a batch, large enough to amortise a statement. */
const PG_PART = 250;

/** Parts of `size` rows read from `rows` one part at a time (a generator's rows are built as the parts are taken). */
function* partsOf<T>(rows: Iterable<T>, size: number): Generator<T[], void> {
  let part: T[] = [];
  for (const r of rows) {
    part.push(r);
    if (part.length === size) {
      yield part;
      part = [];
    }
  }
  if (part.length > 0) yield part;
}

/** Episode store written once for every engine. */
export class EpisodeSql implements EpisodeStore {
  readonly #db: SqlDriver;
  readonly #search: SearchIndex;
  readonly #space: string;
  constructor(db: SqlDriver, space: string, search: SearchIndex) {
    this.#space = space;
    this.#db = db;
    this.#search = search;
  }

  async insertMany(rows: Iterable<NewEpisode>): Promise<{ ids: number[]; skipped: number }> {
    const values = (r: NewEpisode): SqlValue[] => [
      r.kind, r.role, r.speaker, r.content, r.session, r.tool, bit(r.ok), r.source, r.ref, toJson(r.meta),
      bit(r.durable), r.occurredAt, r.createdAt, r.consolidatedAt ?? null, bit(r.embedPending),
    ];
    const batch = this.#search.indexing?.('episode', this.#space);
    if (batch?.rowsWith) return this.#insertWithEntries(rows, { rowsWith: batch.rowsWith, finish: batch.finish }, values);
    // SQLite: multi-row INSERTs (200 rows, 3,200 parameters: inside its limit), then every kept row indexed at once.
    const ids: number[] = [];
    let skipped = 0;
    const docs: Array<{ id: number } & IndexText> = [];
    for (const part of partsOf(rows, 200)) {
      const got = await this.#db.all<{ id: unknown; ref: unknown }>(
        `INSERT INTO episodes (space, kind, role, speaker, content, session, tool, ok, source, ref, meta, durable,
           occurred_at, created_at, consolidated_at, embed_pending)
         VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
         ON CONFLICT DO NOTHING RETURNING id, ref`,
        part.flatMap((r) => [this.#space, ...values(r)]),
      );
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
    if (docs.length > 0) await this.#search.index('episode', docs, this.#space);
    return { ids, skipped };
  }

  /**
   * PostgreSQL: parts of up to PG_PART rows, each one statement writing the rows and their index entries
   * (`IndexBatch.rowsWith`), in a pipeline: while the server writes one part, the app builds the next (the caller's
   * generator: redaction, index text; then its records and tsvectors). On a pipelined connection (node-postgres with
   * `postgres.pipeline`, the driver's `pipelined`), a built part is sent at once and the last one's ids are read after,
   * so the server starts each part the moment the one before ends (it waited ~1 ms a part for the app to read the
   * ids); else each is sent once the last has answered. At most two are in flight, and a failure waits for them, so
   * that nothing is left running on the connection (issue 20; docs/BENCHMARKS.md).
   */
  async #insertWithEntries(
    rows: Iterable<NewEpisode>,
    batch: Required<Pick<IndexBatch, 'rowsWith' | 'finish'>>,
    values: (r: NewEpisode) => SqlValue[],
  ): Promise<{ ids: number[]; skipped: number }> {
    const ids: number[] = [];
    let skipped = 0;
    type Sent = { written: ReturnType<ReturnType<typeof batch.rowsWith>>; size: number };
    const ahead = pipelines(this.#db);
    const inFlight: Sent[] = [];
    const settle = async (part: Sent): Promise<void> => {
      const byPlace = new Array<number | undefined>(part.size);
      for (const w of await part.written) byPlace[w.at] = w.id;
      for (const id of byPlace) {
        if (id === undefined) skipped++;
        else ids.push(id);
      }
    };
    try {
      for (const part of partsOf(rows, PG_PART)) {
        const send = batch.rowsWith(
          { space: this.#space, columns: PG_EPISODE_COLUMNS, records: jsonRecords(EPISODE_KEYS, part.map(values)), conflict: PG_EPISODE_CONFLICT },
          part.map((r) => r.index),
        );
        if (!ahead && inFlight.length > 0) await settle(inFlight.shift()!);
        const written = send();
        // Its failure is thrown where it is settled, in order (or waited for below): not unhandled meanwhile.
        written.catch(() => {});
        inFlight.push({ written, size: part.length });
        if (inFlight.length > 1) await settle(inFlight.shift()!);
      }
      while (inFlight.length > 0) await settle(inFlight.shift()!);
    } catch (e) {
      for (const part of inFlight) await part.written.catch(() => {});
      throw e;
    }
    await batch.finish();
    return { ids, skipped };
  }

  async get(id: number): Promise<Episode | undefined> {
    const r = await this.#db.get(`SELECT ${COLS} FROM episodes WHERE space = ? AND id = ?`, [this.#space, id]);
    return r ? toEpisode(r) : undefined;
  }

  async getForRecall(ids: readonly number[]): Promise<RecallEpisode[]> {
    const cols = 'id, kind, role, speaker, content, session, occurred_at, archived_at';
    return (await rowsInSpace(this.#db, 'episodes', cols, this.#space, ids)).map(toRecallEpisode);
  }

  async getMany(ids: readonly number[]): Promise<Episode[]> {
    return (await rowsInSpace(this.#db, 'episodes', COLS, this.#space, ids)).map(toEpisode);
  }

  async timeline(q: TimelineQuery): Promise<{ items: Episode[]; total: number }> {
    const where: string[] = ['space = ?'];
    const params: SqlValue[] = [this.#space];
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
      const within = idsIn(this.#db.dialect, 'id', part);
      const sql = `FROM episodes WHERE (space || '') = ? AND ${within.sql}`;
      const params = [this.#space, ...within.params];
      // PostgreSQL: the rows as one JSON text. A recall reads ~500 of them, and node-postgres spent twice the client's
      // CPU on parsing that many protocol rows (~1 ms) than on one text holding them (issue 20).
      const rows: Array<Record<string, unknown>> =
        this.#db.dialect === 'postgres'
          ? (JSON.parse(
              (await this.#db.get<{ r: string | null }>(`SELECT json_agg(json_build_array(id, session, occurred_at, speaker))::text AS r ${sql}`, params, within.o))
                ?.r ?? '[]',
            ) as unknown[][]).map(([id, session, occurredAt, speaker]) => ({ id, session, occurred_at: occurredAt, speaker }))
          : await this.#db.all<Record<string, unknown>>(`SELECT id, session, occurred_at, speaker ${sql}`, params, within.o);
      for (const r of rows) {
        out.push({ id: num(r.id), session: (r.session as string | null) ?? null, occurredAt: timeOf(r.occurred_at), speaker: (r.speaker as string | null) ?? null });
      }
    }
    return out;
  }

  async lastInSessions(sessions: readonly string[], n: number): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    const rows = await this.#eachSession<{ session: string; content: string }>(sessions, 'session, content', 'DESC', n);
    // Oldest first within each session (the statement gives each session's newest first).
    rows.sort((x, y) => num(x.occurred_at) - num(y.occurred_at) || num(x.id) - num(y.id));
    for (const r of rows) {
      const list = out.get(r.session);
      if (list) list.push(r.content);
      else out.set(r.session, [r.content]);
    }
    return out;
  }

  async openingTurns(sessions: readonly string[], n: number): Promise<number[]> {
    return (await this.#eachSession<{ session: string }>(sessions, 'session', 'ASC', n)).map((r) => num(r.id));
  }

  /**
   * The first `n` turns of each session by time (`ASC`) or the last `n` (`DESC`), with `columns`, `occurred_at` and
   * `id`: one statement per 100 sessions instead of a round trip per session (a 1,000-turn batch spans ~50 sessions,
   * issue 20; a "when" question's hits up to dozens, 40 round trips in one MADial recall). Each session walks its own
   * index range, LIMITed. PostgreSQL: one prepared text, the sessions a JSON parameter joined LATERALly (a UNION of 50
   * branches was planned anew each batch: ~3.5 of a 1,000-turn batch's 55 ms); SQLite, without LATERAL: a UNION
   * branch per session (planning there is cheap and local).
   */
  async #eachSession<T>(sessions: readonly string[], columns: string, order: 'ASC' | 'DESC', n: number): Promise<Array<T & { occurred_at: unknown; id: unknown }>> {
    const out: Array<T & { occurred_at: unknown; id: unknown }> = [];
    const walk = (session: string) => `SELECT ${columns}, occurred_at, id FROM episodes WHERE space = ? AND session = ${session}
      ORDER BY occurred_at ${order}, id ${order} LIMIT ?`;
    for (const part of chunks([...new Set(sessions)], 100)) {
      out.push(
        ...(this.#db.dialect === 'postgres'
          ? await this.#db.all<T & { occurred_at: unknown; id: unknown }>(
              `SELECT e.* FROM json_array_elements_text(?::json) AS s(session) CROSS JOIN LATERAL (${walk('s.session')}) e`,
              [JSON.stringify(storableParams(part)), this.#space, n],
              PREPARED,
            )
          : await this.#db.all<T & { occurred_at: unknown; id: unknown }>(
              part.map(() => `SELECT * FROM (${walk('?')})`).join(' UNION ALL '),
              part.flatMap((session) => [this.#space, session, n]),
            )),
      );
    }
    return out;
  }

  async speakers(): Promise<string[]> {
    const rows = await this.#db.all<{ speaker: string }>(
      'SELECT DISTINCT speaker FROM episodes WHERE space = ? AND speaker IS NOT NULL',
      [this.#space],
    );
    return rows.map((r) => r.speaker);
  }

  async neighbours(id: number, n: number): Promise<Episode[]> {
    const self = await this.get(id);
    if (!self) return [];
    if (self.session === null || n === 0) return [self];
    const before = await this.#db.all(
      `SELECT ${COLS} FROM episodes WHERE space = ? AND session = ? AND (occurred_at < ? OR (occurred_at = ? AND id < ?))
       ORDER BY occurred_at DESC, id DESC LIMIT ?`,
      [this.#space, self.session, self.occurredAt, self.occurredAt, id, n],
    );
    const after = await this.#db.all(
      `SELECT ${COLS} FROM episodes WHERE space = ? AND session = ? AND (occurred_at > ? OR (occurred_at = ? AND id > ?))
       ORDER BY occurred_at ASC, id ASC LIMIT ?`,
      [this.#space, self.session, self.occurredAt, self.occurredAt, id, n],
    );
    return [...before.reverse().map(toEpisode), self, ...after.map(toEpisode)];
  }

  async delete(ids: readonly number[]): Promise<number> {
    let n = 0;
    for (const part of chunks(ids)) {
      const own = (await rowsInSpace<{ id: unknown }>(this.#db, 'episodes', 'id', this.#space, part)).map((r) => num(r.id));
      if (own.length === 0) continue;
      await this.#search.unindex('episode', own, this.#space);
      await this.#db.run(`DELETE FROM embeddings WHERE layer = 'episode' AND item_id IN (${marks(own.length)})`, own);
      n += (await this.#db.run(`DELETE FROM episodes WHERE id IN (${marks(own.length)})`, own)).changes;
    }
    return n;
  }

  async count(): Promise<number> {
    const r = await this.#db.get<{ n: unknown }>('SELECT COUNT(*) AS n FROM episodes WHERE space = ?', [this.#space]);
    return num(r?.n ?? 0);
  }

  async idsWithContent(contents: readonly string[], source?: string): Promise<number[]> {
    const out: number[] = [];
    for (const part of chunks(contents)) {
      const rows = await this.#db.all<{ id: unknown }>(
        `SELECT id FROM episodes WHERE space = ?${source === undefined ? '' : ' AND source = ?'} AND content IN (${marks(part.length)}) ORDER BY id`,
        [this.#space, ...(source === undefined ? [] : [source]), ...part],
      );
      out.push(...rows.map((r) => num(r.id)));
    }
    return out;
  }

  async storedAfter(since: number | null): Promise<ScriptEpisodeRow[]> {
    const rows = await this.#db.all(
      `SELECT ${SCRIPT_EPISODE_COLS} FROM episodes WHERE space = ? AND consolidated_at IS NULL AND archived_at IS NULL
       ${since === null ? '' : 'AND created_at > ?'} ORDER BY occurred_at, id`,
      since === null ? [this.#space] : [this.#space, since],
    );
    return rows.map(toEpisodeRow);
  }

  async inRanges(
    ranges: ReadonlyArray<readonly [number, number]>,
  ): Promise<ScriptEpisodeRow[]> {
    const out: ScriptEpisodeRow[] = [];
    for (const [from, to] of mergeRanges(ranges)) {
      const rows = await this.#db.all(
        `SELECT ${SCRIPT_EPISODE_COLS} FROM episodes WHERE space = ? AND occurred_at >= ? AND occurred_at <= ? ORDER BY occurred_at, id`,
        [this.#space, from, to],
      );
      out.push(...rows.map(toEpisodeRow));
    }
    return out;
  }

  async idsContaining(needle: string, limit: number): Promise<number[]> {
    return idsLike(this.#db, 'episodes', ['content'], this.#space, needle, limit);
  }

  async idsByRef(refs: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const part of chunks(refs)) {
      const rows = await this.#db.all<{ id: unknown; ref: string }>(
        `SELECT id, ref FROM episodes WHERE space = ? AND ref IN (${marks(part.length)})`,
        [this.#space, ...part],
      );
      for (const r of rows) out.set(String(r.ref), num(r.id));
    }
    return out;
  }

  async pending(q: { createdBefore: number; limit: number }): Promise<Episode[]> {
    const rows = await this.#db.all(
      `SELECT ${COLS} FROM episodes WHERE space = ? AND consolidated_at IS NULL AND archived_at IS NULL AND ${WAITING_SINCE} <= ?
       ORDER BY ${WAITING_SINCE}, id LIMIT ?`,
      [this.#space, q.createdBefore, q.limit],
    );
    return rows.map(toEpisode);
  }

  async pendingTimes(limit: number): Promise<number[]> {
    const rows = await this.#db.all<{ since: unknown }>(
      `SELECT ${WAITING_SINCE} AS since FROM episodes WHERE space = ? AND consolidated_at IS NULL AND archived_at IS NULL
       ORDER BY ${WAITING_SINCE}, id LIMIT ?`,
      [this.#space, limit],
    );
    return rows.map((r) => num(r.since));
  }

  async markConsolidated(ids: readonly number[], at: number): Promise<number> {
    let n = 0;
    for (const part of chunks(ids)) {
      const r = await this.#db.run(
        `UPDATE episodes SET consolidated_at = ? WHERE space = ? AND consolidated_at IS NULL AND id IN (${marks(part.length)})`,
        [at, this.#space, ...part],
      );
      n += r.changes;
    }
    return n;
  }

  async markArchived(ids: readonly number[], at: number): Promise<number> {
    let n = 0;
    for (const part of chunks(ids)) {
      const r = await this.#db.run(
        `UPDATE episodes SET archived_at = ? WHERE space = ? AND archived_at IS NULL AND id IN (${marks(part.length)})`,
        [at, this.#space, ...part],
      );
      n += r.changes;
    }
    return n;
  }

  async retentionCandidates(
    q: { consolidatedBefore: number; createdBefore: number; limit: number },
  ): Promise<Array<{ id: number; createdAt: number; consolidatedAt: number | null; durable: boolean }>> {
    const rows = await this.#db.all<Record<string, unknown>>(
      `SELECT id, created_at, consolidated_at, durable FROM episodes
       WHERE space = ? AND archived_at IS NULL AND (consolidated_at <= ? OR (durable = 0 AND created_at <= ?))
       ORDER BY id LIMIT ?`,
      [this.#space, q.consolidatedBefore, q.createdBefore, q.limit],
    );
    return rows.map((r) => ({
      id: num(r.id),
      createdAt: num(r.created_at),
      consolidatedAt: numOrNull(r.consolidated_at),
      durable: bool(r.durable) ?? false,
    }));
  }

  async toolResults(
    since: number,
  ): Promise<Array<{ id: number; session: string; tool: string; ok: boolean; at: number; kind: 'tool_call' | 'tool_result'; input: string | null }>> {
    const rows = await this.#db.all<Record<string, unknown>>(
      `SELECT id, session, tool, ok, occurred_at, kind, CASE WHEN kind = 'tool_call' THEN substr(content, 1, 1000) END AS input
       FROM episodes
       WHERE space = ? AND kind IN ('tool_call', 'tool_result') AND session IS NOT NULL AND tool IS NOT NULL AND ok IS NOT NULL AND occurred_at >= ?
       ORDER BY occurred_at, id`,
      [this.#space, since],
    );
    return rows.map((r) => ({
      id: num(r.id),
      session: String(r.session),
      tool: String(r.tool),
      ok: bool(r.ok) ?? false,
      at: num(r.occurred_at),
      kind: r.kind === 'tool_call' ? 'tool_call' : 'tool_result',
      input: typeof r.input === 'string' ? r.input : null,
    }));
  }

  async rewrite(id: number, content: string, index: IndexText): Promise<void> {
    const r = await this.#db.run(
      'UPDATE episodes SET content = ?, embed_pending = 1 WHERE space = ? AND id = ?',
      [content, this.#space, id],
    );
    if (r.changes === 0) return;
    await this.#db.run(`DELETE FROM embeddings WHERE space = ? AND layer = 'episode' AND item_id = ?`, [
      this.#space,
      id,
    ]);
    await this.#search.unindex('episode', [id], this.#space);
    await this.#search.index('episode', [{ id, ...index }], this.#space);
  }

  async reindex(id: number, index: IndexText): Promise<void> {
    if (!(await this.#db.get('SELECT id FROM episodes WHERE space = ? AND id = ?', [this.#space, id]))) return;
    await this.#search.unindex('episode', [id], this.#space);
    await this.#search.index('episode', [{ id, ...index }], this.#space);
  }
}

/** Sorted, overlapping or touching ranges joined, so each stretch of time is read once. */
export function mergeRanges(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const sorted = [...ranges].filter(([a, b]) => a <= b).sort((x, y) => x[0] - y[0]);
  const out: Array<[number, number]> = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}
