/** The interactive entity co-occurrence graph, drawn by Cytoscape.js: drag nodes, pan, zoom, tap a node to see its partners. */
import cytoscape, { type Core } from 'cytoscape';
import type { GraphAnswer, GraphNode } from './api-types.js';
import { COLORS } from './palette.js';

/** A partner of the selected entity and how many narratives they share. */
export interface Partner {
  entity: string;
  count: number;
}

/** The container element, carrying its Cytoscape instance so the browser tests (and a console user) can read it. */
export type GraphContainer = HTMLElement & { cy?: Core };

/** Draws the graph into an attached container; `onSelect` hears taps (null: the background). */
export async function drawEntityGraph(
  container: GraphContainer,
  g: Pick<GraphAnswer, 'nodes' | 'edges'>,
  onSelect: (node: GraphNode | null, partners: Partner[]) => void,
): Promise<{ select: (entity: string) => void; destroy: () => void }> {
  const maxMentions = Math.max(1, ...g.nodes.map((n) => n.mentionCount));
  const maxCount = Math.max(1, ...g.edges.map((e) => e.count));
  const byName = new Map(g.nodes.map((n) => [n.entity, n]));
  const cy = cytoscape({
    container,
    elements: [
      ...g.nodes.map((n) => ({ data: { id: n.entity, size: 14 + 30 * (n.mentionCount / maxMentions) } })),
      ...g.edges
        .filter((e) => byName.has(e.a) && byName.has(e.b))
        .map((e) => ({
          data: {
            id: `${e.a}\u0000${e.b}`,
            source: e.a,
            target: e.b,
            count: e.count,
            width: 1 + 5 * (e.count / maxCount),
          },
        })),
    ],
    style: [
      {
        selector: 'node',
        style: {
          label: 'data(id)',
          width: 'data(size)',
          height: 'data(size)',
          'background-color': COLORS.accent,
          'font-size': 12,
          'text-valign': 'top',
          'text-margin-y': -4,
        },
      },
      {
        selector: 'edge',
        style: { width: 'data(width)', 'line-color': COLORS.edge, 'curve-style': 'straight' },
      },
      { selector: 'node:selected', style: { 'background-color': COLORS.warn } },
      { selector: '.faded', style: { opacity: 0.2 } },
    ],
    layout: { name: 'preset' },
    minZoom: 0.2,
    maxZoom: 4,
    boxSelectionEnabled: false,
  });
  container.cy = cy;
  // cose: Cytoscape's own force-directed layout; finished before the page reports itself rendered.
  const layout = cy.layout({ name: 'cose', animate: false, nodeDimensionsIncludeLabels: true, padding: 30 });
  const done = layout.promiseOn('layoutstop');
  layout.run();
  await done;
  // A handful of nodes would otherwise be fitted at the maximum zoom, drawn huge.
  if (cy.zoom() > 1.5) {
    cy.zoom(1.5);
    cy.center();
  }

  const select = (entity: string) => {
    const node = cy.getElementById(entity);
    const n = byName.get(entity);
    if (node.empty() || !n) return;
    cy.elements().unselect().removeClass('faded');
    node.select();
    cy.elements().difference(node.closedNeighborhood()).addClass('faded');
    const partners = node
      .connectedEdges()
      .map((e) => ({
        entity: e.source().id() === entity ? e.target().id() : e.source().id(),
        count: Number(e.data('count')),
      }));
    onSelect(
      n,
      partners.sort((a, b) => b.count - a.count),
    );
  };
  cy.on('tap', 'node', (ev) => select(ev.target.id()));
  cy.on('tap', (ev) => {
    if (ev.target !== cy) return;
    cy.elements().unselect().removeClass('faded');
    onSelect(null, []);
  });
  return { select, destroy: () => cy.destroy() };
}
