/** The librarian: one group of episodes (placeholders for personal data) plus the 5 nearest entries → checked proposals. */

import { formatId } from '../../core/ids.js';
import type { Episode, Knowledge } from '../../core/types.js';
import { extractNarratives, type ExtractTurn } from '../../script/extractive-narratives.js';
import { createKeywordExtractor } from '../../script/keywords.js';
import { scanUnindexed } from '../../script/layer0-scan.js';
import { findSecrets } from '../../script/secret-scan.js';
import { loadStopwords } from '../../script/stopwords.js';
import { checkLibrarianProposals } from '../check-librarian-proposals.js';
import { nearestKnowledge } from '../knowledge-writes.js';
import { NightContext } from '../night-context.js';
import type { FoldStats } from '../prompts/fold-turns.js';
import { resolveTurnRefs } from '../prompts/packet-text.js';
import { clip, roleLabel } from '../prompts/prompt.js';
import type { TurnPrompt } from '../prompts/solidify-prompt.js';
import type { Store } from '../../store/port.js';
import {
  buildLibrarianPrompt,
  librarianResponseSchema,
  NEAREST_KNOWLEDGE,
  type LibrarianKnowledge,
  type LibrarianProposal,
} from '../prompts/librarian-prompt.js';
import { insertNarrative } from '../narrative-writes.js';
import { combineDeltas } from '../night-log.js';
import { piiFlagsOf } from '../pii-flags.js';
import { applyRepeats, findRepeats } from '../repeated-knowledge.js';
import { applyLibrarian } from './apply-librarian.js';
import type { EmbedItem, Phase } from './phase.js';

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
): Promise<{ prompt: TurnPrompt; shown: Knowledge[] }> {
  const shown = await nearestEntries(night, episodes);
  const prompt = buildLibrarianPrompt(
    {
      episodes: episodes.map((e) => ({
        id: formatId('episode', e.id),
        at: e.occurredAt,
        speaker: e.speaker,
        role: roleLabel(e),
        text: e.content,
      })),
      nearest: shown.map(packetEntry),
    },
    // Redact first, then cut: a cut could split an e-mail address the detector would no longer see whole.
    { language: night.config.language, redact: (s) => clip(redact(s), LIBRARIAN_EPISODE_CHARS) },
  );
  return { prompt, shown };
}

/** The entries nearest to `episodes` that a proposal may confirm, merge, link or supersede (SEEDS §3.3: 5). */
export function nearestEntries(night: NightContext, episodes: readonly Episode[]): Promise<Knowledge[]> {
  return nearestKnowledge(
    night,
    night.store,
    episodes.map((e) => e.content),
    NEAREST_KNOWLEDGE,
  );
}

/** An entry as a packet shows it (not yet redacted). */
export function packetEntry(k: Knowledge): LibrarianKnowledge {
  return { id: formatId('knowledge', k.id), kind: k.kind, status: k.status, key: k.key, content: k.content };
}

/**
 * Checks proposals read from a turn packet and prepares their apply: evidence given as turn numbers is mapped back
 * to episode ids, then scope (only the packet's episodes and shown entries) and secrets are checked. The apply marks
 * `episodes` consolidated. Shared by the librarian and by solidify, which proposes for the turns it reads.
 */
export function proposalsOutcome(
  night: NightContext,
  proposals: readonly LibrarianProposal[],
  refs: ReadonlyMap<number, string>,
  episodes: readonly Episode[],
  shown: readonly Knowledge[],
) {
  const mapped = proposals.map((p): LibrarianProposal =>
    p.op === 'link' || p.op === 'merge' || p.evidence === undefined ? p : { ...p, evidence: resolveTurnRefs(p.evidence, refs) },
  );
  const checked = checkLibrarianProposals(
    mapped,
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
    delta: { rejected: checked.rejected.length, piiFlags: flagsOf(episodes) },
    apply: (tx: Store) => applyLibrarian(night, tx, checked.accepted, shown, episodes),
  };
}

/** The night log's line on what folding left out of a packet (`fold-turns.ts`), so its loss can be read. */
export function foldReason(fold: FoldStats): string {
  return `read ${fold.turns} turns once; folded ${fold.fillerTurns} filler-only turns, ${fold.fillerSentences} filler sentences, ${fold.leadClauses} leading interjections and ${fold.repeats} repeats (${fold.charsBefore} → ${fold.charsAfter} characters)`;
}

