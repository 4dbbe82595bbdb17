/**
 * The script layer's bulk reads and derived-table rebuilds over portable SQL (DESIGN §1.5, SEEDS §1.7). One area
 * for every table the script jobs rebuild, so each rebuild's deletes and inserts sit together; it runs past 400
 * lines because each job reads its own narrow column set (whole-row reads cost seconds at 100,000 narratives).
 */
import type { Layer } from '../../core/types.js';
import { weightBandSql, type WeightBand } from '../../core/weight-scale.js';
import type {
  AttentionStatWrite,
  EntityGraphWrite,
  NarrativeLinkRow,
  NarrativeScoreRow,
  NarrativeTextRow,
  ScriptEpisodeRow,
  ScriptStore,
  SoftClusterModelRow,
  SoftClusterWrite,
  TopicClusterWrite,
} from '../port.js';
import type { SqlDriver, SqlValue } from '../sql-driver.js';
import { bool, chunks, json, marks, num, toJson } from './sql-util.js';
import { bytesToVector, vectorToBytes } from './vector-sql.js';

const TABLE: Record<Layer, string> = { episode: 'episodes', narrative: 'narratives', knowledge: 'knowledge' };

// Parameters per multi-row INSERT: far below SQLite's 32,766 and PostgreSQL's 65,535, large enough that a
// 300,000-row membership table goes in a few hundred statements.
const PARAMS_PER_STATEMENT = 4000;

/** Inserts `rows` into `table` with multi-row VALUES lists (one statement per batch). */
async function insertRows(
  db: SqlDriver,
  table: string,
  cols: readonly string[],
  rows: readonly SqlValue[][],
): Promise<void> {
  const per = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / cols.length));
  const tuple = `(${marks(cols.length)})`;
  for (const part of chunks(rows, per)) {
    await db.run(
      `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${new Array(part.length).fill(tuple).join(', ')}`,
      part.flat(),
    );
  }
}

function toEpisodeRow(r: Record<string, unknown>): ScriptEpisodeRow {
  return {
    id: num(r.id),
    content: String(r.content),
    role: (r.role as string | null) ?? null,
    session: (r.session as string | null) ?? null,
    occurredAt: num(r.occurred_at),
  };
}

const EPISODE_COLS = 'id, content, role, session, occurred_at';

/** Script-layer store written once for every engine. */
export class ScriptSql implements ScriptStore {
  readonly #db: SqlDriver;
  constructor(db: SqlDriver) {
    this.#db = db;
  }

