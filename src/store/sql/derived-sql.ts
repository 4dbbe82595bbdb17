/** The derived tables (briefings, clusters, entity graph, attention and topic stats) over portable SQL: reads and rebuilds. */
import type { Narrative } from '../../core/types.js';
import type { AttentionStatWrite, BriefingRow, DerivedStore, EntityGraphWrite, GraphEdgeRow, GraphNodeRow, SoftClusterModelRow, SoftClusterRow, SoftClusterWrite, TopicClusterRow, TopicClusterWrite, TopicStatRow } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { toNarrative } from './narrative-sql.js';
import { chunks, insertRows, json, marks, num, numOrNull, toJson } from './sql-util.js';
import { bytesToVector, vectorToBytes } from './vector-sql.js';

function toBriefing(r: Record<string, unknown>): BriefingRow {
  return { day: String(r.day), headline: String(r.headline), body: String(r.body), createdAt: num(r.created_at) };
}

function toNode(r: Record<string, unknown>): GraphNodeRow {
  return { entity: String(r.entity), mentionCount: num(r.mention_count), firstSeen: num(r.first_seen), lastSeen: num(r.last_seen) };
}

// Live knowledge: what recall and know may show (quarantined never, DESIGN §3).
const LIVE = `status IN ('provisional', 'reliable')`;

/** Derived-table reads written once for every engine. */
export class DerivedSql implements DerivedStore {
  readonly #db: SqlDriver;
  readonly #space: string;
  constructor(db: SqlDriver, space: string) {
    this.#space = space;
    this.#db = db;
  }

  async briefing(day: string): Promise<BriefingRow | undefined> {
    const r = await this.#db.get('SELECT day, headline, body, created_at FROM briefings WHERE space = ? AND day = ?', [this.#space, day]);
    return r ? toBriefing(r) : undefined;
  }

  async latestBriefing(): Promise<BriefingRow | undefined> {
    const r = await this.#db.get('SELECT day, headline, body, created_at FROM briefings WHERE space = ? ORDER BY day DESC LIMIT 1', [this.#space]);
    return r ? toBriefing(r) : undefined;
  }

