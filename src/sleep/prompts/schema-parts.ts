/** Zod pieces shared by the sleep prompts' response schemas, lenient where models are sloppy and strict where it matters. */

import { z } from 'zod';

/** A 1-5 score (SEEDS §1.5.1); numeric strings and halves are accepted and rounded. */
export const score = z.coerce
  .number()
  .min(1)
  .max(5)
  .transform((v) => Math.round(v));

/** Non-empty trimmed text of at most `max` characters. */
export function text(max: number): z.ZodString {
  return z.string().trim().min(1).max(max);
}

/** An id as the prompt showed it; numbers are accepted and turned into strings (SEEDS BUG T-17). */
export const id = z.union([z.string().trim().min(1).max(100), z.number().int()]).transform(String);

/** The six kinds the librarian may abstract into (SEEDS §3.3); `recipe` is made only by the deterministic product. */
export const KNOWLEDGE_KINDS = [
  'fact',
  'entity',
  'preference',
  'procedure',
  'concept',
  'open_problem',
] as const;

/** The five link types (SEEDS §3.3, DESIGN §1.3). */
export const LINK_TYPES = ['refers_to', 'part_of', 'about', 'caused', 'follows'] as const;

/** Lower-cases and turns spaces/hyphens into underscores, so `Open Problem` and `part-of` parse. */
function normalizeEnum(v: unknown): unknown {
  return typeof v === 'string'
    ? v
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_')
    : v;
}

/** One of `KNOWLEDGE_KINDS`, forgiving case and separators. */
export const knowledgeKind = z.preprocess(normalizeEnum, z.enum(KNOWLEDGE_KINDS));

/** One of `LINK_TYPES`, forgiving case and separators; `caused_by` is read as `caused` (Tulimoa's name). */
export const linkType = z.preprocess(
  (v) => (normalizeEnum(v) === 'caused_by' ? 'caused' : normalizeEnum(v)),
  z.enum(LINK_TYPES),
);

/** A list that a model may omit: missing means empty. */
export function list<T extends z.ZodType>(item: T) {
  return z.array(item).default([]);
}
