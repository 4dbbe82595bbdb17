/** Reads of the derived tables (briefings, clusters, entity graph, topic stats) over portable SQL. */
import type { Narrative } from '../../core/types.js';
import type {
  BriefingRow,
  DerivedStore,
  GraphEdgeRow,
  GraphNodeRow,
  SoftClusterRow,
  TopicClusterRow,
  TopicStatRow,
} from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { toNarrative } from './narrative-sql.js';
import { json, num, numOrNull } from './sql-util.js';

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
  constructor(db: SqlDriver) {
    this.#db = db;
  }

  async briefing(space: string, day: string): Promise<BriefingRow | undefined> {
    const r = await this.#db.get('SELECT day, headline, body, created_at FROM briefings WHERE space = ? AND day = ?', [space, day]);
    return r ? toBriefing(r) : undefined;
  }

  async latestBriefing(space: string): Promise<BriefingRow | undefined> {
    const r = await this.#db.get('SELECT day, headline, body, created_at FROM briefings WHERE space = ? ORDER BY day DESC LIMIT 1', [space]);
    return r ? toBriefing(r) : undefined;
  }

  async topicClusters(space: string, q: { minSize: number; limit: number }): Promise<TopicClusterRow[]> {
    const rows = await this.#db.all(
      `SELECT id, name, keywords, size, narrative_ids, last_active, avg_weight FROM topic_clusters
       WHERE space = ? AND size >= ? ORDER BY size DESC, name ASC LIMIT ?`,
      [space, q.minSize, q.limit],
    );
    return rows.map((r) => ({
      id: num(r.id),
      name: String(r.name),
      keywords: json<string[]>(r.keywords, [], { table: 'topic_clusters', column: 'keywords', row: r, space }),
      size: num(r.size),
      narrativeIds: json<unknown[]>(r.narrative_ids, [], { table: 'topic_clusters', column: 'narrative_ids', row: r, space }).map(Number).filter(Number.isFinite),
      lastActive: numOrNull(r.last_active),
      avgWeight: r.avg_weight === null || r.avg_weight === undefined ? null : num(r.avg_weight),
    }));
  }

  async softClusters(space: string): Promise<SoftClusterRow[]> {
    const rows = await this.#db.all(
      `SELECT c.id, c.name, c.member_count, c.updated_at,
         (SELECT COUNT(*) FROM emb_cluster_adjacency a WHERE a.space = c.space AND (a.cluster_a = c.id OR a.cluster_b = c.id)) AS degree
       FROM emb_clusters c WHERE c.space = ? ORDER BY c.member_count DESC, c.id ASC`,
      [space],
    );
    return rows.map((r) => ({ id: num(r.id), name: String(r.name), memberCount: num(r.member_count), degree: num(r.degree), updatedAt: num(r.updated_at) }));
  }

  async softClusterMembers(space: string, clusterId: number, limit: number): Promise<Array<{ narrativeId: number; distance: number }>> {
    const rows = await this.#db.all(
      `SELECT narrative_id, distance FROM emb_cluster_members WHERE space = ? AND cluster_id = ?
       ORDER BY distance ASC, narrative_id ASC LIMIT ?`,
      [space, clusterId, limit],
    );
    return rows.map((r) => ({ narrativeId: num(r.narrative_id), distance: num(r.distance) }));
  }

  async softClusterNeighbours(space: string, clusterId: number, limit: number): Promise<Array<{ id: number; name: string; shared: number }>> {
    const rows = await this.#db.all(
      `SELECT c.id, c.name, a.shared_count FROM emb_cluster_adjacency a
       JOIN emb_clusters c ON c.space = a.space AND c.id = CASE WHEN a.cluster_a = ? THEN a.cluster_b ELSE a.cluster_a END
       WHERE a.space = ? AND (a.cluster_a = ? OR a.cluster_b = ?) ORDER BY a.shared_count DESC, c.id ASC LIMIT ?`,
      [clusterId, space, clusterId, clusterId, limit],
    );
    return rows.map((r) => ({ id: num(r.id), name: String(r.name), shared: num(r.shared_count) }));
  }

  async heaviestNarratives(space: string, q: { since: number; minWeight: number; limit: number }): Promise<Narrative[]> {
    const rows = await this.#db.all(
      `SELECT * FROM narratives WHERE space = ? AND created_at >= ? AND weight > ?
       ORDER BY weight DESC, created_at DESC, id DESC LIMIT ?`,
      [space, q.since, q.minWeight, q.limit],
    );
    return rows.map(toNarrative);
  }

  async graphNodes(space: string, limit: number): Promise<GraphNodeRow[]> {
    const rows = await this.#db.all(
      'SELECT entity, mention_count, first_seen, last_seen FROM graph_nodes WHERE space = ? ORDER BY mention_count DESC, entity ASC LIMIT ?',
      [space, limit],
    );
    return rows.map(toNode);
  }

  async graphNode(space: string, entity: string): Promise<GraphNodeRow | undefined> {
    const cols = 'SELECT entity, mention_count, first_seen, last_seen FROM graph_nodes WHERE space = ?';
    const exact = await this.#db.get(`${cols} AND entity = ?`, [space, entity]);
    if (exact) return toNode(exact);
    const loose = await this.#db.get(`${cols} AND LOWER(entity) = LOWER(?) ORDER BY entity LIMIT 1`, [space, entity]);
    return loose ? toNode(loose) : undefined;
  }

  async graphPartners(space: string, entity: string, limit: number): Promise<Array<{ entity: string; count: number }>> {
    const rows = await this.#db.all(
      `SELECT CASE WHEN entity_a = ? THEN entity_b ELSE entity_a END AS partner, cooccur_count FROM graph_cooccur
       WHERE space = ? AND (entity_a = ? OR entity_b = ?) ORDER BY cooccur_count DESC, partner ASC LIMIT ?`,
      [entity, space, entity, entity, limit],
    );
    return rows.map((r) => ({ entity: String(r.partner), count: num(r.cooccur_count) }));
  }

  async graphPairEdges(space: string, a: string, b: string, limit: number): Promise<GraphEdgeRow[]> {
    const rows = await this.#db.all(
      `SELECT entity_a, role_a, entity_b, role_b, narrative_id, created_at FROM graph_edges
       WHERE space = ? AND ((entity_a = ? AND entity_b = ?) OR (entity_a = ? AND entity_b = ?))
       ORDER BY created_at DESC, narrative_id DESC LIMIT ?`,
      [space, a, b, b, a, limit],
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

  async topicStats(space: string): Promise<TopicStatRow[]> {
    const subjects = await this.#db.all(
      `SELECT k.subject AS topic, COUNT(*) AS mentions,
         (SELECT COUNT(*) FROM knowledge_links l JOIN knowledge k2 ON k2.space = l.space AND (k2.id = l.from_id OR k2.id = l.to_id)
          WHERE l.space = k.space AND k2.subject = k.subject) AS degree
       FROM knowledge k WHERE k.space = ? AND k.subject IS NOT NULL AND k.${LIVE} GROUP BY k.space, k.subject`,
      [space],
    );
    const entities = await this.#db.all(
      `SELECT n.entity AS topic, n.mention_count AS mentions,
         (SELECT COUNT(*) FROM graph_cooccur c WHERE c.space = n.space AND (c.entity_a = n.entity OR c.entity_b = n.entity)) AS degree
       FROM graph_nodes n WHERE n.space = ?`,
      [space],
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
}
