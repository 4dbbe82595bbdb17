/** Tidepool dashboard: hash-routed pages over the `/v1` API, each page loaded on demand; bundled by Vite, works offline. */
import './style.css';
import { api, saveToken, TokenNeeded } from './api.js';
import { field, h, type Page } from './dom.js';

type PageName = 'briefing' | 'knowledge' | 'map' | 'graph' | 'timeline' | 'conversation' | 'search' | 'journal' | 'settings';

// Separate chunks: the chart and graph libraries load only with the pages that draw them.
const PAGES: Record<PageName, () => Promise<{ render: Page }>> = {
  briefing: () => import('./pages/briefing-page.js'),
  knowledge: () => import('./pages/knowledge-page.js'),
  map: () => import('./pages/map-page.js'),
  graph: () => import('./pages/graph-page.js'),
  timeline: () => import('./pages/timeline-page.js'),
  conversation: () => import('./pages/conversation-page.js'),
  search: () => import('./pages/search-page.js'),
  journal: () => import('./pages/journal-page.js'),
  settings: () => import('./pages/settings-page.js'),
};

const main = document.getElementById('main') as HTMLElement;
let teardown: (() => void) | void = undefined;
let generation = 0;

function askToken(): void {
  main.replaceChildren(
    h(
      'div',
      { class: 'card' },
      h(
        'p',
        {},
        'This server needs an API token (tidepool token create --space S --scope read|write|admin).',
      ),
      h(
        'form',
        {
          class: 'row',
          onsubmit: (e) => {
            e.preventDefault();
            saveToken(field(e.currentTarget, 'token').value);
            void route();
          },
        },
        h('input', { name: 'token', placeholder: 'tp_…', size: 50 }),
        h('button', { class: 'primary' }, 'Use token'),
      ),
    ),
  );
}

/** Renders the page the hash names; a newer navigation wins over one still loading. */
async function route(): Promise<void> {
  const mine = ++generation;
  const [path = '', query = ''] = (location.hash.slice(2) || 'briefing').split('?');
  const name: PageName = path in PAGES ? (path as PageName) : 'briefing';
  for (const a of document.querySelectorAll('nav a'))
    a.classList.toggle('active', a.getAttribute('href') === `#/${name}`);
  try {
    const view = await (await PAGES[name]()).render(new URLSearchParams(query));
    if (mine !== generation) return;
    teardown?.();
    teardown = undefined;
    document.title = view.title ?? `Tidepool — ${name}`;
    main.replaceChildren(...view.nodes);
    // Only a function is a teardown: a page's mounted hook may end on a call that returns something else.
    const after: unknown = await view.mounted?.();
    teardown = typeof after === 'function' ? (after as () => void) : undefined;
    if (mine === generation) main.dataset.page = name;
  } catch (e) {
    if (mine !== generation) return;
    if (e instanceof TokenNeeded) askToken();
    else main.replaceChildren(h('p', { class: 'error' }, (e as Error).message));
  }
}

addEventListener('hashchange', () => void route());
api<{ space?: string }>('/v1/health')
  .then((r) => {
    (document.getElementById('space') as HTMLElement).textContent = r.space ? `space ${r.space}` : '';
  })
  .catch(() => undefined);
void route();
