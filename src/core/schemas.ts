/** Zod input schemas: the one source of truth for the types, the MCP tools, the HTTP routes and the CLI. */
import { z } from 'zod';
import { DAY_MS, MAX_TIME_MS } from './clock.js';
import { TidepoolError } from './errors.js';
import {
  KNOWLEDGE_KINDS,
  LAYERS,
  NARRATIVE_KINDS,
  PROFILE_TYPES,
  SELF_CONCEPT_FIELDS,
  THREAD_STATUSES,
} from './types.js';

/** Largest text accepted by any write, in UTF-8 bytes (issue #2: over-size text > 1 MB is refused). */
export const MAX_TEXT_BYTES = 1_000_000;
/** Most turns one `record` call takes. */
export const MAX_BATCH = 10_000;

/** A space name: letters, digits, dot, dash, underscore; 1-64 characters, starting with a letter or digit. */
export const spaceName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'space must be 1-64 letters, digits, ".", "_" or "-"');

/** Non-empty text of at most MAX_TEXT_BYTES. */
export const text = z
  .string()
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .refine((s) => s.length <= MAX_TEXT_BYTES && Buffer.byteLength(s, 'utf8') <= MAX_TEXT_BYTES, {
    message: `must be at most ${MAX_TEXT_BYTES} bytes`,
  });

/** A short label (tag, key, entity, session id). */
export const label = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters');

/** Deepest nesting accepted in free JSON (`meta`, `metadata`, answers): JSON.stringify overflows the stack some thousands of levels down. */
export const MAX_JSON_DEPTH = 100;

/** How deep `v` nests, counted without recursion; stops once past `limit`. */
function jsonDepth(v: unknown, limit: number): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[v, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (d > max) max = d;
    if (max > limit) break;
    if (x !== null && typeof x === 'object') for (const y of Object.values(x)) stack.push([y, d + 1]);
  }
  return max;
}

/** A free JSON object (metadata), nested at most MAX_JSON_DEPTH levels. */
export const jsonObject = z
  .record(z.string(), z.unknown())
  .refine((v) => jsonDepth(v, MAX_JSON_DEPTH) <= MAX_JSON_DEPTH, `must be nested at most ${MAX_JSON_DEPTH} levels deep`);

/** A 1-5 score. */
export const score = z.number().int('must be an integer').min(1).max(5);

/**
 * A point in time: epoch ms, or an ISO 8601 / `YYYY-MM-DD[ HH:MM[:SS]]` string read as UTC; from 1970-01-01 to
 * 9999-12-31 (`MAX_TIME_MS`), so every stored time can be formatted and compared (issue 22).
 */
export const time = z
  .union([
    z.number().int('must be an integer (epoch milliseconds)').min(0, 'must not be before 1970-01-01').max(MAX_TIME_MS, 'must not be after 9999-12-31'),
    z.string(),
  ])
  .transform((v, ctx) => {
    const ms = typeof v === 'number' ? v : parseTime(v);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `is not a valid time: "${String(v)}" (use ISO 8601 or YYYY-MM-DD)` });
      return z.NEVER;
    }
    if (ms < 0 || ms > MAX_TIME_MS) {
      ctx.addIssue({ code: 'custom', message: `is out of range: "${String(v)}" (from 1970-01-01 to 9999-12-31)` });
      return z.NEVER;
    }
    return ms;
  });

/**
 * The end of a range, inclusive: like `time`, but a bare date (`YYYY-MM-DD`) means the end of that UTC day, so
 * `--to 2026-03-04` includes what happened on the 4th (issue 23).
 */
export const endTime = z
  .union([z.number(), z.string()])
  .transform((v) => {
    const day = typeof v === 'string' && /^\s*\d{4}-\d{2}-\d{2}\s*$/.test(v) ? parseTime(v) : undefined;
    return day === undefined ? v : day + DAY_MS - 1;
  })
  .pipe(time);

