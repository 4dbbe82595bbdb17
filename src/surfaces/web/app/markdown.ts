/** Renders the safe markdown subset (`markdown-parse.ts`) as DOM nodes with text content only: nothing is parsed as HTML. */
import { h } from './dom.js';
import { parseMarkdown, type Span } from './markdown-parse.js';

function spans(list: readonly Span[]): Node[] {
  return list.map((s) => {
    if (s.type === 'text') return document.createTextNode(s.text);
    if (s.type === 'link') return h('a', { href: s.href, rel: 'noopener noreferrer' }, s.text);
    return h(s.type, {}, s.text);
  });
}

/** A markdown text as nodes; headings move one level down, because the page's own title is the h1. */
export function renderMarkdown(text: string): Node[] {
  return parseMarkdown(text).map((b) => {
    if (b.type === 'heading') return h(`h${Math.min(6, b.level + 1)}` as 'h2', {}, spans(b.spans));
    if (b.type === 'list') return h(b.ordered ? 'ol' : 'ul', {}, b.items.map((i) => h('li', {}, spans(i))));
    if (b.type === 'code') return h('pre', {}, h('code', {}, b.text));
    return h(b.type === 'quote' ? 'blockquote' : 'p', {}, spans(b.spans));
  });
}
