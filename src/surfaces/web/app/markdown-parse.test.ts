import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown-parse.js';

describe('parseMarkdown (the briefing and journal subset)', () => {
  it('reads a briefing: title, headline, sections and their items', () => {
    const md = '# Briefing 2026-11-01\n\nWhile you were away: 2 new.\n\n## New knowledge\n\n- fact: **Ana** prefers `squash`\n- preference: *short* answers\n\n## Warnings\n\n1. one\n2. two\n';
    expect(parseMarkdown(md)).toEqual([
      { type: 'heading', level: 1, spans: [{ type: 'text', text: 'Briefing 2026-11-01' }] },
      { type: 'para', spans: [{ type: 'text', text: 'While you were away: 2 new.' }] },
      { type: 'heading', level: 2, spans: [{ type: 'text', text: 'New knowledge' }] },
      {
        type: 'list',
        ordered: false,
        items: [
          [{ type: 'text', text: 'fact: ' }, { type: 'strong', text: 'Ana' }, { type: 'text', text: ' prefers ' }, { type: 'code', text: 'squash' }],
          [{ type: 'text', text: 'preference: ' }, { type: 'em', text: 'short' }, { type: 'text', text: ' answers' }],
        ],
      },
      { type: 'heading', level: 2, spans: [{ type: 'text', text: 'Warnings' }] },
      { type: 'list', ordered: true, items: [[{ type: 'text', text: 'one' }], [{ type: 'text', text: 'two' }]] },
    ]);
  });

  it('keeps HTML and unsafe links as text', () => {
    expect(parseInline('<img src=x onerror="alert(1)"> and <script>x</script>')).toEqual([
      { type: 'text', text: '<img src=x onerror="alert(1)"> and <script>x</script>' },
    ]);
    expect(parseInline('[click](javascript:alert(1))')).toEqual([{ type: 'text', text: '[click](javascript:alert(1))' }]);
    expect(parseInline('[docs](https://example.com/a) and [there](#/timeline)')).toEqual([
      { type: 'link', text: 'docs', href: 'https://example.com/a' },
      { type: 'text', text: ' and ' },
      { type: 'link', text: 'there', href: '#/timeline' },
    ]);
  });

  it('keeps fenced code verbatim and joins wrapped paragraph lines', () => {
    expect(parseMarkdown('a line\ncontinued\n\n```\n# not a heading\n- not a list\n```')).toEqual([
      { type: 'para', spans: [{ type: 'text', text: 'a line continued' }] },
      { type: 'code', text: '# not a heading\n- not a list' },
    ]);
  });
});
