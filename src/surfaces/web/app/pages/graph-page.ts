/** Graph: the entity co-occurrence graph (interactive canvas) and the same entities as a list of buttons. */
import { api } from '../api.js';
import type { GraphAnswer, GraphNode } from '../api-types.js';
import { emptyReason } from '../empty-reason.js';
import { empty, h, type Page } from '../dom.js';
import { drawEntityGraph, type GraphContainer, type Partner } from '../entity-graph-view.js';

const HINT =
  'Click an entity (in the graph or the list) to see who it appears with; drag to move, scroll to zoom.';

export const render: Page = async () => {
  const g = await api<GraphAnswer>('/v1/graph');
  if (g.nodes.length === 0)
    return { nodes: [h('h1', {}, 'Graph'), empty(await emptyReason('graph', g.message ?? 'The entity graph is empty.'))] };
  const detail = h('div', { class: 'card', id: 'graph-detail', 'aria-live': 'polite' }, HINT);
  const show = (n: GraphNode | null, partners: Partner[]) => {
    for (const b of list.querySelectorAll('button'))
      b.setAttribute('aria-pressed', String(b.dataset.entity === n?.entity));
    if (!n) return detail.replaceChildren(HINT);
    const mentions = `${n.mentionCount} mention${n.mentionCount === 1 ? '' : 's'}`;
    detail.replaceChildren(
      h('strong', {}, n.entity),
      ` — ${mentions}; with ${partners.map((p) => `${p.entity} (${p.count})`).join(', ') || 'nobody'}`,
    );
  };
  const canvas: GraphContainer = h('div', {
    id: 'graph-canvas',
    class: 'graph',
    role: 'img',
    'aria-label': `Entity co-occurrence graph of ${g.nodes.length} entities`,
  });
  let select: (entity: string) => void = () => undefined;
  const list = h(
    'ul',
    { id: 'graph-entities', class: 'entity-list' },
    [...g.nodes]
      .sort((a, b) => b.mentionCount - a.mentionCount)
      .map((n) =>
        h(
          'li',
          {},
          h(
            'button',
            { type: 'button', 'data-entity': n.entity, onclick: () => select(n.entity) },
            `${n.entity} (${n.mentionCount})`,
          ),
        ),
      ),
  );
  return {
    nodes: [
      h('h1', {}, 'Graph'),
      h('div', { class: 'graph-wrap' }, h('div', { class: 'card graph-card' }, canvas), list),
      detail,
    ],
    mounted: async () => {
      const drawn = await drawEntityGraph(canvas, g, show);
      select = drawn.select;
      return drawn.destroy;
    },
  };
};
