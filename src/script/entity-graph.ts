/** The entity co-occurrence graph built from narratives' `entities_role` (SEEDS §1.7 build_entity_graph). */

/** A narrative reduced to what the graph reads. */
export interface EntityDoc {
  id: number;
  /** Free text such as `A=判断+执行; B=审查`. */
  entitiesRole?: string | null;
  createdAt: number;
}

/** One `entity=role` part of `entities_role`. */
export interface RoleMention {
  entity: string;
  role: string;
}

/** A node (Tideline `graph_nodes`), with how often it took each role. */
export interface GraphNode {
  entity: string;
  mentionCount: number;
  firstSeen: number;
  lastSeen: number;
  roles: Record<string, number>;
}

/** One co-mention of two entities in one narrative, in the order `entities_role` named them (`graph_edges`). */
export interface GraphEdge {
  entityA: string;
  roleA: string;
  entityB: string;
  roleB: string;
  narrativeId: number;
  createdAt: number;
}

/** Co-occurrence of a pair (`graph_cooccur`); entityA < entityB, role patterns oriented the same way. */
export interface GraphCooccur {
  entityA: string;
  entityB: string;
  count: number;
  patterns: Array<{ roleA: string; roleB: string; count: number }>;
}

/** The whole graph; rebuilt from scratch each time, like the seed. */
export interface EntityGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  cooccur: GraphCooccur[];
}

/**
 * Parses `entities_role`: parts split on `;`/`；` outside parentheses, each `entity=role` split at the first
 * `=`, a parenthesised alias in the entity dropped (`Alice(小A)=审查` → Alice). An entity named twice keeps
 * both roles joined by `+`.
 */
export function parseEntitiesRole(text: string | null | undefined): RoleMention[] {
  if (!text) return [];
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(' || ch === '（') depth++;
    else if ((ch === ')' || ch === '）') && depth > 0) depth--;
    if ((ch === ';' || ch === '；') && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  const out: RoleMention[] = [];
  for (const part of parts) {
    const eq = part.search(/[=＝]/);
    const rawEntity = eq < 0 ? part : part.slice(0, eq);
    const entity = rawEntity.replace(/[(（][^)）]*[)）]/g, '').trim();
    const role = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (!entity) continue;
    const seen = out.find((m) => m.entity === entity);
    if (!seen) out.push({ entity, role });
    else if (role && !seen.role.split('+').includes(role))
      seen.role = seen.role ? `${seen.role}+${role}` : role;
  }
  return out;
}

/** Builds nodes, edges and co-occurrences, reading narratives in createdAt (then id) order. */
export function buildEntityGraph(docs: readonly EntityDoc[]): EntityGraph {
  const ordered = [...docs].sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
  const nodes = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  const pairs = new Map<string, GraphCooccur>();
  for (const d of ordered) {
    const mentions = parseEntitiesRole(d.entitiesRole);
    for (const m of mentions) {
      const node = nodes.get(m.entity) ?? {
        entity: m.entity,
        mentionCount: 0,
        firstSeen: d.createdAt,
        lastSeen: d.createdAt,
        roles: {},
      };
      node.mentionCount++;
      node.lastSeen = d.createdAt;
      if (m.role) node.roles[m.role] = (node.roles[m.role] ?? 0) + 1;
      nodes.set(m.entity, node);
    }
    for (let i = 0; i < mentions.length; i++) {
      for (let j = i + 1; j < mentions.length; j++) {
        const a = mentions[i]!;
        const b = mentions[j]!;
        edges.push({
          entityA: a.entity,
          roleA: a.role,
          entityB: b.entity,
          roleB: b.role,
          narrativeId: d.id,
          createdAt: d.createdAt,
        });
        const [lo, hi] = a.entity < b.entity ? [a, b] : [b, a];
        const key = `${lo.entity}\u0000${hi.entity}`;
        const co = pairs.get(key) ?? { entityA: lo.entity, entityB: hi.entity, count: 0, patterns: [] };
        co.count++;
        const p = co.patterns.find((x) => x.roleA === lo.role && x.roleB === hi.role);
        if (p) p.count++;
        else co.patterns.push({ roleA: lo.role, roleB: hi.role, count: 1 });
        pairs.set(key, co);
      }
    }
  }
  const cooccur = [...pairs.values()];
  for (const c of cooccur)
    c.patterns.sort((x, y) => y.count - x.count || cmp(x.roleA + x.roleB, y.roleA + y.roleB));
  cooccur.sort((x, y) => y.count - x.count || cmp(x.entityA, y.entityA) || cmp(x.entityB, y.entityB));
  return { nodes: [...nodes.values()].sort(byMentions), edges, cooccur };
}

/** The nodes with the most mentions (SEEDS §1.4 `memory_graph` without arguments). */
export function topNodes(graph: EntityGraph, limit = 10): GraphNode[] {
  return [...graph.nodes].sort(byMentions).slice(0, limit);
}

/** One entity: its node and its co-occurrence partners by count; undefined when the graph does not know it. */
export function queryEntity(
  graph: EntityGraph,
  entity: string,
): { node: GraphNode; partners: Array<{ entity: string; count: number }> } | undefined {
  const node = findNode(graph, entity.trim());
  if (!node) return undefined;
  const partners = graph.cooccur
    .filter((c) => c.entityA === node.entity || c.entityB === node.entity)
    .map((c) => ({ entity: c.entityA === node.entity ? c.entityB : c.entityA, count: c.count }))
    .sort((a, b) => b.count - a.count || cmp(a.entity, b.entity));
  return { node, partners };
}

/** A pair's shared narratives, newest first. */
export interface PairResult {
  entityA: string;
  entityB: string;
  count: number;
  patterns: GraphCooccur['patterns'];
  /** Each edge as stored: every role stays beside its own entity, whatever order the pair was asked in (SEEDS T-15). */
  shared: GraphEdge[];
}

/**
 * A pair given as `"A,B"` (or `A，B`), in either order. Undefined when the text is not two names or the two never
 * co-occur.
 */
export function queryPair(graph: EntityGraph, pair: string): PairResult | undefined {
  const names = pair
    .split(/[,，]/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length !== 2) return undefined;
  const a = findNode(graph, names[0]!)?.entity ?? names[0]!;
  const b = findNode(graph, names[1]!)?.entity ?? names[1]!;
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const co = graph.cooccur.find((c) => c.entityA === lo && c.entityB === hi);
  if (!co) return undefined;
  const shared = graph.edges
    .filter((e) => (e.entityA === lo && e.entityB === hi) || (e.entityA === hi && e.entityB === lo))
    .sort((x, y) => y.createdAt - x.createdAt || y.narrativeId - x.narrativeId);
  return { entityA: co.entityA, entityB: co.entityB, count: co.count, patterns: co.patterns, shared };
}

function findNode(graph: EntityGraph, entity: string): GraphNode | undefined {
  return (
    graph.nodes.find((n) => n.entity === entity) ??
    graph.nodes.find((n) => n.entity.toLowerCase() === entity.toLowerCase())
  );
}

function byMentions(a: GraphNode, b: GraphNode): number {
  return b.mentionCount - a.mentionCount || cmp(a.entity, b.entity);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
