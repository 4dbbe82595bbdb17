/** Knowledge: the Needs review queue (approve / reject), browsing by kind and status, edit and forget an entry. */
import { api } from '../api.js';
import type { KnowledgeAnswer, KnowledgeItem, ReviewAnswer } from '../api-types.js';
import { empty, field, h, type Page } from '../dom.js';
import { emptyReason } from '../empty-reason.js';

const KINDS = ['fact', 'entity', 'preference', 'procedure', 'concept', 'open_problem', 'recipe'];
const STATUSES = ['provisional', 'reliable', 'quarantined', 'superseded', 'forgotten'];
const LIVE = new Set(['provisional', 'reliable']);

/** The hash is unchanged after an action, so ask the router to render this page again. */
const rerender = () => dispatchEvent(new HashChangeEvent('hashchange'));

export const render: Page = async (params) => {
  const kind = params.get('kind') ?? '';
  const status = params.get('status') ?? '';
  const query = new URLSearchParams({ limit: '100' });
  if (kind) query.set('kind', kind);
  if (status) query.set('status', status);
  const [review, list] = await Promise.all([
    api<ReviewAnswer>('/v1/review'),
    api<KnowledgeAnswer>(`/v1/knowledge?${query.toString()}`),
  ]);
  const failure = h('p', { id: 'review-status' });
  const fail = (err: unknown) => {
    failure.textContent = (err as Error).message;
    failure.className = 'error';
  };
  const act = async (call: () => Promise<unknown>) => {
    try {
      await call();
      rerender();
    } catch (err) {
      fail(err);
    }
  };
  // Every state change goes through the one path of the server: review, remember (edit) and forget.
  const decide = (id: string, decision: 'approve' | 'reject') =>
    act(() => api(`/v1/knowledge/${encodeURIComponent(id)}/review`, { method: 'POST', body: { decision } }));
  const forget = (k: KnowledgeItem) => {
    if (!confirm(`Forget ${k.id} with every copy of its text? This cannot be undone.`)) return;
    void act(() => api(`/v1/items/${encodeURIComponent(k.id)}`, { method: 'DELETE' }));
  };
  const edit = (k: KnowledgeItem, cell: HTMLElement) => {
    const form = h(
      'form',
      {
        class: 'edit',
        onsubmit: (e) => {
          e.preventDefault();
          const text = (form.elements.namedItem('text') as HTMLTextAreaElement).value;
          void act(() => api(`/v1/knowledge/${encodeURIComponent(k.id)}`, { method: 'PUT', body: { text } }));
        },
      },
      h('textarea', { name: 'text', rows: 3, cols: 60 }, k.content),
      h('button', { class: 'primary' }, 'Save'),
      ' ',
      h('button', { type: 'button', onclick: rerender }, 'Cancel'),
    );
    cell.replaceChildren(form);
    (form.elements.namedItem('text') as HTMLTextAreaElement).focus();
  };

  const queue =
    review.items.length === 0
      ? empty(await emptyReason('review', 'Nothing needs review: contradicting knowledge and personal data in clear wait here after a night.'))
      : h(
          'table',
          { id: 'review-queue' },
          h('tr', {}, h('th', {}, 'id'), h('th', {}, 'content'), h('th', {}, 'why'), h('th', {}, '')),
          review.items.map((k) =>
            h(
              'tr',
              { 'data-id': k.id },
              h('td', {}, h('a', { href: `#/conversation?id=${encodeURIComponent(k.id)}` }, k.id)),
              h('td', {}, k.content),
              h(
                'td',
                { class: 'muted' },
                k.reason,
                k.against ? [h('br', {}), `against ${k.against.id}: ${k.against.content}`] : null,
              ),
              h(
                'td',
                {},
                h('button', { class: 'primary', onclick: () => decide(k.id, 'approve') }, k.personalData ? 'Keep' : 'Approve'),
                ' ',
                h('button', { onclick: () => decide(k.id, 'reject') }, k.personalData ? 'Forget' : 'Reject'),
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
        h('option', { value: s, selected: s === status }, s ? `${s} (${list.counts[s] ?? 0})` : 'every status'),
      ),
    ),
  );
  const anything = Object.values(list.counts).some((n) => n > 0);
  const table =
    list.items.length === 0
      ? empty(anything || kind || status ? 'No knowledge matches this filter.' : await emptyReason('knowledge', 'No knowledge yet: remember something, or let the sleep consolidate episodes.'))
      : h(
          'table',
          { id: 'knowledge-list' },
          h(
            'tr',
            {},
            ['id', 'kind', 'status', 'subject', 'content', ''].map((c) => h('th', {}, c)),
          ),
          list.items.map((k) => {
            const content = h('td', { class: 'content' }, k.content);
            return h(
              'tr',
              { 'data-id': k.id },
              h('td', {}, h('a', { href: `#/conversation?id=${encodeURIComponent(k.id)}` }, k.id)),
              h('td', {}, k.kind),
              h('td', {}, h('span', { class: `tag ${k.status}` }, k.status)),
              h('td', {}, k.subject ?? ''),
              content,
              h(
                'td',
                { class: 'actions' },
                LIVE.has(k.status) ? h('button', { onclick: () => edit(k, content) }, 'Edit') : null,
                ' ',
                h('button', { onclick: () => forget(k) }, 'Forget'),
              ),
            );
          }),
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