  async topicClusters(q: { minSize: number; limit: number }): Promise<TopicClusterRow[]> {
    const rows = await this.#db.all(
      `SELECT id, name, keywords, size, narrative_ids, last_active, avg_weight FROM topic_clusters
       WHERE space = ? AND size >= ? ORDER BY size DESC, name ASC LIMIT ?`,
      [this.#space, q.minSize, q.limit],
    );
    return rows.map((r) => ({
      id: num(r.id),
      name: String(r.name),
      keywords: json<string[]>(r.keywords, [], { table: 'topic_clusters', column: 'keywords', row: r, space: this.#space }),
      size: num(r.size),
      narrativeIds: json<unknown[]>(r.narrative_ids, [], { table: 'topic_clusters', column: 'narrative_ids', row: r, space: this.#space }).map(Number).filter(Number.isFinite),
      lastActive: numOrNull(r.last_active),
      avgWeight: r.avg_weight === null || r.avg_weight === undefined ? null : num(r.avg_weight),
    }));
  }

  async softClusters(): Promise<SoftClusterRow[]> {
    const rows = await this.#db.all(
      `SELECT c.id, c.name, c.member_count, c.updated_at,
         (SELECT COUNT(*) FROM emb_cluster_adjacency a WHERE a.space = c.space AND (a.cluster_a = c.id OR a.cluster_b = c.id)) AS degree
       FROM emb_clusters c WHERE c.space = ? ORDER BY c.member_count DESC, c.id ASC`,
      [this.#space],
    );
    return rows.map((r) => ({ id: num(r.id), name: String(r.name), memberCount: num(r.member_count), degree: num(r.degree), updatedAt: num(r.updated_at) }));
  }

  async softClusterMembers(clusterId: number, limit: number): Promise<Array<{ narrativeId: number; distance: number }>> {
    const rows = await this.#db.all(
      `SELECT narrative_id, distance FROM emb_cluster_members WHERE space = ? AND cluster_id = ?
       ORDER BY distance ASC, narrative_id ASC LIMIT ?`,
      [this.#space, clusterId, limit],
    );
    return rows.map((r) => ({ narrativeId: num(r.narrative_id), distance: num(r.distance) }));
  }

  async softClusterNeighbours(clusterId: number, limit: number): Promise<Array<{ id: number; name: string; shared: number }>> {
    const rows = await this.#db.all(
      `SELECT c.id, c.name, a.shared_count FROM emb_cluster_adjacency a
       JOIN emb_clusters c ON c.space = a.space AND c.id = CASE WHEN a.cluster_a = ? THEN a.cluster_b ELSE a.cluster_a END
       WHERE a.space = ? AND (a.cluster_a = ? OR a.cluster_b = ?) ORDER BY a.shared_count DESC, c.id ASC LIMIT ?`,
      [clusterId, this.#space, clusterId, clusterId, limit],
    );
    return rows.map((r) => ({ id: num(r.id), name: String(r.name), shared: num(r.shared_count) }));
  }

  async heaviestNarratives(q: { since: number; minWeight: number; limit: number }): Promise<Narrative[]> {
    const rows = await this.#db.all(
      `SELECT * FROM narratives WHERE space = ? AND created_at >= ? AND weight > ?
       ORDER BY weight DESC, created_at DESC, id DESC LIMIT ?`,
      [this.#space, q.since, q.minWeight, q.limit],
    );
    return rows.map(toNarrative);
  }

  async graphNodes(limit: number): Promise<GraphNodeRow[]> {
    const rows = await this.#db.all(
      'SELECT entity, mention_count, first_seen, last_seen FROM graph_nodes WHERE space = ? ORDER BY mention_count DESC, entity ASC LIMIT ?',
      [this.#space, limit],
    );
    return rows.map(toNode);
  }

  async graphNode(entity: string): Promise<GraphNodeRow | undefined> {
    const cols = 'SELECT entity, mention_count, first_seen, last_seen FROM graph_nodes WHERE space = ?';
    const exact = await this.#db.get(`${cols} AND entity = ?`, [this.#space, entity]);
    if (exact) return toNode(exact);
    const loose = await this.#db.get(`${cols} AND LOWER(entity) = LOWER(?) ORDER BY entity LIMIT 1`, [this.#space, entity]);
    return loose ? toNode(loose) : undefined;
  }

  async graphPartners(entity: string, limit: number): Promise<Array<{ entity: string; count: number }>> {
    const rows = await this.#db.all(
      `SELECT CASE WHEN entity_a = ? THEN entity_b ELSE entity_a END AS partner, cooccur_count FROM graph_cooccur
       WHERE space = ? AND (entity_a = ? OR entity_b = ?) ORDER BY cooccur_count DESC, partner ASC LIMIT ?`,
      [entity, this.#space, entity, entity, limit],
    );
    return rows.map((r) => ({ entity: String(r.partner), count: num(r.cooccur_count) }));
  }

  async graphPairEdges(a: string, b: string, limit: number): Promise<GraphEdgeRow[]> {
    const rows = await this.#db.all(
      `SELECT entity_a, role_a, entity_b, role_b, narrative_id, created_at FROM graph_edges
       WHERE space = ? AND ((entity_a = ? AND entity_b = ?) OR (entity_a = ? AND entity_b = ?))
       ORDER BY created_at DESC, narrative_id DESC LIMIT ?`,
      [this.#space, a, b, b, a, limit],
    );
    return rows.map((r) => ({
      entityA: String(r.entity_a),
      roleA: (r.role_a as string | null) ?? null,
      entityB: String(r.entity_b),
      roleB: (r.role_b as string | null) ?? null,
      narrativeId: num(r.narrative_id),
      createdAt: num(r.created_at),
    }));
  }

  async topicStats(): Promise<TopicStatRow[]> {
    const subjects = await this.#db.all(
      `SELECT k.subject AS topic, COUNT(*) AS mentions,
         (SELECT COUNT(*) FROM knowledge_links l JOIN knowledge k2 ON k2.space = l.space AND (k2.id = l.from_id OR k2.id = l.to_id)
          WHERE l.space = k.space AND k2.subject = k.subject) AS degree
       FROM knowledge k WHERE k.space = ? AND k.subject IS NOT NULL AND k.${LIVE} GROUP BY k.space, k.subject`,
      [this.#space],
    );
    const entities = await this.#db.all(
      `SELECT n.entity AS topic, n.mention_count AS mentions,
         (SELECT COUNT(*) FROM graph_cooccur c WHERE c.space = n.space AND (c.entity_a = n.entity OR c.entity_b = n.entity)) AS degree
       FROM graph_nodes n WHERE n.space = ?`,
      [this.#space],
    );
    // A topic known both as a subject and as an entity is counted once, with the larger figures.
    const byTopic = new Map<string, TopicStatRow>();
    for (const r of [...subjects, ...entities]) {
      const row = { topic: String(r.topic), mentions: num(r.mentions), degree: num(r.degree) };
      const prev = byTopic.get(row.topic);
      byTopic.set(row.topic, prev ? { topic: row.topic, mentions: Math.max(prev.mentions, row.mentions), degree: Math.max(prev.degree, row.degree) } : row);
    }
    return [...byTopic.values()];
  }

  async replaceTopicClusters(rows: readonly TopicClusterWrite[]): Promise<void> {
    await this.#db.run('DELETE FROM topic_clusters WHERE space = ?', [this.#space]);
    await insertRows(
      this.#db,
      'topic_clusters',
      ['space', 'name', 'keywords', 'size', 'narrative_ids', 'last_active', 'avg_weight'],
      rows.map((c) => [
        this.#space,
        c.name,
        toJson(c.keywords),
        c.size,
        toJson(c.narrativeIds),
        c.lastActive,
        c.avgWeight,
      ]),
    );
  }

  async upsertTopicClusters(rows: readonly TopicClusterWrite[]): Promise<void> {
    for (const c of rows) {
      await this.#db.run(
        `INSERT INTO topic_clusters (space, name, keywords, size, narrative_ids, last_active, avg_weight)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (space, name) DO UPDATE SET keywords = excluded.keywords,
           size = excluded.size, narrative_ids = excluded.narrative_ids, last_active = excluded.last_active,
           avg_weight = excluded.avg_weight`,
        [this.#space, c.name, toJson(c.keywords), c.size, toJson(c.narrativeIds), c.lastActive, c.avgWeight],
      );
    }
  }

  async replaceSoftClusters(build: SoftClusterWrite, at: number): Promise<number[]> {
    await this.#db.run('DELETE FROM emb_cluster_members WHERE space = ?', [this.#space]);
    await this.#db.run('DELETE FROM emb_cluster_adjacency WHERE space = ?', [this.#space]);
    await this.#db.run('DELETE FROM emb_clusters WHERE space = ?', [this.#space]);
    const ids: number[] = [];
    // One row at a time: RETURNING order of a multi-row INSERT is not promised by PostgreSQL, and k is small.
    for (const c of build.clusters) {
      const got = await this.#db.get<{ id: unknown }>(
        `INSERT INTO emb_clusters (space, name, centroid, member_count, total_hits, created_at, updated_at)
         VALUES (?, ?, ?, ?, 0, ?, ?) RETURNING id`,
        [this.#space, c.name, vectorToBytes(Float32Array.from(c.centroid)), c.memberCount, at, at],
      );
      ids.push(num(got!.id));
    }
    const idOf = (index: number) => ids[index]!;
    await insertRows(
      this.#db,
      'emb_cluster_members',
      ['space', 'cluster_id', 'narrative_id', 'distance'],
      build.memberships.map((m) => [this.#space, idOf(m.cluster), m.narrativeId, m.distance]),
    );
    await insertRows(
      this.#db,
      'emb_cluster_adjacency',
      ['space', 'cluster_a', 'cluster_b', 'shared_count'],
      build.adjacency.map((e) => {
        const [a, b] = [idOf(e.a), idOf(e.b)].sort((x, y) => x - y) as [number, number];
        return [this.#space, a, b, e.shared];
      }),
    );
    return ids;
  }

  async softClusterModel(): Promise<{
    clusters: SoftClusterModelRow[];
    adjacency: Array<{ a: number; b: number; shared: number }>;
  }> {
    const clusters = await this.#db.all<{ id: unknown; name: string; centroid: Uint8Array | null }>(
      'SELECT id, name, centroid FROM emb_clusters WHERE space = ? ORDER BY id',
      [this.#space],
    );
    const adjacency = await this.#db.all<{ cluster_a: unknown; cluster_b: unknown; shared_count: unknown }>(
      'SELECT cluster_a, cluster_b, shared_count FROM emb_cluster_adjacency WHERE space = ? ORDER BY cluster_a, cluster_b',
      [this.#space],
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
    if (!column || !ids) rows.push(...(await this.#db.all<(typeof rows)[number]>(`${sql}${order}`, [this.#space])));
    else
      for (const part of chunks(ids))
        rows.push(
          ...(await this.#db.all<(typeof rows)[number]>(
            `${sql} AND ${column} IN (${marks(part.length)})${order}`,
            [this.#space, ...part],
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

  async topicClusterNames(): Promise<string[]> {
    const rows = await this.#db.all<{ name: string }>(
      'SELECT name FROM topic_clusters WHERE space = ? ORDER BY size DESC, name ASC',
      [this.#space],
    );
    return rows.map((r) => String(r.name));
  }

  async replaceAttentionStats(
    rows: readonly AttentionStatWrite[],
    clusterHits: ReadonlyArray<{ clusterId: number; hits: number }>,
  ): Promise<void> {
    await this.#db.run('DELETE FROM attention_stats WHERE space = ?', [this.#space]);
    await insertRows(
      this.#db,
      'attention_stats',
      ['space', 'cluster', 'hit_count', 'last_hit', 'last_item_id'],
      rows.map((r) => [this.#space, r.cluster, r.hitCount, r.lastHit, r.lastItemId]),
    );
    await this.#db.run('UPDATE emb_clusters SET total_hits = 0 WHERE space = ?', [this.#space]);
    for (const c of clusterHits) {
      await this.#db.run('UPDATE emb_clusters SET total_hits = ? WHERE space = ? AND id = ?', [
        c.hits,
        this.#space,
        c.clusterId,
      ]);
    }
  }

  async replaceEntityGraph(graph: EntityGraphWrite): Promise<void> {
    for (const t of ['graph_nodes', 'graph_edges', 'graph_cooccur'])
      await this.#db.run(`DELETE FROM ${t} WHERE space = ?`, [this.#space]);
    await insertRows(
      this.#db,
      'graph_nodes',
      ['space', 'entity', 'mention_count', 'first_seen', 'last_seen'],
      graph.nodes.map((n) => [this.#space, n.entity, n.mentionCount, n.firstSeen, n.lastSeen]),
    );
    await insertRows(
      this.#db,
      'graph_edges',
      ['space', 'entity_a', 'entity_b', 'narrative_id', 'role_a', 'role_b', 'created_at'],
      // An empty role is stored as NULL: the narrative named the entity without a role.
      graph.edges.map((e) => [
        this.#space,
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
      graph.cooccur.map((c) => [this.#space, c.entityA, c.entityB, c.count]),
    );
  }

  async putBriefing(b: BriefingRow): Promise<void> {
    await this.#db.run(
      `INSERT INTO briefings (space, day, headline, body, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (space, day) DO UPDATE SET headline = excluded.headline, body = excluded.body, created_at = excluded.created_at`,
      [this.#space, b.day, b.headline, b.body, b.createdAt],
    );
  }
}
