/** Briefing: today's (newest) briefing or one day's, rendered as formatted text, its headline as the page title. */
import { api } from '../api.js';
import type { BriefingAnswer } from '../api-types.js';
import { empty, field, h, type Page } from '../dom.js';
import { emptyReason } from '../empty-reason.js';
import { renderMarkdown } from '../markdown.js';

const DAY_MS = 86_400_000;

export const render: Page = async (params) => {
  const date = params.get('date') ?? '';
  const r = await api<BriefingAnswer>(`/v1/briefing${date ? `?date=${encodeURIComponent(date)}` : ''}`);
  const picker = h(
    'form',
    {
      class: 'row',
      onsubmit: (e) => {
        e.preventDefault();
        location.hash = `#/briefing?date=${field(e.currentTarget, 'date').value}`;
      },
    },
    h('label', {}, 'Day ', h('input', { type: 'date', name: 'date', value: date || r.briefing?.day || '' })),
    h('button', {}, 'Show'),
    date ? h('a', { href: '#/briefing' }, 'newest') : null,
  );
  if (!r.briefing) {
    const reason = date ? r.message : await emptyReason('briefing', r.message);
    return { title: 'Tidepool — no briefing', nodes: [h('h1', {}, 'Briefing'), picker, empty(reason)] };
  }
  const b = r.briefing;
  // The body repeats the day and the headline the page already shows as its title.
  const body = b.body.replace(/^# Briefing [^\n]*\n+/u, '').replace(`${b.headline}\n`, '');
  const prev = new Date(Date.parse(b.day) - DAY_MS).toISOString().slice(0, 10);
  return {
    title: b.headline,
    nodes: [
      h('h1', { id: 'headline' }, b.headline),
      h(
        'p',
        { class: 'muted' },
        `${b.day}${r.today ? ' (today)' : ''} · `,
        h('a', { href: `#/briefing?date=${prev}` }, 'previous day'),
      ),
      picker,
      h('div', { class: 'card markdown', id: 'briefing-body' }, renderMarkdown(body)),
    ],
  };
};
