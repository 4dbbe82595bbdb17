/** `memory_graph`: the entity co-occurrence graph the script layer builds, by entity, by pair, or its top nodes. */
import { z } from 'zod';
import { label, parseInput } from '../core/schemas.js';
import type { GraphEdgeRow, GraphNodeRow } from '../store/port.js';
import type { AppContext } from './app-context.js';
import { requireSpace } from './require-space.js';

/** Tideline's parameters (SEEDS §1.4): `entity`, `pair` as `"A,B"`, `limit` 10. */
export const graphInput = z.object({
  entity: label.optional(),
  pair: z.string().regex(/^[^,，]+[,，][^,，]+$/, 'must be two names separated by a comma, e.g. "Ana,Ben"').optional(),
  limit: z.number().int().min(1).max(200).default(10),
});

/** A shared narrative of a pair, with each role beside its own entity (SEEDS T-15). */
export interface PairEdge extends GraphEdgeRow {
  gesture: string | null;
}

/** What the graph says. */
export type GraphView =
  | { kind: 'top'; nodes: GraphNodeRow[] }
  | { kind: 'entity'; node: GraphNodeRow; partners: Array<{ entity: string; count: number }> }
  | { kind: 'pair'; entityA: string; entityB: string; edges: PairEdge[] }
  | { kind: 'empty'; message: string };

/** Reads the graph: a pair's shared narratives, an entity's partners, or the most mentioned nodes. */
export async function readGraph(ctx: AppContext, raw: unknown = {}): Promise<GraphView> {
  const input = parseInput(graphInput, raw ?? {});
  await requireSpace(ctx);
  const top = await ctx.scope.derived.graphNodes(input.limit);
  if (top.length === 0) {
    return {
      kind: 'empty',
      message: 'the entity graph is empty: it is built from narratives\' entities_role (e.g. "A=judge+act; B=review") by `tidepool script entity-graph` or the nightly run',
    };
  }
  if (input.pair) {
    const [a, b] = input.pair.split(/[,，]/).map((s) => s.trim()) as [string, string];
    const na = (await ctx.scope.derived.graphNode(a))?.entity ?? a;
    const nb = (await ctx.scope.derived.graphNode(b))?.entity ?? b;
    const edges = await ctx.scope.derived.graphPairEdges(na, nb, input.limit);
    if (edges.length === 0) return { kind: 'empty', message: `${na} and ${nb} never appear in the same narrative` };
    const narratives = await ctx.scope.narratives.getMany(edges.map((e) => e.narrativeId));
    const gesture = new Map(narratives.map((n) => [n.id, n.gesture ?? n.content]));
    return { kind: 'pair', entityA: na, entityB: nb, edges: edges.map((e) => ({ ...e, gesture: gesture.get(e.narrativeId) ?? null })) };
  }
  if (input.entity) {
    const node = await ctx.scope.derived.graphNode(input.entity);
    if (!node) return { kind: 'empty', message: `the graph does not know "${input.entity}"; call memory_graph without arguments for the known entities` };
    return { kind: 'entity', node, partners: await ctx.scope.derived.graphPartners(node.entity, input.limit) };
  }
  return { kind: 'top', nodes: top };
}
