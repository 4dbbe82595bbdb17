/** The nightly sleep's own tables (runs, work units, lock, state) and episode lifecycle marks, over portable SQL. */
import type { Episode, Layer } from '../../core/types.js';
import type {
  BriefingRow,
  IndexText,
  NarrativeText,
  SearchIndex,
  SleepRunRow,
  SleepStore,
  SleepWorkRow,
} from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { toEpisode } from './episode-sql.js';
import { bool, chunks, json, marks, num, numOrNull, toJson } from './sql-util.js';

const EPISODE_COLS =
  'id, space, kind, role, speaker, content, session, tool, ok, source, ref, meta, durable, occurred_at, created_at, consolidated_at, archived_at';
const TABLE: Record<Layer, string> = { episode: 'episodes', narrative: 'narratives', knowledge: 'knowledge' };
const RUN_COLS = 'id, night, status, model, started_at, finished_at, tokens_in, tokens_out, log';

function toRun(r: Record<string, unknown>): SleepRunRow {
  return {
    id: num(r.id),
    night: String(r.night),
    status: r.status === 'done' ? 'done' : 'running',
    model: String(r.model),
    startedAt: num(r.started_at),
    finishedAt: numOrNull(r.finished_at),
    tokensIn: num(r.tokens_in),
    tokensOut: num(r.tokens_out),
    log: json(r.log, {}, { table: 'sleep_runs', column: 'log', row: r }),
  };
}

/**
 * Since when an episode waits for the night: the turn's own time when it happened before it was stored (imported
 * history: a week-old transcript waits since a week), else its insertion (a turn stamped in the future waits from
 * when it arrived). Portable SQL (no LEAST/MIN over two columns).
 */
const WAITING_SINCE = 'CASE WHEN occurred_at < created_at THEN occurred_at ELSE created_at END';

/** The lock row's name: JSON, so no space name can be crafted to collide with a job lease (job-sql uses `["job",…]`). */
export function sleepLockName(space: string): string {
  return JSON.stringify(['sleep', space]);
}

/** Sleep store written once for every engine. */
export class SleepSql implements SleepStore {
  readonly #db: SqlDriver;
  readonly #search: SearchIndex;
  constructor(db: SqlDriver, search: SearchIndex) {
    this.#db = db;
    this.#search = search;
  }

