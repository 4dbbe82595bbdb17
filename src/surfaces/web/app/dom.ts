/** DOM building for the dashboard pages: one hyperscript helper, form fields by name, empty states. */

/** Attribute values; `on*` keys take listeners, `false`/`null`/`undefined` omit the attribute. */
export type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => unknown)>;
/** Children: nodes, text, nested arrays; `null`/`undefined`/`false` are skipped. */
export type Kid = Node | string | number | null | undefined | false | Kid[];

/** Creates an element with attributes, listeners and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...kids: Kid[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? '' : String(v));
  }
  append(e, kids);
  return e;
}

function append(e: Element, kids: Kid[]): void {
  for (const k of kids) {
    if (Array.isArray(k)) append(e, k);
    else if (k instanceof Node) e.append(k);
    else if (k !== null && k !== undefined && k !== false) e.append(String(k));
  }
}

/** A named control of a form (input or select). */
export function field(form: EventTarget | null, name: string): HTMLInputElement {
  const el = (form as HTMLFormElement).elements.namedItem(name);
  if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement))
    throw new Error(`form has no field ${name}`);
  return el as HTMLInputElement;
}

/** An explanation shown instead of an empty table or chart. */
export const empty = (text: string): HTMLParagraphElement => h('p', { class: 'empty' }, text);

/** `YYYY-MM-DD HH:MM` in UTC, as the CLI prints times. */
export const when = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** What a page renders: its nodes, the title, and work to do once they are in the document (charts need a size). */
export interface PageView {
  nodes: Node[];
  title?: string;
  /** Runs after the nodes are attached; returns a teardown for when the page is left. */
  mounted?: () => Promise<(() => void) | void> | (() => void) | void;
}

/** A page: reads the API with the hash's query parameters and renders. */
export type Page = (params: URLSearchParams) => Promise<PageView>;
