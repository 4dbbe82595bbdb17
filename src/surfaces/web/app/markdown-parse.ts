/**
 * The safe markdown subset the dashboard shows (briefings, journal days), parsed into plain data: headings, lists,
 * paragraphs, quotes, code blocks, **bold**, *italic*, `code`, and links to http(s) or in-page targets only. No HTML
 * is recognised: `<script>` in a memory stays text. Pure (no DOM), so it is tested in Node.
 */

/** An inline run of text. */
export type Span =
  | { type: 'text' | 'strong' | 'em' | 'code'; text: string }
  | { type: 'link'; text: string; href: string };

/** A block of the document. */
export type Block =
  | { type: 'heading'; level: number; spans: Span[] }
  | { type: 'list'; ordered: boolean; items: Span[][] }
  | { type: 'para' | 'quote'; spans: Span[] }
  | { type: 'code'; text: string };

const INLINE = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*|\[[^\]]+\]\([^)\s]+\))/u;

/** Inline marks of one line. */
export function parseInline(text: string): Span[] {
  const out: Span[] = [];
  for (const part of text.split(INLINE)) {
    if (part === '') continue;
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/u.exec(part);
    if (part.length > 4 && part.startsWith('**') && part.endsWith('**')) out.push({ type: 'strong', text: part.slice(2, -2) });
    else if (part.length > 2 && part.startsWith('`') && part.endsWith('`')) out.push({ type: 'code', text: part.slice(1, -1) });
    else if (part.length > 2 && part.startsWith('*') && part.endsWith('*')) out.push({ type: 'em', text: part.slice(1, -1) });
    // Only web and in-page targets: a `javascript:` or `data:` URL stays text.
    else if (link && /^(https?:\/\/|#)/u.test(link[2]!)) out.push({ type: 'link', text: link[1]!, href: link[2]! });
    else {
      const last = out[out.length - 1];
      if (last?.type === 'text') last.text += part;
      else out.push({ type: 'text', text: part });
    }
  }
  return out;
}

/** The blocks of a markdown text. */
export function parseMarkdown(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.replace(/\r\n?/gu, '\n').split('\n');
  let list: Extract<Block, { type: 'list' }> | undefined;
  let para: string[] = [];
  const flush = () => {
    if (para.length > 0) blocks.push({ type: 'para', spans: parseInline(para.join(' ')) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^(#{1,6})\s+(.*)$/u.exec(line);
    const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/u.exec(line);
    if (/^```/u.test(line)) {
      flush();
      list = undefined;
      const code: string[] = [];
      while (++i < lines.length && !/^```/u.test(lines[i]!)) code.push(lines[i]!);
      blocks.push({ type: 'code', text: code.join('\n') });
    } else if (heading) {
      flush();
      list = undefined;
      blocks.push({ type: 'heading', level: heading[1]!.length, spans: parseInline(heading[2]!) });
    } else if (item) {
      flush();
      const ordered = /^\d/u.test(item[1]!);
      if (list === undefined || list.ordered !== ordered) {
        list = { type: 'list', ordered, items: [] };
        blocks.push(list);
      }
      list.items.push(parseInline(item[2]!));
    } else if (/^>\s?/u.test(line)) {
      flush();
      list = undefined;
      blocks.push({ type: 'quote', spans: parseInline(line.replace(/^>\s?/u, '')) });
    } else if (line.trim() === '') {
      flush();
      list = undefined;
    } else {
      list = undefined;
      para.push(line.trim());
    }
  }
  flush();
  return blocks;
}