/** Consolidates one group of episodes. */
export const librarianPhase: Phase = async (night, unit) => {
  if (unit.payload.deferred === true) return { delta: { deferred: 1 } };
  const ids = unit.payload.episodeIds ?? [];
  // In the order things happened (imported history is stored long after it was said).
  const episodes = (await night.scope.episodes.getMany(ids)).sort(
    (a, b) => a.occurredAt - b.occurredAt || a.id - b.id,
  );
  const { prompt, shown } = await librarianPrompt(night, episodes, (s) => night.redactor.redact(s));
  const r = await night.ask(prompt, librarianResponseSchema);
  if (r.kind !== 'ok') return { delta: NightContext.missed('librarian', r) };
  const out = proposalsOutcome(night, r.value.proposals, prompt.refs, episodes, shown);
  return {
    ...out,
    delta: { ...out.delta, droppedItems: r.dropped, steps: [{ step: 'librarian', ran: true, reason: foldReason(prompt.fold) }] },
  };
};

/** The consumed episodes that hold contact or bank data in clear, for Needs review (with or without a model). */
function flagsOf(episodes: readonly Episode[]) {
  return piiFlagsOf(episodes.map((e) => ({ ref: formatId('episode', e.id), text: e.content })));
}

let extractor: ((text: string) => string[]) | undefined;
function keywordsOf(text: string): string[] {
  extractor ??= createKeywordExtractor({ stopwords: loadStopwords() });
  return extractor(text);
}

/**
 * Without a model the night still reads its eligible episodes: the conversation turns that no narrative links yet are
 * chunked as the solidify step would chunk them (Layer-0 scan: by session, ≤ 10-minute gaps, ≥ 3 turns) and become
 * extractive narratives (their salient turns, keywords as tags, speakers and named people as `entities_role`,
 * source_links to the turns), so topics, the entity graph, attention and the map have material; then every episode is
 * marked consolidated (recipes and the lifecycle read them), so they do not wake the space again. A statement said
 * again on another day becomes provisional knowledge linked to every episode that said it (`repeated-knowledge.ts`).
 */
export const consumePhase: Phase = async (night, unit) => {
  const ids = unit.payload.episodeIds ?? [];
  const episodes = await night.scope.episodes.getMany(ids);
  const chunks = await unlinkedChunks(night, episodes);
  const extracted = extractNarratives(chunks, { keywords: keywordsOf });
  const repeats = await findRepeats(night, episodes);
  return {
    proposals: { consolidate: ids.length, narratives: extracted, repeated: repeats },
    apply: async (tx) => {
      const embed: EmbedItem[] = [];
      for (const n of extracted) embed.push(await insertNarrative(night, tx, { kind: 'narrative', ntype: 'extractive', searchable: false, ...n }));
      const known = await applyRepeats(night, tx, repeats);
      const consumed = await tx.forSpace(night.space).episodes.markConsolidated(ids, night.asOf);
      return {
        delta: combineDeltas(
          { episodes: consumed, counts: { narratives: extracted.length }, piiFlags: flagsOf(episodes) },
          known.delta,
        ),
        embed: [...embed, ...known.embed],
      };
    },
  };
};

/** Conversation turns among `episodes` that no narrative links, in the Layer-0 scan's chunks. */
async function unlinkedChunks(night: NightContext, episodes: readonly Episode[]): Promise<ExtractTurn[][]> {
  if (episodes.length === 0) return [];
  const byId = new Map(episodes.map((e) => [e.id, e]));
  const oldest = Math.min(...episodes.map((e) => e.createdAt));
  const narratives = await night.scope.narratives.list({ since: oldest, limit: 5_000 });
  const scan = scanUnindexed(
    narratives.map((n) => ({ id: n.id, sourceLinks: n.sourceLinks, createdAt: n.createdAt, hasEmbedding: true })),
    episodes.map((e) => ({ id: e.id, content: e.content, role: e.role, session: e.session, createdAt: e.occurredAt, hasEmbedding: true })),
    { since: Math.min(...episodes.map((e) => e.occurredAt)) - 1 },
  );
  return scan.trackB.chunks.map((c) =>
    c.episodeIds.map((id) => {
      const e = byId.get(id)!;
      return { id, speaker: e.speaker, content: e.content, at: e.occurredAt };
    }),
  );
}
