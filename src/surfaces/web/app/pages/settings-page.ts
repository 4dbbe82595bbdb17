/** Journal settings: pick a workspace, edit its `.tide.json`, save or restore the defaults. */
import { api } from '../api.js';
import type { JournalConfigAnswer } from '../api-types.js';
import { empty, field, h, type Page } from '../dom.js';

const open = (root: string) => {
  location.hash = `#/settings?root=${encodeURIComponent(root)}`;
};

export const render: Page = async (params) => {
  const root = params.get('root') ?? '';
  const ws = await api<{ workspaces: Array<{ root: string }> }>('/v1/journal/workspaces');
  const pick = h(
    'form',
    {
      class: 'row',
      onsubmit: (e) => {
        e.preventDefault();
        open(field(e.currentTarget, 'root').value.trim());
      },
    },
    h(
      'select',
      {
        onchange: (e) => {
          const v = (e.target as HTMLSelectElement).value;
          if (v) open(v);
        },
      },
      h('option', { value: '' }, ws.workspaces.length ? 'registered workspaces…' : 'no registered workspace'),
      ws.workspaces.map((w) => h('option', { value: w.root, selected: w.root === root }, w.root)),
    ),
    h('input', { name: 'root', value: root, placeholder: '/absolute/path/to/workspace', size: 50 }),
    h('button', {}, 'Open'),
  );
  if (!root)
    return {
      nodes: [
        h('h1', {}, 'Journal settings'),
        pick,
        empty('Pick a registered workspace or paste an absolute path to edit its .tide.json.'),
      ],
    };
  const r = await api<JournalConfigAnswer>(`/v1/journal/config?root=${encodeURIComponent(root)}`);
  const status = h(
    'p',
    { id: 'settings-status', class: 'muted' },
    r.warnings.length ? `Warnings: ${r.warnings.join('; ')}` : '',
  );
  const save = async (form: EventTarget | null) => {
    const patch: Record<string, number | boolean> = {};
    for (const [k, v] of Object.entries(r.config))
      patch[k] = typeof v === 'boolean' ? field(form, k).checked : Number(field(form, k).value);
    try {
      await api('/v1/journal/config', { method: 'PUT', body: { root: r.root, patch } });
      status.textContent = 'Saved.';
      status.className = 'muted';
    } catch (err) {
      status.textContent = (err as Error).message;
      status.className = 'error';
    }
  };
  const reset = async () => {
    await api('/v1/journal/config', { method: 'PUT', body: { root: r.root, reset: true } });
    dispatchEvent(new HashChangeEvent('hashchange'));
  };
  const form = h(
    'form',
    {
      class: 'grid card',
      id: 'tide-config',
      onsubmit: (e) => {
        e.preventDefault();
        void save(e.currentTarget);
      },
    },
    Object.entries(r.config).map(([k, v]) =>
      h(
        'label',
        {},
        k,
        typeof v === 'boolean'
          ? h('input', { type: 'checkbox', name: k, checked: v })
          : h('input', { type: 'number', step: 'any', name: k, value: v }),
      ),
    ),
    h(
      'div',
      { class: 'row' },
      h('button', { class: 'primary', type: 'submit' }, 'Save'),
      h('button', { type: 'button', id: 'reset', onclick: reset }, 'Restore defaults'),
    ),
  );
  return { nodes: [h('h1', {}, 'Journal settings'), pick, h('p', {}, h('code', {}, r.root)), form, status] };
};
