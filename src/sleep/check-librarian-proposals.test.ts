import { describe, expect, it } from 'vitest';
import { findSecrets } from '../script/secret-scan.js';
import { checkLibrarianProposals } from './check-librarian-proposals.js';
import { librarianResponseSchema, type LibrarianProposal } from './prompts/librarian-prompt.js';

const scope = { episodeIds: ['e1', 'e2'], knowledgeIds: ['k1', 'k2', 'k3'] };
const noSecrets = { containsSecret: () => false };
const parse = (proposals: unknown[]): LibrarianProposal[] =>
  librarianResponseSchema.parse({ proposals }).proposals;

describe('checkLibrarianProposals', () => {
  it('accepts proposals within scope, reducing evidence to the shown episodes', () => {
    const r = checkLibrarianProposals(
      parse([
        { op: 'abstract', kind: 'fact', content: 'a', evidence: ['e1', 'e9', 'e1'], ref: 'n1' },
        { op: 'link', from: 'n1', to: 'k1', type: 'about' },
        { op: 'merge', ids: ['k1', 'k2'], kind: 'fact', content: 'b' },
        { op: 'supersede', old: 'k3', kind: 'fact', content: 'c', evidence: ['e7'] },
      ]),
      scope,
      noSecrets,
    );
    expect(r.rejected).toEqual([]);
    expect(r.accepted[0]).toMatchObject({ op: 'abstract', evidence: ['e1'] });
    expect(r.accepted[3]).toMatchObject({ op: 'supersede', evidence: [] });
    expect(r.accepted.map((p) => p.op)).toEqual(['abstract', 'link', 'merge', 'supersede']);
  });

  it('lets a link point at a ref defined later in the same answer', () => {
    const r = checkLibrarianProposals(
      parse([
        { op: 'link', from: 'k1', to: 'n2', type: 'part_of' },
        { op: 'abstract', kind: 'concept', content: 'x', evidence: ['e2'], ref: 'n2' },
      ]),
      scope,
      noSecrets,
    );
    expect(r.accepted).toHaveLength(2);
  });

  it.each([
    [
      'a merge of an entry not shown',
      { op: 'merge', ids: ['k1', 'k99'], kind: 'fact', content: 'x' },
      'scope',
    ],
    ['a merge of one entry twice', { op: 'merge', ids: ['k1', 'k1'], kind: 'fact', content: 'x' }, 'scope'],
    [
      'an abstract without shown evidence',
      { op: 'abstract', kind: 'fact', content: 'x', evidence: ['e9'] },
      'scope',
    ],
    [
      'a supersede of an entry not shown',
      { op: 'supersede', old: 'k42', kind: 'fact', content: 'x' },
      'scope',
    ],
    ['a link to an unknown entry', { op: 'link', from: 'k1', to: 'n7', type: 'about' }, 'scope'],
    ['a self-link', { op: 'link', from: 'k1', to: 'k1', type: 'about' }, 'scope'],
    [
      'a ref that names an existing entry',
      { op: 'abstract', kind: 'fact', content: 'x', evidence: ['e1'], ref: 'k2' },
      'conflict',
    ],
  ])('rejects %s', (_name, proposal, reason) => {
    const r = checkLibrarianProposals(parse([proposal]), scope, noSecrets);
    expect(r.accepted).toEqual([]);
    expect(r.rejected[0]?.reason).toBe(reason);
  });

  it('rejects the second proposal that consumes an already merged or superseded entry, and duplicate links', () => {
    const r = checkLibrarianProposals(
      parse([
        { op: 'merge', ids: ['k1', 'k2'], kind: 'fact', content: 'a' },
        { op: 'supersede', old: 'k2', kind: 'fact', content: 'b' },
        { op: 'link', from: 'k1', to: 'k3', type: 'about' },
        { op: 'link', from: 'k1', to: 'k3', type: 'about' },
      ]),
      scope,
      noSecrets,
    );
    expect(r.accepted.map((p) => p.op)).toEqual(['merge', 'link']);
    expect(r.rejected.map((x) => x.reason)).toEqual(['conflict', 'conflict']);
  });

  it('refuses content or keys that carry a credential, using the secret detector', () => {
    const containsSecret = (t: string) => findSecrets(t).length > 0;
    const key = `sk-proj-${'a1B2c3D4'.repeat(5)}`;
    const r = checkLibrarianProposals(
      parse([
        { op: 'abstract', kind: 'fact', content: `The deploy key is ${key}`, evidence: ['e1'] },
        { op: 'abstract', kind: 'fact', content: 'The deploy uses a key from the vault', evidence: ['e1'] },
      ]),
      scope,
      { containsSecret },
    );
    expect(r.rejected.map((x) => x.reason)).toEqual(['secret']);
    expect(r.accepted).toHaveLength(1);
  });
});
