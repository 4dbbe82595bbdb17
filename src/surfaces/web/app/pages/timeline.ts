/** Timeline: the raw history, newest first, archived episodes included, 50 a page. */
import { api } from '../api.js';
import type { TimelineAnswer } from '../api-types.js';
import { empty, h, when, type Page } from '../dom.js';

const PAGE = 50;

export const render: Page = async (params) => {
  const offset = Math.max(0, Number(params.get('offset') ?? 0) || 0);
  const p = await api<TimelineAnswer>(`/v1/timeline?limit=${PAGE}&offset=${offset}`);
  if (p.total === 0)
    return {
      nodes: [
        h('h1', {}, 'Timeline'),
        empty('No history yet: record turns (tidepool record, POST /v1/ingest) and they appear here.'),
      ],
    };
  const nav = (id?: string) =>
    h(
      'div',
      { class: 'row' },
      offset > 0 ? h('a', { href: `#/timeline?offset=${Math.max(0, offset - PAGE)}` }, '← newer') : null,
      h('span', { class: 'muted' }, `${offset + 1}–${offset + p.items.length} of ${p.total}`),
      offset + PAGE < p.total ? h('a', { href: `#/timeline?offset=${offset + PAGE}`, id }, 'older →') : null,
    );
  const rows = p.items.map((e) =>
    h(
      'tr',
      {},
      h('td', {}, when(e.occurred_at)),
      h('td', {}, e.speaker ?? e.role ?? ''),
      h('td', {}, e.kind, e.archived ? h('span', { class: 'tag' }, 'archived') : null),
      h('td', {}, e.text),
    ),
  );
  return {
    nodes: [
      h('h1', {}, 'Timeline'),
      nav('older'),
      h(
        'table',
        { id: 'timeline' },
        h(
          'tr',
          {},
          ['when', 'who', 'kind', 'content'].map((c) => h('th', {}, c)),
        ),
        rows,
      ),
      nav(),
    ],
  };
};
