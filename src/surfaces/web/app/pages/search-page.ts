/** Search: recall over the layers the user ticks; each hit opens in its conversation. */
import { api } from '../api.js';
import type { RecallAnswer } from '../api-types.js';
import { empty, field, h, type Page } from '../dom.js';

const LAYERS = ['episode', 'narrative', 'knowledge'];

export const render: Page = async (params) => {
  const q = params.get('q') ?? '';
  const layers = (params.get('layers') ?? '').split(',').filter(Boolean);
  const form = h(
    'form',
    {
      class: 'row',
      onsubmit: (e) => {
        e.preventDefault();
        const ticked = LAYERS.filter((l) => field(e.currentTarget, l).checked);
        location.hash = `#/search?q=${encodeURIComponent(field(e.currentTarget, 'q').value)}&layers=${ticked.join(',')}`;
      },
    },
    h('input', { name: 'q', value: q, placeholder: 'what do you remember about…', size: 40 }),
    LAYERS.map((l) =>
      h(
        'label',
        {},
        h('input', { type: 'checkbox', name: l, checked: layers.length === 0 || layers.includes(l) }),
        ` ${l}`,
      ),
    ),
    h('button', { class: 'primary' }, 'Search'),
  );
  if (!q.trim()) return { nodes: [h('h1', {}, 'Search'), form, empty('Type a query to recall memories.')] };
  const r = await api<RecallAnswer>(
    `/v1/recall?q=${encodeURIComponent(q)}&limit=30${layers.length ? `&layers=${layers.join(',')}` : ''}`,
  );
  const hits =
    r.hits.length === 0
      ? empty(`Nothing found for “${q}”.`)
      : h(
          'table',
          { id: 'hits' },
          r.hits.map((x) =>
            h(
              'tr',
              { 'data-id': x.id },
              h('td', {}, h('a', { href: `#/conversation?id=${encodeURIComponent(x.id)}`, title: 'read it in its conversation' }, x.id)),
              h('td', {}, h('span', { class: 'tag' }, x.layer)),
              h('td', {}, x.speaker ? h('span', { class: 'muted' }, `${x.speaker}: `) : null, x.text),
              h('td', { class: 'muted' }, x.score.toFixed(3)),
            ),
          ),
        );
  return { nodes: [h('h1', {}, 'Search'), form, hits] };
};
