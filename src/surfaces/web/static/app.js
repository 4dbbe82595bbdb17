// Tidepool dashboard: hash-routed pages over the /v1 API; plain DOM, charts as inline SVG, works offline.
import { barChart, forceGraph, heatCells } from './charts.js';

const main = document.getElementById('main');
const h = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : String(k));
  return e;
};
const when = (ms) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
const empty = (text) => h('p', { class: 'empty' }, text);

/** Calls the API with the stored token; a 401 asks for a token. */
async function api(path, opts = {}) {
  const token = localStorage.getItem('tidepool.token');
  const headers = { ...(opts.body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const res = await fetch(path, { ...opts, headers });
  const data = await res.json().catch(() => ({}));
  if (res.status === 401) { askToken(); throw new Error('a token is needed'); }
  if (!res.ok) throw new Error(data.error?.message ?? `HTTP ${res.status}`);
  return data;
}

function askToken() {
  main.replaceChildren(h('div', { class: 'card' }, h('p', {}, 'This server needs an API token (tidepool token create --space S --scope read|write|admin).'),
    h('form', { class: 'row', onsubmit: (e) => { e.preventDefault(); localStorage.setItem('tidepool.token', e.target.token.value.trim()); route(); } },
      h('input', { name: 'token', placeholder: 'tp_…', size: 50 }), h('button', { class: 'primary' }, 'Use token'))));
}

const pages = {
  async briefing(params) {
    const date = params.get('date') ?? '';
    const r = await api(`/v1/briefing${date ? `?date=${encodeURIComponent(date)}` : ''}`);
    const picker = h('form', { class: 'row', onsubmit: (e) => { e.preventDefault(); location.hash = `#/briefing?date=${e.target.date.value}`; } },
      h('label', {}, 'Day ', h('input', { type: 'date', name: 'date', value: date || r.briefing?.day || '' })), h('button', {}, 'Show'),
      date ? h('a', { href: '#/briefing' }, 'newest') : null);
    if (!r.briefing) { document.title = 'Tidepool — no briefing'; return [h('h1', {}, 'Briefing'), picker, empty(r.message)]; }
    const b = r.briefing;
    document.title = b.headline;
    const prev = new Date(Date.parse(b.day) - 86_400_000).toISOString().slice(0, 10);
    return [h('h1', { id: 'headline' }, b.headline), h('p', { class: 'muted' }, `${b.day}${r.today ? ' (today)' : ''} · `, h('a', { href: `#/briefing?date=${prev}` }, 'previous day')),
      picker, h('div', { class: 'card' }, h('pre', { class: 'body' }, b.body))];
  },

  async knowledge(params) {
    const kind = params.get('kind') ?? '', status = params.get('status') ?? '';
    const review = await api('/v1/knowledge?status=quarantined&limit=100');
    const list = await api(`/v1/knowledge?limit=100${kind ? `&kind=${kind}` : ''}${status ? `&status=${status}` : ''}`);
    const decide = async (id, decision) => { await api(`/v1/knowledge/${id}/review`, { method: 'POST', body: JSON.stringify({ decision }) }); route(); };
    const queue = review.items.length === 0 ? empty('Nothing needs review: contradicting knowledge is quarantined here by the nightly sleep.')
      : h('table', { id: 'review-queue' }, h('tr', {}, h('th', {}, 'id'), h('th', {}, 'content'), h('th', {}, 'why'), h('th', {}, '')),
        review.items.map((k) => h('tr', { 'data-id': k.id }, h('td', {}, k.id), h('td', {}, k.content), h('td', { class: 'muted' }, k.reason ?? ''),
          h('td', {}, h('button', { class: 'primary', onclick: () => decide(k.id, 'approve') }, 'Approve'), ' ', h('button', { onclick: () => decide(k.id, 'reject') }, 'Reject')))));
    const filter = h('form', { class: 'row', onchange: (e) => { const f = e.currentTarget; location.hash = `#/knowledge?kind=${f.kind.value}&status=${f.status.value}`; } },
      h('select', { name: 'kind' }, ['', 'fact', 'entity', 'preference', 'procedure', 'concept', 'open_problem', 'recipe'].map((k) => h('option', { value: k, selected: k === kind }, k || 'every kind'))),
      h('select', { name: 'status' }, ['', 'provisional', 'reliable', 'quarantined', 'superseded', 'forgotten'].map((s) => h('option', { value: s, selected: s === status }, s ? `${s} (${list.counts[s] ?? 0})` : 'every status'))));
    const table = list.items.length === 0 ? empty('No knowledge matches: remember something, or let the sleep consolidate episodes.')
      : h('table', { id: 'knowledge-list' }, h('tr', {}, ['id', 'kind', 'status', 'subject', 'content'].map((c) => h('th', {}, c))),
        list.items.map((k) => h('tr', {}, h('td', {}, k.id), h('td', {}, k.kind), h('td', {}, h('span', { class: `tag ${k.status}` }, k.status)), h('td', {}, k.subject ?? ''), h('td', {}, k.content))));
    return [h('h1', {}, 'Knowledge'), h('h2', {}, `Needs review (${review.items.length})`), queue, h('h2', {}, 'Browse'), filter, table];
  },

  async map() {
    const m = await api('/v1/map');
    const topics = m.topics.length === 0 ? empty('No topic clusters yet: run `tidepool script topics` or wait for the nightly run.')
      : barChart(m.topics.map((t) => ({ label: t.name, value: t.size })));
    const soft = m.soft.kind !== 'list' ? empty(m.soft.message ?? 'No soft clusters yet.') : barChart(m.soft.clusters.map((c) => ({ label: c.name, value: c.memberCount, color: '#5a8f29' })));
    const heat = m.heatmap.clusters.length === 0 && m.heatmap.neverLit.length === 0 ? empty(m.heatmapMessage ?? 'No attention recorded yet.')
      : h('div', {}, heatCells(m.heatmap.clusters, m.heatmap.neverLit), m.heatmap.neverLit.length ? h('p', { class: 'muted' }, `Never lit: ${m.heatmap.neverLit.join(', ')}`) : null);
    return [h('h1', {}, 'Map'), h('h2', {}, 'Topic clusters'), h('div', { id: 'topics' }, topics), h('h2', {}, 'Soft clusters'), h('div', { id: 'soft' }, soft),
      h('h2', {}, `Attention, last 7 days (${m.heatmap.totalHits} hits)`), h('div', { id: 'heatmap' }, heat)];
  },

  async graph() {
    const g = await api('/v1/graph');
    if (g.nodes.length === 0) return [h('h1', {}, 'Graph'), empty(g.message ?? 'The entity graph is empty.')];
    const detail = h('div', { class: 'card', id: 'graph-detail' }, 'Click an entity to see who it appears with; drag to move.');
    const svg = forceGraph(g.nodes, g.edges, { onSelect: (p, links) => detail.replaceChildren(h('strong', {}, p.entity), ` — ${p.mentionCount} mentions; with `,
      links.map((l) => `${l.s === p ? l.t.entity : l.s.entity} (${l.count})`).join(', ') || 'nobody') });
    return [h('h1', {}, 'Graph'), h('div', { class: 'card' }, svg), detail];
  },

  async timeline(params) {
    const offset = Number(params.get('offset') ?? 0), limit = 50;
    const p = await api(`/v1/timeline?limit=${limit}&offset=${offset}`);
    if (p.total === 0) return [h('h1', {}, 'Timeline'), empty('No history yet: record turns (tidepool record, POST /v1/ingest) and they appear here.')];
    const nav = h('div', { class: 'row' }, offset > 0 ? h('a', { href: `#/timeline?offset=${Math.max(0, offset - limit)}` }, '← newer') : null,
      h('span', { class: 'muted' }, `${offset + 1}–${offset + p.items.length} of ${p.total}`), offset + limit < p.total ? h('a', { href: `#/timeline?offset=${offset + limit}`, id: 'older' }, 'older →') : null);
    return [h('h1', {}, 'Timeline'), nav, h('table', { id: 'timeline' }, h('tr', {}, ['when', 'who', 'kind', 'content'].map((c) => h('th', {}, c))),
      p.items.map((e) => h('tr', {}, h('td', {}, when(e.occurredAt)), h('td', {}, e.speaker ?? e.role ?? ''), h('td', {}, e.kind, e.archivedAt ? h('span', { class: 'tag' }, 'archived') : null), h('td', {}, e.content)))), nav.cloneNode(true)];
  },

  async search(params) {
    const q = params.get('q') ?? '', layers = (params.get('layers') ?? '').split(',').filter(Boolean);
    const form = h('form', { class: 'row', onsubmit: (e) => { e.preventDefault(); const f = e.target; const ls = ['episode', 'narrative', 'knowledge'].filter((l) => f[l].checked);
      location.hash = `#/search?q=${encodeURIComponent(f.q.value)}&layers=${ls.join(',')}`; } },
      h('input', { name: 'q', value: q, placeholder: 'what do you remember about…', size: 40 }),
      ['episode', 'narrative', 'knowledge'].map((l) => h('label', {}, h('input', { type: 'checkbox', name: l, checked: layers.length === 0 || layers.includes(l) }), ` ${l}`)),
      h('button', { class: 'primary' }, 'Search'));
    if (!q.trim()) return [h('h1', {}, 'Search'), form, empty('Type a query to recall memories.')];
    const r = await api(`/v1/recall?q=${encodeURIComponent(q)}&limit=30${layers.length ? `&layers=${layers.join(',')}` : ''}`);
    const hits = r.hits.length === 0 ? empty(`Nothing found for “${q}”.`)
      : h('table', { id: 'hits' }, r.hits.map((x) => h('tr', {}, h('td', {}, x.id), h('td', {}, h('span', { class: 'tag' }, x.layer)), h('td', {}, x.text), h('td', { class: 'muted' }, x.score.toFixed(3)))));
    return [h('h1', {}, 'Search'), form, hits];
  },

  async settings(params) {
    const root = params.get('root') ?? '';
    const ws = await api('/v1/journal/workspaces');
    const pick = h('form', { class: 'row', onsubmit: (e) => { e.preventDefault(); location.hash = `#/settings?root=${encodeURIComponent(e.target.root.value.trim())}`; } },
      h('select', { onchange: (e) => { if (e.target.value) location.hash = `#/settings?root=${encodeURIComponent(e.target.value)}`; } },
        h('option', { value: '' }, ws.workspaces.length ? 'registered workspaces…' : 'no registered workspace'), ws.workspaces.map((w) => h('option', { value: w.root, selected: w.root === root }, w.root))),
      h('input', { name: 'root', value: root, placeholder: '/absolute/path/to/workspace', size: 50 }), h('button', {}, 'Open'));
    if (!root) return [h('h1', {}, 'Journal settings'), pick, empty('Pick a registered workspace or paste an absolute path to edit its .tide.json.')];
    const r = await api(`/v1/journal/config?root=${encodeURIComponent(root)}`);
    const status = h('p', { id: 'settings-status', class: 'muted' }, r.warnings.length ? `Warnings: ${r.warnings.join('; ')}` : '');
    const form = h('form', { class: 'grid card', id: 'tide-config', onsubmit: async (e) => {
      e.preventDefault();
      const patch = {};
      for (const [k, v] of Object.entries(r.config)) patch[k] = typeof v === 'boolean' ? e.target[k].checked : Number(e.target[k].value);
      try { await api('/v1/journal/config', { method: 'PUT', body: JSON.stringify({ root: r.root, patch }) }); status.textContent = 'Saved.'; } catch (err) { status.textContent = err.message; status.className = 'error'; }
    } }, Object.entries(r.config).map(([k, v]) => h('label', {}, k, typeof v === 'boolean' ? h('input', { type: 'checkbox', name: k, checked: v }) : h('input', { type: 'number', name: k, value: v }))),
    h('div', { class: 'row' }, h('button', { class: 'primary', type: 'submit' }, 'Save'),
      h('button', { type: 'button', id: 'reset', onclick: async () => { await api('/v1/journal/config', { method: 'PUT', body: JSON.stringify({ root: r.root, reset: true }) }); route(); } }, 'Restore defaults')));
    return [h('h1', {}, 'Journal settings'), pick, h('p', {}, h('code', {}, r.root)), form, status];
  },
};

async function route() {
  const [path, query] = (location.hash.slice(2) || 'briefing').split('?');
  const page = pages[path] ? path : 'briefing';
  for (const a of document.querySelectorAll('nav a')) a.classList.toggle('active', a.getAttribute('href') === `#/${page}`);
  if (page !== 'briefing') document.title = `Tidepool — ${page}`;
  try {
    main.replaceChildren(...(await pages[page](new URLSearchParams(query ?? ''))));
    main.dataset.page = page;
  } catch (e) {
    if (e.message !== 'a token is needed') main.replaceChildren(h('p', { class: 'error' }, e.message));
  }
}

addEventListener('hashchange', route);
api('/v1/health').then((r) => { document.getElementById('space').textContent = r.space ? `space ${r.space}` : ''; }).catch(() => undefined);
route();
