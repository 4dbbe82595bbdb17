/** Conversation: a search hit read where it was said — the turns of its session around it, the hit marked. */
import { api } from '../api.js';
import type { ConversationAnswer } from '../api-types.js';
import { empty, h, when, type Page } from '../dom.js';

export const render: Page = async (params) => {
  const id = params.get('id') ?? '';
  if (!id) return { nodes: [h('h1', {}, 'Conversation'), empty('Open a search hit to read it in its conversation.')] };
  let c: ConversationAnswer;
  try {
    c = await api<ConversationAnswer>(`/v1/items/${encodeURIComponent(id)}/conversation?turns=8`);
  } catch (e) {
    return { nodes: [h('h1', {}, 'Conversation'), empty((e as Error).message)] };
  }
  const focus = `e${c.focus.id}`;
  const rows = c.items.map((e) =>
    h(
      'tr',
      { class: e.id === c.focus.id ? 'focus' : null, id: e.id === c.focus.id ? 'focus' : null, 'data-id': `e${e.id}` },
      h('td', {}, when(e.occurredAt)),
      h('td', {}, e.speaker ?? e.role ?? ''),
      h('td', {}, e.content),
    ),
  );
  return {
    title: `Tidepool — conversation around ${id}`,
    nodes: [
      h('h1', {}, 'Conversation'),
      h(
        'p',
        { class: 'muted' },
        id === focus ? `${id}` : `${id} came from ${focus}`,
        c.session ? [' · session ', h('a', { href: `#/timeline?session=${encodeURIComponent(c.session)}` }, c.session)] : ' · no session',
      ),
      h('table', { id: 'conversation' }, h('tr', {}, ['when', 'who', 'said'].map((x) => h('th', {}, x))), rows),
    ],
    mounted: () => {
      document.getElementById('focus')?.scrollIntoView({ block: 'center' });
    },
  };
};
