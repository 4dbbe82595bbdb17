/** The librarian: a group of episodes plus the 5 nearest knowledge entries → merge / abstract / link / supersede (SEEDS §3.3). */

import { z } from 'zod';
import { renderPacket } from './packet-text.js';
import { buildPrompt, type PacketTurn, type PromptOptions } from './prompt.js';
import type { TurnPrompt } from './solidify-prompt.js';
import { id, knowledgeKind, linkType, text } from './schema-parts.js';

/** An episode of the group, as stored: who said it (speaker, role), when, and what. */
export type LibrarianEpisode = PacketTurn;

/** A nearby knowledge entry the librarian may confirm, merge, link or supersede. */
export interface LibrarianKnowledge {
  id: string;
  kind: string;
  status: string;
  /** The entry's stable key, when it has one (an abstract under the same key updates it). */
  key?: string | null;
  content: string;
}

/** Input of one librarian packet. */
export interface LibrarianInput {
  episodes: LibrarianEpisode[];
  /** The nearest existing entries; the caller picks them (SEEDS §3.3: 5). */
  nearest: LibrarianKnowledge[];
}

/** Options of the librarian builder. */
export interface LibrarianPromptOptions extends PromptOptions {
  /**
   * Replaces personal data by placeholders before the model sees any text (DESIGN §10). The night passes the
   * PII redactor here; every episode text and knowledge content goes through it.
   */
  redact?: (text: string) => string;
}

/** SEEDS §3.3: the librarian sees the 5 nearest entries. */
export const NEAREST_KNOWLEDGE = 5;
/** Per-episode cut; a group is about meaning, not verbatim detail. */
const EPISODE_CHARS = 800;
const ANSWER_TOKENS = 1_000;
const CONTENT_CHARS = 1_000;

const ref = z.string().trim().min(1).max(40);
const validFrom = z
  .string()
  .trim()
  .refine((s) => Number.isFinite(Date.parse(s)), 'valid_from must be an ISO date');

/** One librarian proposal. `ref` names a new entry so that links of the same answer can point at it. */
export const librarianProposalSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('merge'),
    ids: z.array(id).min(2),
    kind: knowledgeKind,
    content: text(CONTENT_CHARS),
    ref: ref.optional(),
  }),
  z.object({
    op: z.literal('abstract'),
    kind: knowledgeKind,
    content: text(CONTENT_CHARS),
    evidence: z.array(id).min(1),
    key: z.string().trim().min(1).max(200).optional(),
    valid_from: validFrom.optional(),
    ref: ref.optional(),
  }),
  z.object({ op: z.literal('link'), from: id, to: id, type: linkType }),
  // The episodes say again what a shown entry says: one more occurrence of it (how a repeated fact grows).
  z.object({ op: z.literal('confirm'), id, evidence: z.array(id).min(1) }),
  z.object({
    op: z.literal('supersede'),
    old: id,
    kind: knowledgeKind,
    content: text(CONTENT_CHARS),
    evidence: z.array(id).optional(),
    ref: ref.optional(),
  }),
]);

/** Response schema of the librarian: strict, so a missing `proposals` or an unknown top-level key is a bad answer. */
export const librarianResponseSchema = z.strictObject({ proposals: z.array(librarianProposalSchema) });

/** One parsed proposal. */
export type LibrarianProposal = z.infer<typeof librarianProposalSchema>;
/** A parsed librarian answer. */
export type LibrarianResponse = z.infer<typeof librarianResponseSchema>;

/** Builds the librarian prompt (the text packet of `packet-text.ts`); only the first `NEAREST_KNOWLEDGE` entries are shown. */
export function buildLibrarianPrompt(
  input: LibrarianInput,
  options: LibrarianPromptOptions = {},
): TurnPrompt {
  const redact = options.redact ?? ((s: string) => s);
  const packet = renderPacket({
    knowledge: input.nearest.slice(0, NEAREST_KNOWLEDGE).map((k) => ({
      ...k,
      key: k.key ? redact(k.key) : null,
      content: redact(k.content),
    })),
    blocks: [
      {
        turns: input.episodes.map((e) => ({
          ...e,
          speaker: e.speaker === null ? null : redact(e.speaker),
          text: redact(e.text),
        })),
      },
    ],
    turnChars: EPISODE_CHARS,
  });
  return { ...buildPrompt('librarian', packet.text, ANSWER_TOKENS, options), refs: packet.refs, fold: packet.fold };
}