/** Parses ISO 8601 or `YYYY-MM-DD[ HH:MM[:SS]]` (no zone = UTC) into epoch ms, or undefined. */
export function parseTime(s: string): number | undefined {
  const t = s.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(t);
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', sec = '00', frac = '0', zone] = m;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${sec}.${frac.padEnd(3, '0')}${zone ?? 'Z'}`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2023-02-30 over to March; a real calendar date must round-trip.
  if (!zone && new Date(ms).toISOString().slice(0, 10) !== `${y}-${mo}-${d}`) return undefined;
  return ms;
}

const tags = z.array(label).max(50, 'at most 50 tags');

/** `remember`: a durable memory, optionally keyed so a later value supersedes it (Tulimoa). */
export const rememberInput = z.object({
  text,
  key: label.optional(),
  kind: z.enum(KNOWLEDGE_KINDS).default('fact'),
  subject: label.optional(),
  importance: score.default(3),
  durable: z.boolean().default(true),
  tags: tags.default([]),
  /** Structured data kept with the entry and returned as written (a LangGraph store value); never searched. */
  meta: jsonObject.optional(),
});
export type RememberInput = z.input<typeof rememberInput>;

/** One turn, tool call or tool result for `record`. */
export const recordTurn = z.object({
  role: z.enum(['user', 'assistant', 'system', 'tool']).default('user'),
  content: text,
  kind: z.enum(['turn', 'tool_call', 'tool_result', 'note']).optional(),
  speaker: label.optional(),
  session: label.optional(),
  tool: label.optional(),
  ok: z.boolean().optional(),
  at: time.optional(),
  ref: z.string().min(1).max(500).optional(),
  meta: jsonObject.optional(),
});
export type RecordTurn = z.input<typeof recordTurn>;

/** `record`: one turn (`content`) or a batch (`turns`), stored in one transaction. */
export const recordInput = z.union([
  z.object({ turns: z.array(recordTurn).min(1, 'needs at least one turn').max(MAX_BATCH) }).strict(),
  recordTurn.strict(),
]);
export type RecordInput = z.input<typeof recordInput>;

/** `memory_write`: a narrative with Tideline's fields and parameter names (SEEDS §1.4). */
export const narrativeInput = z
  .object({
    gesture: z.string().max(MAX_TEXT_BYTES).optional(),
    context: z.string().max(MAX_TEXT_BYTES).optional(),
    moment: z.string().max(MAX_TEXT_BYTES).optional(),
    cognition_direction: z.string().max(MAX_TEXT_BYTES).optional(),
    content: z.string().max(MAX_TEXT_BYTES).optional(),
    importance: score.optional(),
    emotional: score.optional(),
    unresolved: score.optional(),
    /** Ignored as in Tideline: recurrence is computed from tag frequency. */
    recurrence: score.optional(),
    tags: tags.default([]),
    entities_role: z.string().max(2000).optional(),
    related_entities: z.array(label).max(50).optional(),
    // Episode ids as every surface prints them (`e12`), or Tideline's bare numbers (`12`, "12").
    source_links: z
      .array(z.union([z.string().regex(/^e?\d+$/, 'must be an episode id such as e12'), z.number().int()]))
      .max(1000)
      .transform((ids) => ids.map((id) => (typeof id === 'number' ? id : Number(id.replace(/^e/, '')))))
      .optional(),
    narrative_type: z.enum(['gesture', 'context', 'moment', 'self_reflection', 'general']).default('general'),
    kind: z.enum(NARRATIVE_KINDS).optional(),
    at: time.optional(),
  })
  .refine((v) => [v.gesture, v.content].some((s) => s !== undefined && s.trim().length > 0), {
    message: 'gesture (or legacy content) must not be empty',
    path: ['gesture'],
  });
export type NarrativeInput = z.input<typeof narrativeInput>;

/** `recall`: hybrid search over the layers (also accepts Tulimoa's `topic`). */
export const recallInput = z
  .object({
    query: z.string().max(10_000).optional(),
    topic: z.string().max(10_000).optional(),
    limit: z.number().int().min(1).max(200).default(10),
    layers: z.array(z.enum(LAYERS)).min(1).optional(),
    kinds: z.array(z.string().min(1)).optional(),
    since: time.optional(),
    until: endTime.optional(),
    session: label.optional(),
    minWeight: z.number().min(0).max(1).optional(),
    maxTokens: z.number().int().min(1).max(200_000).optional(),
    /** Archived episodes are searched too (the archive is a colder tier, not a wall); false keeps to the live memory. */
    includeArchived: z.boolean().default(true),
  })
  .transform((v, ctx) => {
    const q = (v.query ?? v.topic ?? '').trim();
    if (!q) {
      ctx.addIssue({ code: 'custom', message: 'query must not be empty', path: ['query'] });
      return z.NEVER;
    }
    return { ...v, query: q };
  });
