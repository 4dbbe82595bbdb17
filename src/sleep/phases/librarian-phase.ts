/** The librarian: one group of episodes (placeholders for personal data) plus the 5 nearest entries → checked proposals. */

import { formatId } from '../../core/ids.js';
import type { Episode, Knowledge } from '../../core/types.js';
import { findSecrets } from '../../script/secret-scan.js';
import { checkLibrarianProposals } from '../check-librarian-proposals.js';
import { nearestKnowledge } from '../knowledge-writes.js';
import { NightContext } from '../night-context.js';
import { clip, roleLabel, type BuiltPrompt } from '../prompts/prompt.js';
import {
  buildLibrarianPrompt,
  librarianResponseSchema,
  NEAREST_KNOWLEDGE,
} from '../prompts/librarian-prompt.js';
import { applyLibrarian } from './apply-librarian.js';
import type { Phase } from './phase.js';

/**
 * Episode and entry texts are cut to 300 characters after redaction (the prompt would allow 800): a group is about meaning,
 * and the cut keeps a 100-episode day's librarian cost near 2,500 tokens.
 */
export const LIBRARIAN_EPISODE_CHARS = 300;

/** The prompt of one group and the entries it showed (the proposals' scope). */
export async function librarianPrompt(
  night: NightContext,
  episodes: readonly Episode[],
  redact: (s: string) => string,
): Promise<{ prompt: BuiltPrompt; shown: Knowledge[] }> {
  const shown = await nearestKnowledge(
    night,
    night.store,
    episodes.map((e) => e.content),
    NEAREST_KNOWLEDGE,
  );
  const prompt = buildLibrarianPrompt(
    {
      episodes: episodes.map((e) => ({
        id: formatId('episode', e.id),
        at: e.occurredAt,
        speaker: e.speaker,
        role: roleLabel(e),
        text: e.content,
      })),
      nearest: shown.map((k) => ({
        id: formatId('knowledge', k.id),
        kind: k.kind,
        status: k.status,
        key: k.key,
        content: k.content,
      })),
    },
    // Redact first, then cut: a cut could split an e-mail address the detector would no longer see whole.
    { language: night.config.language, redact: (s) => clip(redact(s), LIBRARIAN_EPISODE_CHARS) },
  );
  return { prompt, shown };
}

/** Consolidates one group of episodes. */
export const librarianPhase: Phase = async (night, unit) => {
  if (unit.payload.deferred === true) return { delta: { deferred: 1 } };
  const ids = unit.payload.episodeIds ?? [];
  // In the order things happened (imported history is stored long after it was said).
  const episodes = (await night.store.episodes.getMany(night.space, ids)).sort(
    (a, b) => a.occurredAt - b.occurredAt || a.id - b.id,
  );
  const { prompt, shown } = await librarianPrompt(night, episodes, (s) => night.redactor.redact(s));
  const r = await night.ask(prompt, librarianResponseSchema);
  if (r.kind !== 'ok') return { delta: NightContext.missed('librarian', r) };
  const checked = checkLibrarianProposals(
    r.value.proposals,
    {
      episodeIds: episodes.map((e) => formatId('episode', e.id)),
      knowledgeIds: shown.map((k) => formatId('knowledge', k.id)),
    },
    { containsSecret: (t) => findSecrets(t).length > 0 },
  );
  return {
    proposals: {
      accepted: checked.accepted,
      rejected: checked.rejected.map((x) => ({ op: x.proposal.op, reason: x.reason, detail: x.detail })),
    },
    delta: { rejected: checked.rejected.length, droppedItems: r.dropped },
    apply: (tx) => applyLibrarian(night, tx, checked.accepted, shown, episodes),
  };
};

/** Without a model the night still consumes its eligible episodes (recipes and lifecycle read them), so they do not wake it again. */
export const consumePhase: Phase = async (night, unit) => {
  const ids = unit.payload.episodeIds ?? [];
  return {
    proposals: { consolidate: ids.length },
    apply: async (tx) => ({
      delta: { episodes: await tx.sleep.markConsolidated(night.space, ids, night.asOf) },
    }),
  };
};
