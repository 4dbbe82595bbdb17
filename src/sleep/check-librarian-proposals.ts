/** Checks every librarian proposal for scope and secrets before anything is applied (SEEDS §3.3, DESIGN §6). */

import type { LibrarianProposal } from './prompts/librarian-prompt.js';

/** What the librarian was shown: it may only touch these ids. */
export interface ProposalScope {
  episodeIds: readonly string[];
  knowledgeIds: readonly string[];
}

/** Why a proposal was refused: it reached outside its packet, carried a secret, or clashed with an earlier one. */
export type ProposalRejection = {
  proposal: LibrarianProposal;
  reason: 'scope' | 'secret' | 'conflict';
  detail: string;
};

/** Proposals that may be applied (evidence reduced to shown episodes) and the refused ones with reasons. */
export interface CheckedProposals {
  accepted: LibrarianProposal[];
  rejected: ProposalRejection[];
}

/**
 * Schema checks happened in `askStructured`; this checks meaning. confirm: a shown entry, once per answer, with
 * evidence reduced to shown episodes (at least one left); merge: ≥ 2 distinct shown knowledge ids;
 * abstract: evidence reduced to shown episodes, at least one left; supersede: `old` is a shown entry; link: both
 * ends are shown entries or `ref`s of accepted new entries, not a self-link, not a duplicate. An entry can be merged
 * or superseded once per answer (the second proposal is a conflict). Any content or key for which
 * `containsSecret` is true is refused (the same detector that guards `remember`).
 * Links may name an entry that the same answer merges or supersedes; the applier redirects them to the new entry.
 */
export function checkLibrarianProposals(
  proposals: readonly LibrarianProposal[],
  scope: ProposalScope,
  options: { containsSecret: (text: string) => boolean },
): CheckedProposals {
  const episodes = new Set(scope.episodeIds);
  const knowledge = new Set(scope.knowledgeIds);
  const consumed = new Set<string>();
  const refs = new Set<string>();
  const verdicts = new Map<
    LibrarianProposal,
    { ok: true; accepted: LibrarianProposal } | { ok: false; rejection: ProposalRejection }
  >();
  const accept = (p: LibrarianProposal, accepted: LibrarianProposal) =>
    verdicts.set(p, { ok: true, accepted });
  const reject = (p: LibrarianProposal, reason: ProposalRejection['reason'], detail: string) =>
    verdicts.set(p, { ok: false, rejection: { proposal: p, reason, detail } });

  // Entries first, so that a link may point at a ref defined later in the answer.
  const confirmed = new Set<string>();
  for (const p of proposals) {
    if (p.op === 'link') continue;
    if (p.op === 'confirm') {
      const evidence = [...new Set(p.evidence)].filter((e) => episodes.has(e));
      if (!knowledge.has(p.id)) reject(p, 'scope', `confirm names an entry that was not shown: ${p.id}`);
      else if (evidence.length === 0) reject(p, 'scope', 'confirm cites no episode of this group');
      else if (confirmed.has(p.id)) reject(p, 'conflict', `${p.id} is already confirmed in this answer`);
      else {
        confirmed.add(p.id);
        accept(p, { ...p, evidence });
      }
      continue;
    }
    if (
      options.containsSecret(p.content) ||
      (p.op === 'abstract' && p.key !== undefined && options.containsSecret(p.key))
    ) {
      reject(p, 'secret', 'content looks like a credential');
      continue;
    }
    if (p.ref !== undefined && (refs.has(p.ref) || knowledge.has(p.ref))) {
      reject(p, 'conflict', `ref "${p.ref}" is already taken`);
      continue;
    }
    const checked = checkEntry(p, episodes, knowledge, consumed);
    if (typeof checked === 'string') {
      reject(p, checked.startsWith('conflict') ? 'conflict' : 'scope', checked);
      continue;
    }
    if (checked.op === 'merge') for (const i of checked.ids) consumed.add(i);
    if (checked.op === 'supersede') consumed.add(checked.old);
    if (p.ref !== undefined) refs.add(p.ref);
    accept(p, checked);
  }
  const seenLinks = new Set<string>();
  for (const p of proposals) {
    if (p.op !== 'link') continue;
    const known = (x: string) => knowledge.has(x) || refs.has(x);
    const key = `${p.from}\u0000${p.to}\u0000${p.type}`;
    if (!known(p.from) || !known(p.to))
      reject(p, 'scope', `link ${p.from} → ${p.to} names an entry that was not shown`);
    else if (p.from === p.to) reject(p, 'scope', 'an entry cannot link to itself');
    else if (seenLinks.has(key)) reject(p, 'conflict', 'duplicate link');
    else {
      seenLinks.add(key);
      accept(p, p);
    }
  }
  const accepted: LibrarianProposal[] = [];
  const rejected: ProposalRejection[] = [];
  for (const p of proposals) {
    const v = verdicts.get(p);
    if (v?.ok === true) accepted.push(v.accepted);
    else if (v !== undefined) rejected.push(v.rejection);
  }
  return { accepted, rejected };
}

/** The proposal with its evidence reduced to shown episodes, or a reason (prefixed `conflict` for clashes). */
function checkEntry(
  p: Exclude<LibrarianProposal, { op: 'link' | 'confirm' }>,
  episodes: ReadonlySet<string>,
  knowledge: ReadonlySet<string>,
  consumed: ReadonlySet<string>,
): LibrarianProposal | string {
  switch (p.op) {
    case 'merge': {
      const ids = [...new Set(p.ids)];
      if (ids.some((i) => !knowledge.has(i)))
        return `merge names an entry that was not shown: ${ids.join(', ')}`;
      if (ids.length < 2) return 'merge needs two distinct entries';
      if (ids.some((i) => consumed.has(i)))
        return 'conflict: an entry is already merged or superseded in this answer';
      return { ...p, ids };
    }
    case 'abstract': {
      const evidence = [...new Set(p.evidence)].filter((e) => episodes.has(e));
      if (evidence.length === 0) return 'abstract cites no episode of this group';
      return { ...p, evidence };
    }
    case 'supersede': {
      if (!knowledge.has(p.old)) return `supersede names an entry that was not shown: ${p.old}`;
      if (consumed.has(p.old)) return 'conflict: the entry is already merged or superseded in this answer';
      const evidence = [...new Set(p.evidence ?? [])].filter((e) => episodes.has(e));
      return { ...p, evidence };
    }
  }
}
