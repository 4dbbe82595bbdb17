/** Journal: read a registered workspace's markdown days (hot, cold, pinned), rendered as formatted text. */
import { api } from '../api.js';
import type { JournalDayAnswer, JournalStatsAnswer } from '../api-types.js';
import { empty, h, type Page } from '../dom.js';
import { renderMarkdown } from '../markdown.js';

const href = (root: string, date?: string) =>
  `#/journal?root=${encodeURIComponent(root)}${date ? `&date=${encodeURIComponent(date)}` : ''}`;

export const render: Page = async (params) => {
  const ws = await api<{ workspaces: Array<{ root: string; state: string }> }>('/v1/journal/workspaces');
  if (ws.workspaces.length === 0)
    return {
      nodes: [
        h('h1', {}, 'Journal'),
        empty('No journal workspace is registered for this space: `tidepool journal workspaces --root <dir>` registers one (the server reads only registered workspaces).'),
      ],
    };
  const root = params.get('root') || ws.workspaces[0]!.root;
  const pick = h(
    'select',
    { id: 'journal-root', onchange: (e) => void (location.hash = href((e.target as HTMLSelectElement).value)) },
    ws.workspaces.map((w) => h('option', { value: w.root, selected: w.root === root }, `${w.root}${w.state === 'ready' ? '' : ` (${w.state})`}`)),
  );
  const stats = await api<JournalStatsAnswer>(`/v1/journal/stats?root=${encodeURIComponent(root)}`);
  const days = stats.files.filter((f) => f.date !== undefined).sort((a, b) => (a.date! < b.date! ? 1 : -1));
  const date = params.get('date') ?? days[0]?.date ?? '';
  const list = h(
    'ul',
    { id: 'journal-days', class: 'days' },
    days.map((f) =>
      h(
        'li',
        { class: f.date === date ? 'active' : null },
        h('a', { href: href(root, f.date) }, f.date!),
        ' ',
        h('span', { class: `tag ${f.location}` }, f.location),
        f.pinned ? h('span', { class: 'tag' }, 'pinned') : null,
      ),
    ),
  );
  let view: Node;
  if (!date) view = empty(`No day files yet in ${root}/memory: journal_add writes the first one.`);
  else {
    const day = await api<JournalDayAnswer>(`/v1/journal/day?root=${encodeURIComponent(root)}&date=${encodeURIComponent(date)}`);
    view =
      day.kind === 'missing'
        ? empty(`No day file for ${date} in this workspace (nor in its archive).`)
        : h(
            'div',
            { class: 'card markdown', id: 'journal-day' },
            h('p', { class: 'muted' }, `${day.file} · ${day.location}`),
            renderMarkdown(day.content),
          );
  }
  return {
    title: `Tidepool — journal ${date}`,
    nodes: [
      h('h1', {}, 'Journal'),
      h('div', { class: 'row' }, pick, h('span', { class: 'muted' }, `${stats.tiers['hot'] ?? 0} hot, ${stats.tiers['cold'] ?? 0} cold`)),
      h('div', { class: 'journal' }, list, view),
    ],
  };
};
