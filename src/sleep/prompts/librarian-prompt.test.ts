import { describe, expect, it } from 'vitest';
import { parseDroppingInvalidItems } from '../llm/ask-structured.js';
import { buildLibrarianPrompt, librarianResponseSchema } from './librarian-prompt.js';

const T0 = Date.UTC(2026, 8, 12, 14, 30);
const nearest = Array.from({ length: 7 }, (_, i) => ({
  id: `k${i}`,
  kind: 'fact',
  status: 'reliable',
  content: `fact ${i}`,
}));

describe('librarian prompt', () => {
  it('shows the episodes through the redactor and only the 5 nearest entries', () => {
    const p = buildLibrarianPrompt(
      { episodes: [{ id: 'e1', at: T0, speaker: 'Mara Berg', role: 'user', text: 'Mara Berg wrote the plan' }], nearest },
      { redact: (t) => t.replace('Mara Berg', '[person_1]') },
    );
    expect(p.messages[0]?.content).toBe(
      [
        'who (user): P=[person_1]',
        'knowledge:',
        ...[0, 1, 2, 3, 4].map((i) => `k${i} fact reliable fact ${i}`),
        '@ 2026-09-12 14:30',
        '1 P [person_1] wrote the plan',
      ].join('\n'),
    );
    expect(p.refs).toEqual(new Map([[1, 'e1']]));
  });

  it('shows who said each turn, when, and the keys of the existing entries; greetings and thanks are folded', () => {
    const p = buildLibrarianPrompt({
      episodes: [
        { id: 'e1', at: T0, speaker: 'Caroline', role: 'user', text: 'I won my first tournament' },
        { id: 'e2', at: T0 + 60_000, speaker: 'Melanie', role: 'user', text: 'Congratulations, Caroline!' },
        { id: 'e3', at: T0 + 120_000, speaker: 'Caroline', role: 'user', text: 'Thanks' },
        { id: 'e4', at: T0 + 3_600_000, speaker: 'Caroline', role: 'user', text: 'Wow! Back again, the finals are on May 3.' },
        { id: 'e5', at: T0 + 3_660_000, speaker: 'Melanie', role: 'user', text: 'I won my first tournament' },
      ],
      nearest: [{ id: 'k1', kind: 'preference', status: 'provisional', key: 'user.editor', content: 'uses vim' }],
    });
    expect(p.messages[0]?.content).toBe(
      [
        'who (user): C=Caroline M=Melanie',
        'knowledge:',
        'k1 preference provisional key=user.editor uses vim',
        '@ 2026-09-12 14:30',
        '1 C I won my first tournament',
        '@ 15:30',
        '4 C Back again, the finals are on May 3.',
        '5 M =1',
      ].join('\n'),
    );
    expect(p.fold).toMatchObject({ turns: 5, fillerTurns: 2, fillerSentences: 3, repeats: 1 });
    // Evidence may cite a folded turn: it was shown to exist by its missing number, and it is in the group.
    expect(p.refs.get(2)).toBe('e2');
  });

  it('takes a missing proposals list or an unknown top-level key as a bad answer', () => {
    expect(librarianResponseSchema.safeParse({ wrong: true }).success).toBe(false);
    expect(librarianResponseSchema.safeParse({}).success).toBe(false);
    expect(librarianResponseSchema.safeParse({ proposals: [], note: 'x' }).success).toBe(false);
    expect(librarianResponseSchema.parse({ proposals: [{ op: 'confirm', id: 'k1', evidence: ['e2'] }] }).proposals[0]).toEqual({
      op: 'confirm',
      id: 'k1',
      evidence: ['e2'],
    });
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
