import { describe, expect, it } from 'vitest';
import { parseDroppingInvalidItems } from '../llm/ask-structured.js';
import { buildLibrarianPrompt, librarianResponseSchema } from './librarian-prompt.js';

const nearest = Array.from({ length: 7 }, (_, i) => ({
  id: `k${i}`,
  kind: 'fact',
  status: 'reliable',
  content: `fact ${i}`,
}));

describe('librarian prompt', () => {
  it('shows the episodes through the redactor and only the 5 nearest entries', () => {
    const p = buildLibrarianPrompt(
      { episodes: [{ id: 'e1', text: 'Mara Berg wrote the plan' }], nearest },
      { redact: (t) => t.replace('Mara Berg', '[person_1]') },
    );
    const payload = JSON.parse(p.messages[0]?.content ?? '') as {
      episodes: unknown[];
      knowledge: Array<{ id: string }>;
    };
    expect(payload.episodes).toEqual([{ id: 'e1', text: '[person_1] wrote the plan' }]);
    expect(payload.knowledge.map((k) => k.id)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4']);
    expect(p.messages[0]?.content).not.toContain('Mara');
  });

  it('parses all four operations, normalising kinds and link types', () => {
    const r = librarianResponseSchema.parse({
      proposals: [
        { op: 'merge', ids: ['k1', 2], kind: 'Fact', content: 'merged' },
        {
          op: 'abstract',
          kind: 'open problem',
          content: 'why?',
          evidence: ['e1'],
          key: 'x.y',
          valid_from: '2026-09-01',
        },
        { op: 'link', from: 'n1', to: 'k2', type: 'caused-by' },
        { op: 'supersede', old: 'k3', kind: 'procedure', content: 'new way' },
      ],
    });
    expect(r.proposals[0]).toMatchObject({ ids: ['k1', '2'], kind: 'fact' });
    expect(r.proposals[1]).toMatchObject({ kind: 'open_problem' });
    expect(r.proposals[2]).toMatchObject({ type: 'caused' });
  });

  it('drops proposals with an unknown op, a bad kind, one merge id or a bad date, and keeps the rest', () => {
    const r = parseDroppingInvalidItems(
      {
        proposals: [
          { op: 'delete', id: 'k1' },
          { op: 'abstract', kind: 'rumour', content: 'x', evidence: ['e1'] },
          { op: 'merge', ids: ['k1'], kind: 'fact', content: 'x' },
          { op: 'abstract', kind: 'fact', content: 'x', evidence: ['e1'], valid_from: 'someday' },
          { op: 'link', from: 'k1', to: 'k2', type: 'about' },
        ],
      },
      librarianResponseSchema,
    );
    expect(r).toMatchObject({ ok: true, dropped: 4, value: { proposals: [{ op: 'link' }] } });
  });
});