export type RecallInput = z.input<typeof recallInput>;

/** `timeline`: raw history in time order. */
export const timelineInput = z.object({
  from: time.optional(),
  to: endTime.optional(),
  session: label.optional(),
  limit: z.number().int().min(1).max(1000).default(20),
  offset: z.number().int().min(0).default(0),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type TimelineInput = z.input<typeof timelineInput>;

/** `forget`: one item by id or key, or a whole space with explicit confirmation. */
export const forgetInput = z.union([
  z.object({ id: z.string().min(1) }).strict(),
  z.object({ key: label }).strict(),
  z.object({ all: z.literal(true), confirm: z.literal(true, 'confirm must be true to erase a whole space') }).strict(),
]);
export type ForgetInput = z.input<typeof forgetInput>;

/** `memory_write_profile`: upsert with history; empty content is refused (Tideline v2.5 anti-blanking). */
export const profileInput = z.object({
  entity: label,
  profile_type: z.enum(PROFILE_TYPES).default('impression'),
  content: text,
  pinned: z.boolean().optional(),
});
/** `memory_write_self_concept`. */
export const selfConceptInput = z.object({ field: z.enum(SELF_CONCEPT_FIELDS), content: text });
/** `memory_write_snapshot`. */
export const snapshotInput = z.object({ content: text });
/** `memory_write_thread`: insert, or update when `thread_id` is given. */
export const threadInput = z.object({
  content: text.optional(),
  importance: score.default(3),
  emotional: score.default(3),
  recurrence: score.default(3),
  unresolved: score.default(3),
  status: z.enum(THREAD_STATUSES).default('open'),
  thread_id: z.number().int().positive().optional(),
});

/**
 * Parses `input` with `schema`, turning the first zod issue into an `invalid_input` TidepoolError that names
 * the field, e.g. `query: expected string, received number`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  throw inputError(r.error.issues);
}

/**
 * The `invalid_input` error of failed zod issues, as `parseInput` throws it; the HTTP edge's validator
 * (@hono/zod-validator) throws the same, so a field is named alike on every surface.
 */
export function inputError(issues: readonly z.core.$ZodIssue[]): TidepoolError {
  const issue = mostSpecific(issues[0], []);
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
  const msg = issue ? issue.message : 'invalid input';
  return new TidepoolError('invalid_input', field ? `${field}: ${msg}` : msg, {
    field,
    details: { issues: issues.map((i) => ({ path: i.path.join('.'), message: i.message })) },
  });
}

type Issue = { path: PropertyKey[]; message: string; code?: string; errors?: Issue[][] };

/**
 * A union's own issue only says "Invalid input"; the branch that got furthest (longest path) names the real
 * problem, e.g. `turns.0.role: Invalid option`.
 */
function mostSpecific(issue: Issue | undefined, prefix: PropertyKey[]): Issue | undefined {
  if (!issue) return undefined;
  const here = { ...issue, path: [...prefix, ...issue.path] };
  if (issue.code !== 'invalid_union' || !issue.errors || issue.errors.length === 0) return here;
  let best: Issue | undefined;
  let bestScore = -Infinity;
  for (const branch of issue.errors) {
    const cand = mostSpecific(branch.find((i) => i.code !== 'unrecognized_keys') ?? branch[0], here.path);
    if (!cand) continue;
    // A branch that does not know the caller's keys is the wrong branch, not the caller's mistake.
    const score = cand.path.length - (branch.some((i) => i.code === 'unrecognized_keys') ? 100 : 0);
    if (score > bestScore) {
      best = cand;
      bestScore = score;
    }
  }
  return best ?? here;
}
