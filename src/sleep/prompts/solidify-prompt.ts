/**
 * L0 solidify, which reads the day's text once: unindexed conversation chunks → 0-3 narratives each, linked back to
 * their episodes (SEEDS §1.8), and in the same answer the librarian's proposals for those turns (SEEDS §3.3).
 */

import { z } from 'zod';
import { librarianProposalSchema } from './librarian-prompt.js';
import { renderPacket, type PacketEntry, type PacketText } from './packet-text.js';
import { buildPrompt, type BuiltPrompt, type PacketTurn, type PromptOptions } from './prompt.js';
import { id, score, text } from './schema-parts.js';

/** One chunk of the Layer-0 scan (track B): consecutive turns with ≤ 10-minute gaps (SEEDS §1.7). */
export interface SolidifyChunk {
  id: string;
  turns: PacketTurn[];
}

/** Input of the solidify step. */
export interface SolidifyInput {
  chunks: SolidifyChunk[];
  /** Tags already in use that tonight's turns may reuse (SEEDS §1.8 tag hygiene). */
  knownTags?: string[];
  /** The nearest knowledge entries, which the proposals may confirm, merge, link or supersede. */
  nearest?: PacketEntry[];
  /** Episodes outside any chunk (tool results, notes, short exchanges): proposals only, under `# -`. */
  other?: PacketTurn[];
}

/** The scanner cuts each row to 300 characters (SEEDS §1.7); the prompt does the same. */
const TURN_CHARS = 300;
/** At most this many known tags are shown. */
const KNOWN_TAGS_SHOWN = 40;
/** The header of the block of episodes outside any chunk: knowledge may come from them, narratives not. */
export const OTHER_BLOCK = '-';
/** Answer cap: about 350 tokens per chunk for up to 3 short narratives, plus the proposals, bounded. */
const TOKENS_PER_CHUNK = 350;
const PROPOSAL_TOKENS = 600;
const MAX_ANSWER_TOKENS = 4_000;

/**
 * Response schema: narratives naming the chunk they came from; source links are filled in by `acceptSolidified`.
 * Strict: a missing `narratives` or an unknown top-level key is a bad answer (retried once, then skipped).
 */
export const solidifyResponseSchema = z.strictObject({
  narratives: z.array(
    z.object({
      chunk: id,
      gesture: text(500),
      context: text(1_000).optional(),
      moment: text(1_000).optional(),
      cognition_direction: text(1_000).optional(),
      entities_role: text(300).optional(),
      tags: z.array(text(40)).min(1),
      importance: score,
      emotional: score,
      unresolved: score,
    }),
  ),
  proposals: z.array(librarianProposalSchema),
});

/** A parsed solidify answer. */
export type SolidifyResponse = z.infer<typeof solidifyResponseSchema>;

/** A prompt over turns: the request, and the packet's turn numbers and folding (to map evidence back, and log). */
export type TurnPrompt = BuiltPrompt & Pick<PacketText, 'refs' | 'fold'>;

/** Builds the solidify prompt: one text packet (`packet-text.ts`) with the chunks, tags in use and nearest entries. */
export function buildSolidifyPrompt(input: SolidifyInput, options: PromptOptions = {}): TurnPrompt {
  const packet = renderPacket({
    tags: (input.knownTags ?? []).slice(0, KNOWN_TAGS_SHOWN),
    knowledge: input.nearest ?? [],
    blocks: [
      ...input.chunks.map((c) => ({ id: c.id, turns: c.turns })),
      ...(input.other !== undefined && input.other.length > 0 ? [{ id: OTHER_BLOCK, turns: input.other }] : []),
    ],
    turnChars: TURN_CHARS,
  });
  const maxTokens = Math.min(MAX_ANSWER_TOKENS, TOKENS_PER_CHUNK * Math.max(1, input.chunks.length) + PROPOSAL_TOKENS);
  return { ...buildPrompt('solidify', packet.text, maxTokens, options), refs: packet.refs, fold: packet.fold };
}

/** A narrative ready to store: the model's fields plus the source links of its chunk. */
export type SolidifiedNarrative = Omit<SolidifyResponse['narratives'][number], 'chunk'> & {
  chunk: string;
  sourceLinks: string[];
};

/** Narratives per chunk (SEEDS §1.8: "0-3 narratives"); tags per narrative (SEEDS §1.8: "3-5 tags"). */
export const MAX_NARRATIVES_PER_CHUNK = 3;
export const MAX_TAGS = 5;

/**
 * Checks an answer against the chunks that were shown: narratives naming an unknown chunk are dropped, at most 3
 * per chunk are kept, tags are de-duplicated and capped at 5, and source_links become that chunk's episode ids
 * (SEEDS §1.8: "source_links = that chunk's context_ids").
 */
export function acceptSolidified(
  answer: Pick<SolidifyResponse, 'narratives'>,
  chunks: readonly SolidifyChunk[],
): { narratives: SolidifiedNarrative[]; dropped: number } {
  const byId = new Map(chunks.map((c) => [c.id, c]));
  const perChunk = new Map<string, number>();
  const narratives: SolidifiedNarrative[] = [];
  let dropped = 0;
  for (const n of answer.narratives) {
    const chunk = byId.get(n.chunk);
    const count = perChunk.get(n.chunk) ?? 0;
    if (chunk === undefined || count >= MAX_NARRATIVES_PER_CHUNK) {
      dropped += 1;
      continue;
    }
    perChunk.set(n.chunk, count + 1);
    const tags = [...new Set(n.tags)].slice(0, MAX_TAGS);
    narratives.push({ ...n, tags, sourceLinks: chunk.turns.map((t) => t.id) });
  }
  return { narratives, dropped };
}