  // Each read names only the columns its job needs: at 100,000 narratives a whole-row read costs seconds.
  async narrativeTexts(space: string, q: { unlinked?: boolean } = {}): Promise<NarrativeTextRow[]> {
    const rows = await this.#db.all(
      `SELECT id, content, gesture, context, cognition_direction, weight, created_at FROM narratives WHERE space = ?
       ${q.unlinked ? `AND source_links = '[]'` : ''} ORDER BY id`,
      [space],
    );
    return rows.map((r) => ({
      id: num(r.id),
      content: String(r.content),
      gesture: (r.gesture as string | null) ?? null,
      context: (r.context as string | null) ?? null,
      cognitionDirection: (r.cognition_direction as string | null) ?? null,
      weight: num(r.weight),
      createdAt: num(r.created_at),
    }));
  }

  async narrativeRoles(
    space: string,
  ): Promise<Array<{ id: number; entitiesRole: string; createdAt: number }>> {
    const rows = await this.#db.all(
      `SELECT id, entities_role, created_at FROM narratives WHERE space = ? AND entities_role IS NOT NULL AND entities_role <> ''
       ORDER BY id`,
      [space],
    );
    return rows.map((r) => ({
      id: num(r.id),
      entitiesRole: String(r.entities_role),
      createdAt: num(r.created_at),
    }));
  }

  async narrativeScores(
    space: string,
    q: { tagged?: boolean; newest?: number } = {},
  ): Promise<NarrativeScoreRow[]> {
    const cols = 'id, tags, importance, emotional, recurrence, unresolved, weight, created_at';
    const tagged = q.tagged ? ` AND tags <> '[]'` : '';
    const rows =
      q.newest === undefined
        ? await this.#db.all(`SELECT ${cols} FROM narratives WHERE space = ?${tagged} ORDER BY id`, [space])
        : await this.#db.all(
            `SELECT ${cols} FROM narratives WHERE space = ?${tagged} ORDER BY created_at DESC, id DESC LIMIT ?`,
            [space, q.newest],
          );
    return rows
      .map((r) => ({
        id: num(r.id),
        tags: json<string[]>(r.tags, []),
        importance: num(r.importance),
        emotional: num(r.emotional),
        recurrence: num(r.recurrence),
        unresolved: num(r.unresolved),
        weight: num(r.weight),
        createdAt: num(r.created_at),
      }))
      .sort((a, b) => a.id - b.id);
  }

  async narrativeLinks(space: string): Promise<NarrativeLinkRow[]> {
    const rows = await this.#db.all(
      'SELECT id, source_links, created_at, embed_pending FROM narratives WHERE space = ? ORDER BY id',
      [space],
    );
    return rows.map((r) => ({
      id: num(r.id),
      sourceLinks:
        r.source_links === '[]'
          ? []
          : json<unknown[]>(r.source_links, []).map(Number).filter(Number.isFinite),
      createdAt: num(r.created_at),
      embedPending: bool(r.embed_pending) ?? false,
    }));
  }

  async weightBands(space: string): Promise<Record<WeightBand, number>> {
    const rows = await this.#db.all<{ band: WeightBand; n: unknown }>(
      `SELECT ${weightBandSql('weight')} AS band, COUNT(*) AS n FROM narratives WHERE space = ? GROUP BY 1`,
      [space],
    );
    const out: Record<WeightBand, number> = { high: 0, mid: 0, low: 0 };
    for (const r of rows) out[r.band] = num(r.n);
    return out;
  }

  async narrativeVectorModels(space: string): Promise<Array<{ model: string; dim: number; count: number }>> {
    const rows = await this.#db.all<{ model: string; dim: unknown; n: unknown }>(
      `SELECT model, dim, COUNT(*) AS n FROM embeddings WHERE space = ? AND layer = 'narrative'
       GROUP BY model, dim ORDER BY n DESC, model ASC, dim ASC`,
      [space],
    );
    return rows.map((r) => ({ model: String(r.model), dim: num(r.dim), count: num(r.n) }));
  }

  async narrativeVectors(
    space: string,
    model: string,
    dim: number,
  ): Promise<Array<{ id: number; vector: Float32Array }>> {
    // Only vectors of narratives that still exist: a deleted narrative's vector is no member of any cluster.
    const rows = await this.#db.all<{ item_id: unknown; vector: Uint8Array }>(
      `SELECT e.item_id, e.vector FROM embeddings e JOIN narratives n ON n.id = e.item_id AND n.space = e.space
       WHERE e.space = ? AND e.layer = 'narrative' AND e.model = ? AND e.dim = ? ORDER BY e.item_id`,
      [space, model, dim],
    );
    return rows.map((r) => ({ id: num(r.item_id), vector: bytesToVector(r.vector) }));
  }

  async replaceTopicClusters(space: string, rows: readonly TopicClusterWrite[]): Promise<void> {
    await this.#db.run('DELETE FROM topic_clusters WHERE space = ?', [space]);
    await insertRows(
      this.#db,
      'topic_clusters',
      ['space', 'name', 'keywords', 'size', 'narrative_ids', 'last_active', 'avg_weight'],
      rows.map((c) => [
        space,
        c.name,
        toJson(c.keywords),
        c.size,
        toJson(c.narrativeIds),
        c.lastActive,
        c.avgWeight,
      ]),
    );
  }

  async upsertTopicClusters(space: string, rows: readonly TopicClusterWrite[]): Promise<void> {
    for (const c of rows) {
      await this.#db.run(
        `INSERT INTO topic_clusters (space, name, keywords, size, narrative_ids, last_active, avg_weight)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (space, name) DO UPDATE SET keywords = excluded.keywords,
           size = excluded.size, narrative_ids = excluded.narrative_ids, last_active = excluded.last_active,
           avg_weight = excluded.avg_weight`,
        [space, c.name, toJson(c.keywords), c.size, toJson(c.narrativeIds), c.lastActive, c.avgWeight],
      );
    }
  }

  async replaceSoftClusters(space: string, build: SoftClusterWrite, at: number): Promise<number[]> {
    await this.#db.run('DELETE FROM emb_cluster_members WHERE space = ?', [space]);
    await this.#db.run('DELETE FROM emb_cluster_adjacency WHERE space = ?', [space]);
    await this.#db.run('DELETE FROM emb_clusters WHERE space = ?', [space]);
    const ids: number[] = [];
    // One row at a time: RETURNING order of a multi-row INSERT is not promised by PostgreSQL, and k is small.
    for (const c of build.clusters) {
      const got = await this.#db.get<{ id: unknown }>(
        `INSERT INTO emb_clusters (space, name, centroid, member_count, total_hits, created_at, updated_at)
         VALUES (?, ?, ?, ?, 0, ?, ?) RETURNING id`,
        [space, c.name, vectorToBytes(Float32Array.from(c.centroid)), c.memberCount, at, at],
      );
      ids.push(num(got!.id));
    }
    const idOf = (index: number) => ids[index]!;
    await insertRows(
      this.#db,
      'emb_cluster_members',
      ['space', 'cluster_id', 'narrative_id', 'distance'],
      build.memberships.map((m) => [space, idOf(m.cluster), m.narrativeId, m.distance]),
    );
    await insertRows(
      this.#db,
      'emb_cluster_adjacency',
      ['space', 'cluster_a', 'cluster_b', 'shared_count'],
      build.adjacency.map((e) => {
        const [a, b] = [idOf(e.a), idOf(e.b)].sort((x, y) => x - y) as [number, number];
        return [space, a, b, e.shared];
      }),
    );
    return ids;
  }

  async softClusterModel(space: string): Promise<{
    clusters: SoftClusterModelRow[];
    adjacency: Array<{ a: number; b: number; shared: number }>;
  }> {
    const clusters = await this.#db.all<{ id: unknown; name: string; centroid: Uint8Array | null }>(
      'SELECT id, name, centroid FROM emb_clusters WHERE space = ? ORDER BY id',
      [space],
    );
    const adjacency = await this.#db.all<{ cluster_a: unknown; cluster_b: unknown; shared_count: unknown }>(
      'SELECT cluster_a, cluster_b, shared_count FROM emb_cluster_adjacency WHERE space = ? ORDER BY cluster_a, cluster_b',
      [space],
    );
    return {
      clusters: clusters.map((c) => ({
        id: num(c.id),
        name: String(c.name),
        centroid: c.centroid ? bytesToVector(c.centroid) : null,
      })),
      adjacency: adjacency.map((e) => ({
        a: num(e.cluster_a),
        b: num(e.cluster_b),
        shared: num(e.shared_count),
      })),
    };
  }

  async softClusterMemberships(
    space: string,
    q: { clusterIds?: readonly number[]; narrativeIds?: readonly number[] } = {},
  ): Promise<Array<{ clusterId: number; narrativeId: number; distance: number }>> {
    const sql = 'SELECT cluster_id, narrative_id, distance FROM emb_cluster_members WHERE space = ?';
    const order = ' ORDER BY cluster_id, distance, narrative_id';
    const [column, ids] = q.clusterIds
      ? ['cluster_id', q.clusterIds]
      : q.narrativeIds
        ? ['narrative_id', q.narrativeIds]
        : [undefined, undefined];
    const rows: Array<{ cluster_id: unknown; narrative_id: unknown; distance: unknown }> = [];
    if (!column || !ids) rows.push(...(await this.#db.all<(typeof rows)[number]>(`${sql}${order}`, [space])));
    else
      for (const part of chunks(ids))
        rows.push(
          ...(await this.#db.all<(typeof rows)[number]>(
            `${sql} AND ${column} IN (${marks(part.length)})${order}`,
            [space, ...part],
          )),
        );
    const out = rows.map((r) => ({
      clusterId: num(r.cluster_id),
      narrativeId: num(r.narrative_id),
      distance: num(r.distance),
    }));
    // Chunked reads come back chunk by chunk; one order for every caller.
    return column
      ? out.sort(
          (x, y) => x.clusterId - y.clusterId || x.distance - y.distance || x.narrativeId - y.narrativeId,
        )
      : out;
  }

  async topicClusterNames(space: string): Promise<string[]> {
    const rows = await this.#db.all<{ name: string }>(
      'SELECT name FROM topic_clusters WHERE space = ? ORDER BY size DESC, name ASC',
      [space],
    );
    return rows.map((r) => String(r.name));
  }

  async replaceAttentionStats(
    space: string,
    rows: readonly AttentionStatWrite[],
    clusterHits: ReadonlyArray<{ clusterId: number; hits: number }>,
  ): Promise<void> {
    await this.#db.run('DELETE FROM attention_stats WHERE space = ?', [space]);
    await insertRows(
      this.#db,
      'attention_stats',
      ['space', 'cluster', 'hit_count', 'last_hit', 'last_item_id'],
      rows.map((r) => [space, r.cluster, r.hitCount, r.lastHit, r.lastItemId]),
    );
    await this.#db.run('UPDATE emb_clusters SET total_hits = 0 WHERE space = ?', [space]);
    for (const c of clusterHits) {
      await this.#db.run('UPDATE emb_clusters SET total_hits = ? WHERE space = ? AND id = ?', [
        c.hits,
        space,
        c.clusterId,
      ]);
    }
  }

  async replaceEntityGraph(space: string, graph: EntityGraphWrite): Promise<void> {
    for (const t of ['graph_nodes', 'graph_edges', 'graph_cooccur'])
      await this.#db.run(`DELETE FROM ${t} WHERE space = ?`, [space]);
    await insertRows(
      this.#db,
      'graph_nodes',
      ['space', 'entity', 'mention_count', 'first_seen', 'last_seen'],
      graph.nodes.map((n) => [space, n.entity, n.mentionCount, n.firstSeen, n.lastSeen]),
    );
    await insertRows(
      this.#db,
      'graph_edges',
      ['space', 'entity_a', 'entity_b', 'narrative_id', 'role_a', 'role_b', 'created_at'],
      // An empty role is stored as NULL: the narrative named the entity without a role.
      graph.edges.map((e) => [
        space,
        e.entityA,
        e.entityB,
        e.narrativeId,
        e.roleA || null,
        e.roleB || null,
        e.createdAt,
      ]),
    );
    await insertRows(
      this.#db,
      'graph_cooccur',
      ['space', 'entity_a', 'entity_b', 'cooccur_count'],
      graph.cooccur.map((c) => [space, c.entityA, c.entityB, c.count]),
    );
  }

  async updateScores(
    space: string,
    rows: ReadonlyArray<{ id: number; recurrence?: number; weight?: number }>,
  ): Promise<number> {
    // Rows sharing the same new values are written by one statement: a first refresh over 100,000 narratives
    // takes a few hundred statements instead of 100,000 (scores are 1-5, so few value pairs exist).
    const groups = new Map<string, { recurrence: number | null; weight: number | null; ids: number[] }>();
    for (const r of rows) {
      const key = `${r.recurrence ?? ''}|${r.weight ?? ''}`;
      const g = groups.get(key) ?? { recurrence: r.recurrence ?? null, weight: r.weight ?? null, ids: [] };
      g.ids.push(r.id);
      groups.set(key, g);
    }
    let changed = 0;
    for (const g of groups.values()) {
      for (const part of chunks(g.ids)) {
        const res = await this.#db.run(
          // `space || ''` keeps SQLite's planner off the (space, …) indexes: without statistics it reads the
          // whole space through one of them for every statement instead of looking the ids up (6 s vs 0.5 s at 100k).
          `UPDATE narratives SET recurrence = COALESCE(?, recurrence), weight = COALESCE(?, weight)
           WHERE space || '' = ? AND id IN (${marks(part.length)})`,
          [g.recurrence, g.weight, space, ...part],
        );
        changed += res.changes;
      }
    }
    return changed;
  }

  async fillSourceLinks(
    space: string,
    rows: ReadonlyArray<{ narrativeId: number; sourceLinks: readonly number[] }>,
  ): Promise<number> {
    let changed = 0;
    for (const r of rows) {
      const res = await this.#db.run(
        `UPDATE narratives SET source_links = ? WHERE space = ? AND id = ? AND source_links = '[]'`,
        [toJson(r.sourceLinks), space, r.narrativeId],
      );
      changed += res.changes;
    }
    return changed;
  }

  async episodesStoredAfter(space: string, since: number | null): Promise<ScriptEpisodeRow[]> {
    const rows = await this.#db.all(
      `SELECT ${EPISODE_COLS} FROM episodes WHERE space = ? AND consolidated_at IS NULL AND archived_at IS NULL
       ${since === null ? '' : 'AND created_at > ?'} ORDER BY occurred_at, id`,
      since === null ? [space] : [space, since],
    );
    return rows.map(toEpisodeRow);
  }

  async episodesInRanges(
    space: string,
    ranges: ReadonlyArray<readonly [number, number]>,
  ): Promise<ScriptEpisodeRow[]> {
    const out: ScriptEpisodeRow[] = [];
    for (const [from, to] of mergeRanges(ranges)) {
      const rows = await this.#db.all(
        `SELECT ${EPISODE_COLS} FROM episodes WHERE space = ? AND occurred_at >= ? AND occurred_at <= ? ORDER BY occurred_at, id`,
        [space, from, to],
      );
      out.push(...rows.map(toEpisodeRow));
    }
    return out;
  }

  async pendingEmbeddings(
    space: string,
    layer: Layer,
    limit: number,
  ): Promise<{ count: number; ids: number[] }> {
    const n = await this.#db.get<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM ${TABLE[layer]} WHERE space = ? AND embed_pending = 1`,
      [space],
    );
    const rows = await this.#db.all<{ id: unknown }>(
      `SELECT id FROM ${TABLE[layer]} WHERE space = ? AND embed_pending = 1 ORDER BY id LIMIT ?`,
      [space, limit],
    );
    return { count: num(n?.n ?? 0), ids: rows.map((r) => num(r.id)) };
  }

  async episodeIdsByRef(space: string, refs: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const part of chunks(refs)) {
      const rows = await this.#db.all<{ id: unknown; ref: string }>(
        `SELECT id, ref FROM episodes WHERE space = ? AND ref IN (${marks(part.length)})`,
        [space, ...part],
      );
      for (const r of rows) out.set(String(r.ref), num(r.id));
    }
    return out;
  }

  async getState(space: string, key: string): Promise<unknown> {
    const r = await this.#db.get<{ value: string }>(
      'SELECT value FROM job_state WHERE space = ? AND job = ?',
      [space, key],
    );
    return r ? json<unknown>(r.value, undefined) : undefined;
  }

  async putState(space: string, key: string, value: unknown, at: number): Promise<void> {
    await this.#db.run(
      `INSERT INTO job_state (space, job, value, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (space, job) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [space, key, toJson(value), at],
    );
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