  async openRun(space: string): Promise<SleepRunRow | undefined> {
    const r = await this.#db.get(
      `SELECT ${RUN_COLS} FROM sleep_runs WHERE space = ? AND status = 'running' ORDER BY id DESC LIMIT 1`,
      [space],
    );
    return r ? toRun(r) : undefined;
  }

  async createRun(
    space: string,
    r: { night: string; model: string; startedAt: number; log: Record<string, unknown> },
  ): Promise<number> {
    const got = await this.#db.get<{ id: unknown }>(
      `INSERT INTO sleep_runs (space, night, status, model, started_at, log) VALUES (?, ?, 'running', ?, ?, ?) RETURNING id`,
      [space, r.night, r.model, r.startedAt, toJson(r.log)],
    );
    return num(got!.id);
  }

  async finishRun(
    space: string,
    id: number,
    r: { finishedAt: number; tokensIn: number; tokensOut: number; log: Record<string, unknown> },
  ): Promise<void> {
    await this.#db.run(
      `UPDATE sleep_runs SET status = 'done', finished_at = ?, tokens_in = ?, tokens_out = ?, log = ? WHERE space = ? AND id = ?`,
      [r.finishedAt, r.tokensIn, r.tokensOut, toJson(r.log), space, id],
    );
  }

  async runs(
    space: string,
    q: { night?: string; status?: SleepRunRow['status']; limit: number },
  ): Promise<SleepRunRow[]> {
    const where = ['space = ?'];
    const params: Array<string | number> = [space];
    if (q.night !== undefined) {
      where.push('night = ?');
      params.push(q.night);
    }
    if (q.status !== undefined) {
      where.push('status = ?');
      params.push(q.status);
    }
    const rows = await this.#db.all(
      `SELECT ${RUN_COLS} FROM sleep_runs WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`,
      [...params, q.limit],
    );
    return rows.map(toRun);
  }

  async planWork(
    space: string,
    runId: number,
    units: ReadonlyArray<{ step: string; unit: string; payload: unknown }>,
    at: number,
  ): Promise<void> {
    for (const u of units) {
      await this.#db.run(
        `INSERT INTO sleep_work (space, run_id, step, unit, status, payload, updated_at) VALUES (?, ?, ?, ?, 'planned', ?, ?)
         ON CONFLICT DO NOTHING`,
        [space, runId, u.step, u.unit, toJson(u.payload ?? {}), at],
      );
    }
  }

  async work(space: string, runId: number): Promise<SleepWorkRow[]> {
    const rows = await this.#db.all<Record<string, unknown>>(
      'SELECT step, unit, status, payload, result, updated_at FROM sleep_work WHERE space = ? AND run_id = ? ORDER BY step, unit',
      [space, runId],
    );
    return rows.map((r) => ({
      step: String(r.step),
      unit: String(r.unit),
      status: r.status === 'done' ? 'done' : r.status === 'asked' ? 'asked' : 'planned',
      payload: json<unknown>(r.payload, {}, { table: 'sleep_work', column: 'payload', row: r, space }),
      result: json<unknown>(r.result, null, { table: 'sleep_work', column: 'result', row: r, space }),
      updatedAt: num(r.updated_at),
    }));
  }

  async setWork(
    space: string,
    runId: number,
    w: { step: string; unit: string; status: SleepWorkRow['status']; result: unknown; at: number },
  ): Promise<void> {
    await this.#db.run(
      `INSERT INTO sleep_work (space, run_id, step, unit, status, result, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id, step, unit) DO UPDATE SET status = excluded.status, result = excluded.result, updated_at = excluded.updated_at`,
      [space, runId, w.step, w.unit, w.status, toJson(w.result), w.at],
    );
  }

  async putBriefing(space: string, b: BriefingRow): Promise<void> {
    await this.#db.run(
      `INSERT INTO briefings (space, day, headline, body, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (space, day) DO UPDATE SET headline = excluded.headline, body = excluded.body, created_at = excluded.created_at`,
      [space, b.day, b.headline, b.body, b.createdAt],
    );
  }

  acquireLock(space: string, owner: string, at: number, ttlMs: number): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      // Only our own lock or an expired one (a process killed mid-night) is overwritten.
      const took = await tx.run(
        `INSERT INTO locks (name, owner, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE locks.owner = excluded.owner OR locks.expires_at <= ?`,
        [sleepLockName(space), owner, at + ttlMs, at],
      );
      return took.changes > 0;
    });
  }

  async renewLock(space: string, owner: string, at: number, ttlMs: number): Promise<boolean> {
    const r = await this.#db.run('UPDATE locks SET expires_at = ? WHERE name = ? AND owner = ?', [
      at + ttlMs,
      sleepLockName(space),
      owner,
    ]);
    return r.changes > 0;
  }

  async releaseLock(space: string, owner: string): Promise<void> {
    await this.#db.run('DELETE FROM locks WHERE name = ? AND owner = ?', [sleepLockName(space), owner]);
  }

  async lockOwner(space: string): Promise<string | undefined> {
    const row = await this.#db.get<{ owner: string }>('SELECT owner FROM locks WHERE name = ?', [sleepLockName(space)]);
    return row?.owner;
  }

  async pendingEpisodes(space: string, q: { createdBefore: number; limit: number }): Promise<Episode[]> {
    const rows = await this.#db.all(
      `SELECT ${EPISODE_COLS} FROM episodes WHERE space = ? AND consolidated_at IS NULL AND archived_at IS NULL AND ${WAITING_SINCE} <= ?
       ORDER BY ${WAITING_SINCE}, id LIMIT ?`,
      [space, q.createdBefore, q.limit],
    );
    return rows.map(toEpisode);
  }

  async pendingTimes(space: string, limit: number): Promise<number[]> {
    const rows = await this.#db.all<{ since: unknown }>(
      `SELECT ${WAITING_SINCE} AS since FROM episodes WHERE space = ? AND consolidated_at IS NULL AND archived_at IS NULL
       ORDER BY ${WAITING_SINCE}, id LIMIT ?`,
      [space, limit],
    );
    return rows.map((r) => num(r.since));
  }

  async markConsolidated(space: string, ids: readonly number[], at: number): Promise<number> {
    let n = 0;
    for (const part of chunks(ids)) {
      const r = await this.#db.run(
        `UPDATE episodes SET consolidated_at = ? WHERE space = ? AND consolidated_at IS NULL AND id IN (${marks(part.length)})`,
        [at, space, ...part],
      );
      n += r.changes;
    }
    return n;
  }

  async markArchived(space: string, ids: readonly number[], at: number): Promise<number> {
    let n = 0;
    for (const part of chunks(ids)) {
      const r = await this.#db.run(
        `UPDATE episodes SET archived_at = ? WHERE space = ? AND archived_at IS NULL AND id IN (${marks(part.length)})`,
        [at, space, ...part],
      );
      n += r.changes;
    }
    return n;
  }

  async retentionCandidates(
    space: string,
    q: { consolidatedBefore: number; createdBefore: number; limit: number },
  ): Promise<Array<{ id: number; createdAt: number; consolidatedAt: number | null; durable: boolean }>> {
    const rows = await this.#db.all<Record<string, unknown>>(
      `SELECT id, created_at, consolidated_at, durable FROM episodes
       WHERE space = ? AND archived_at IS NULL AND (consolidated_at <= ? OR (durable = 0 AND created_at <= ?))
       ORDER BY id LIMIT ?`,
      [space, q.consolidatedBefore, q.createdBefore, q.limit],
    );
    return rows.map((r) => ({
      id: num(r.id),
      createdAt: num(r.created_at),
      consolidatedAt: numOrNull(r.consolidated_at),
      durable: bool(r.durable) ?? false,
    }));
  }

  async toolResults(
    space: string,
    since: number,
  ): Promise<Array<{ id: number; session: string; tool: string; ok: boolean; at: number; kind: 'tool_call' | 'tool_result'; input: string | null }>> {
    const rows = await this.#db.all<Record<string, unknown>>(
      `SELECT id, session, tool, ok, occurred_at, kind, CASE WHEN kind = 'tool_call' THEN substr(content, 1, 1000) END AS input
       FROM episodes
       WHERE space = ? AND kind IN ('tool_call', 'tool_result') AND session IS NOT NULL AND tool IS NOT NULL AND ok IS NOT NULL AND occurred_at >= ?
       ORDER BY occurred_at, id`,
      [space, since],
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

  async rewriteEpisode(space: string, id: number, content: string, index: IndexText): Promise<void> {
    const r = await this.#db.run(
      'UPDATE episodes SET content = ?, embed_pending = 1 WHERE space = ? AND id = ?',
      [content, space, id],
    );
    if (r.changes === 0) return;
    await this.#db.run(`DELETE FROM embeddings WHERE space = ? AND layer = 'episode' AND item_id = ?`, [
      space,
      id,
    ]);
    await this.#search.unindex('episode', [id]);
    await this.#search.index('episode', [{ id, ...index }]);
  }

  async reindexEpisode(space: string, id: number, index: IndexText): Promise<void> {
    if (!(await this.#db.get('SELECT id FROM episodes WHERE space = ? AND id = ?', [space, id]))) return;
    await this.#search.unindex('episode', [id]);
    await this.#search.index('episode', [{ id, ...index }]);
  }

  async rewriteNarrative(
    space: string,
    id: number,
    t: NarrativeText,
    tags: readonly string[],
    index: IndexText,
  ): Promise<void> {
    const r = await this.#db.run(
      `UPDATE narratives SET content = ?, gesture = ?, context = ?, moment = ?, cognition_direction = ?, tags = ?, embed_pending = 1
       WHERE space = ? AND id = ?`,
      [t.content, t.gesture, t.context, t.moment, t.cognitionDirection, toJson(tags), space, id],
    );
    if (r.changes === 0) return;
    await this.#db.run('DELETE FROM narrative_tags WHERE space = ? AND narrative_id = ?', [space, id]);
    for (const tag of new Set(tags)) {
      await this.#db.run(
        'INSERT INTO narrative_tags (space, narrative_id, tag) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
        [space, id, tag],
      );
    }
    await this.#db.run(`DELETE FROM embeddings WHERE space = ? AND layer = 'narrative' AND item_id = ?`, [
      space,
      id,
    ]);
    await this.#search.unindex('narrative', [id]);
    await this.#search.index('narrative', [{ id, ...index }]);
  }

  async setNarrativeScores(
    space: string,
    rows: ReadonlyArray<{
      id: number;
      importance: number;
      emotional: number;
      recurrence: number;
      unresolved: number;
      weight: number;
    }>,
    at: number,
  ): Promise<void> {
    for (const r of rows) {
      await this.#db.run(
        'UPDATE narratives SET importance = ?, emotional = ?, recurrence = ?, unresolved = ?, weight = ?, updated_at = ? WHERE space = ? AND id = ?',
        [r.importance, r.emotional, r.recurrence, r.unresolved, r.weight, at, space, r.id],
      );
    }
  }

  async idsContaining(space: string, layer: Layer, needle: string, limit: number): Promise<number[]> {
    // LIKE is portable; SQLite matches ASCII letters of either case, PostgreSQL only the case given, so callers
    // confirm each row with an exact match of their own.
    const like = `%${needle.replace(/[!%_]/g, (c) => `!${c}`)}%`;
    const where =
      layer === 'narrative'
        ? `(content LIKE ? ESCAPE '!' OR tags LIKE ? ESCAPE '!')`
        : `content LIKE ? ESCAPE '!'`;
    const params = layer === 'narrative' ? [like, like] : [like];
    const rows = await this.#db.all<{ id: unknown }>(
      `SELECT id FROM ${TABLE[layer]} WHERE space = ? AND ${where} ORDER BY id LIMIT ?`,
      [space, ...params, limit],
    );
    return rows.map((r) => num(r.id));
  }

  async setKnowledgeKey(space: string, id: number, key: string | null, at: number): Promise<void> {
    await this.#db.run('UPDATE knowledge SET key = ?, updated_at = ? WHERE space = ? AND id = ?', [
      key,
      at,
      space,
      id,
    ]);
  }

  async memorySize(space: string): Promise<number> {
    const r = await this.#db.get<{ n: unknown }>(
      `SELECT (SELECT COUNT(*) FROM episodes WHERE space = ? AND archived_at IS NULL)
            + (SELECT COUNT(*) FROM narratives WHERE space = ?)
            + (SELECT COUNT(*) FROM knowledge WHERE space = ? AND status IN ('provisional', 'reliable', 'quarantined')) AS n`,
      [space, space, space],
    );
    return num(r?.n ?? 0);
  }

  async getState(space: string, key: string): Promise<unknown> {
    const r = await this.#db.get<{ value: string }>(
      'SELECT value FROM job_state WHERE space = ? AND job = ?',
      [space, key],
    );
    return r === undefined ? undefined : json<unknown>(r.value, undefined);
  }

  async putState(space: string, key: string, value: unknown, at: number): Promise<void> {
    await this.#db.run(
      `INSERT INTO job_state (space, job, value, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (space, job) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [space, key, toJson(value), at],
    );
  }
}
