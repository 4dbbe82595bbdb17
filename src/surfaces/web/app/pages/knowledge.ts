/** Knowledge: the Needs review queue (approve / reject) and browsing by kind and status. */
import { api } from '../api.js';
import type { KnowledgeAnswer } from '../api-types.js';
import { empty, field, h, type Page } from '../dom.js';

const KINDS = ['fact', 'entity', 'preference', 'procedure', 'concept', 'open_problem', 'recipe'];
const STATUSES = ['provisional', 'reliable', 'quarantined', 'superseded', 'forgotten'];

export const render: Page = async (params) => {
  const kind = params.get('kind') ?? '';
  const status = params.get('status') ?? '';
  const query = new URLSearchParams({ limit: '100' });
  if (kind) query.set('kind', kind);
  if (status) query.set('status', status);
  const [review, list] = await Promise.all([
    api<KnowledgeAnswer>('/v1/knowledge?status=quarantined&limit=100'),
    api<KnowledgeAnswer>(`/v1/knowledge?${query.toString()}`),
  ]);
  const failure = h('p', { id: 'review-status' });
  const decide = async (id: string, decision: 'approve' | 'reject') => {
    try {
      await api(`/v1/knowledge/${encodeURIComponent(id)}/review`, { method: 'POST', body: { decision } });
      // The hash is unchanged, so ask the router to render this page again.
      dispatchEvent(new HashChangeEvent('hashchange'));
    } catch (err) {
      failure.textContent = (err as Error).message;
      failure.className = 'error';
    }
  };
  const queue =
    review.items.length === 0
      ? empty('Nothing needs review: contradicting knowledge is quarantined here by the nightly sleep.')
      : h(
          'table',
          { id: 'review-queue' },
          h('tr', {}, h('th', {}, 'id'), h('th', {}, 'content'), h('th', {}, 'why'), h('th', {}, '')),
          review.items.map((k) =>
            h(
              'tr',
              { 'data-id': k.id },
              h('td', {}, k.id),
              h('td', {}, k.content),
              h('td', { class: 'muted' }, k.reason ?? ''),
              h(
                'td',
                {},
                h('button', { class: 'primary', onclick: () => decide(k.id, 'approve') }, 'Approve'),
                ' ',
                h('button', { onclick: () => decide(k.id, 'reject') }, 'Reject'),
              ),
            ),
          ),
        );
  const filter = h(
    'form',
    {
      class: 'row',
      onchange: (e) => {
        location.hash = `#/knowledge?kind=${field(e.currentTarget, 'kind').value}&status=${field(e.currentTarget, 'status').value}`;
      },
    },
    h(
      'select',
      { name: 'kind' },
      ['', ...KINDS].map((k) => h('option', { value: k, selected: k === kind }, k || 'every kind')),
    ),
    h(
      'select',
      { name: 'status' },
      ['', ...STATUSES].map((s) =>
        h(
          'option',
          { value: s, selected: s === status },
          s ? `${s} (${list.counts[s] ?? 0})` : 'every status',
        ),
      ),
    ),
  );
  const table =
    list.items.length === 0
      ? empty('No knowledge matches: remember something, or let the sleep consolidate episodes.')
      : h(
          'table',
          { id: 'knowledge-list' },
          h(
            'tr',
            {},
            ['id', 'kind', 'status', 'subject', 'content'].map((c) => h('th', {}, c)),
          ),
          list.items.map((k) =>
            h(
              'tr',
              {},
              h('td', {}, k.id),
              h('td', {}, k.kind),
              h('td', {}, h('span', { class: `tag ${k.status}` }, k.status)),
              h('td', {}, k.subject ?? ''),
              h('td', {}, k.content),
            ),
          ),
        );
  return {
    nodes: [
      h('h1', {}, 'Knowledge'),
      h('h2', {}, `Needs review (${review.items.length})`),
      queue,
      failure,
      h('h2', {}, 'Browse'),
      filter,
      table,
    ],
  };
};
