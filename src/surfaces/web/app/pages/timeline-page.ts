/** Timeline: the raw history, newest first, archived episodes included, 50 a page; filtered by session and day. */
import { api } from '../api.js';
import type { TimelineAnswer } from '../api-types.js';
import { empty, field, h, when, type Page } from '../dom.js';
import { emptyReason } from '../empty-reason.js';

const PAGE = 50;
const DAY_MS = 86_400_000;

export const render: Page = async (params) => {
  const offset = Math.max(0, Number(params.get('offset') ?? 0) || 0);
  const session = params.get('session') ?? '';
  const day = /^\d{4}-\d{2}-\d{2}$/u.test(params.get('day') ?? '') ? params.get('day')! : '';
  const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (session) query.set('session', session);
  if (day) {
    // One UTC day, as `when` prints times.
    query.set('from', String(Date.parse(`${day}T00:00:00Z`)));
    query.set('to', String(Date.parse(`${day}T00:00:00Z`) + DAY_MS - 1));
  }
  const p = await api<TimelineAnswer>(`/v1/timeline?${query.toString()}`);
  const link = (o: { session?: string; day?: string; offset?: number }) => {
    const q = new URLSearchParams();
    const s = o.session ?? session;
    const d = o.day ?? day;
    if (s) q.set('session', s);
    if (d) q.set('day', d);
    if (o.offset) q.set('offset', String(o.offset));
    return `#/timeline?${q.toString()}`;
  };
  const filter = h(
    'form',
    {
      class: 'row',
      id: 'timeline-filter',
      onsubmit: (e) => {
        e.preventDefault();
        location.hash = link({ session: field(e.currentTarget, 'session').value.trim(), day: field(e.currentTarget, 'day').value });
      },
    },
    h('label', {}, 'Session ', h('input', { name: 'session', value: session, placeholder: 'any session', size: 24 })),
    h('label', {}, 'Day ', h('input', { type: 'date', name: 'day', value: day })),
    h('button', {}, 'Filter'),
    session || day ? h('a', { href: '#/timeline' }, 'clear') : null,
  );
  if (p.total === 0) {
    const reason =
      session || day
        ? `No turns${session ? ` in session “${session}”` : ''}${day ? ` on ${day}` : ''}.`
        : await emptyReason('briefing', 'No history yet: record turns (tidepool record, POST /v1/ingest) and they appear here.');
    return { nodes: [h('h1', {}, 'Timeline'), filter, empty(reason)] };
  }
  const nav = (id?: string) =>
    h(
      'div',
      { class: 'row' },
      offset > 0 ? h('a', { href: link({ offset: Math.max(0, offset - PAGE) }) }, '← newer') : null,
      h('span', { class: 'muted' }, `${offset + 1}–${offset + p.items.length} of ${p.total}`),
      offset + PAGE < p.total ? h('a', { href: link({ offset: offset + PAGE }), id }, 'older →') : null,
    );
  const rows = p.items.map((e) =>
    h(
      'tr',
      { 'data-id': e.id },
      h('td', {}, h('a', { href: `#/conversation?id=${e.id}`, title: 'read it in its conversation' }, when(e.occurred_at))),
      h('td', { class: 'speaker' }, e.speaker ?? e.role ?? ''),
      h('td', {}, e.session ? h('a', { href: link({ session: e.session, offset: 0 }) }, e.session) : ''),
      h('td', {}, e.kind, e.archived ? h('span', { class: 'tag' }, 'archived') : null),
      h('td', {}, e.text),
    ),
  );
  return {
    nodes: [
      h('h1', {}, 'Timeline'),
      filter,
      nav('older'),
      h(
        'table',
        { id: 'timeline' },
        h(
          'tr',
          {},
          ['when', 'who', 'session', 'kind', 'content'].map((c) => h('th', {}, c)),
        ),
        rows,
      ),
      nav(),
    ],
  };
};
