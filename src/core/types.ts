/** Domain records of the memory, layer by layer (DESIGN.md §1). Times are epoch milliseconds UTC. */

/** The searchable layers of the memory. */
export const LAYERS = ['episode', 'narrative', 'knowledge'] as const;
/** One searchable layer. */
export type Layer = (typeof LAYERS)[number];

/** Kinds of raw episodes. */
export const EPISODE_KINDS = ['turn', 'tool_call', 'tool_result', 'note', 'memory', 'import', 'journal'] as const;
/** Kind of a raw episode. */
export type EpisodeKind = (typeof EPISODE_KINDS)[number];

/** A raw event: a turn, a tool call or result, a note, an imported line or a journal section. */
export interface Episode {
  id: number;
  space: string;
  kind: EpisodeKind;
  role: string | null;
  speaker: string | null;
  content: string;
  session: string | null;
  tool: string | null;
  ok: boolean | null;
  source: string;
  ref: string | null;
  meta: Record<string, unknown>;
  durable: boolean;
  occurredAt: number;
  createdAt: number;
  consolidatedAt: number | null;
  archivedAt: number | null;
}

/** Kinds of narratives. */
export const NARRATIVE_KINDS = ['narrative', 'self_reflection', 'dream'] as const;
/** Kind of a narrative. */
export type NarrativeKind = (typeof NARRATIVE_KINDS)[number];

/** A structured memory in Tideline's shape (SEEDS §1.3). */
export interface Narrative {
  id: number;
  space: string;
  kind: NarrativeKind;
  ntype: string;
  content: string;
  gesture: string | null;
  context: string | null;
  moment: string | null;
  cognitionDirection: string | null;
  tags: string[];
  entitiesRole: string | null;
  relatedEntities: string[];
  sourceLinks: number[];
  importance: number;
  emotional: number;
  recurrence: number;
  unresolved: number;
  weight: number;
  createdAt: number;
  updatedAt: number;
}

/** Kinds of knowledge entries. */
export const KNOWLEDGE_KINDS = [
  'fact',
  'entity',
  'preference',
  'procedure',
  'concept',
  'open_problem',
  'recipe',
] as const;
/** Kind of a knowledge entry. */
export type KnowledgeKind = (typeof KNOWLEDGE_KINDS)[number];

/** Lifecycle states of knowledge (DESIGN §6). */
export const KNOWLEDGE_STATUSES = ['provisional', 'reliable', 'quarantined', 'superseded', 'forgotten'] as const;
/** Lifecycle state of a knowledge entry. */
export type KnowledgeStatus = (typeof KNOWLEDGE_STATUSES)[number];

/** Typed links between knowledge entries. */
export const LINK_TYPES = ['refers_to', 'part_of', 'about', 'caused', 'follows'] as const;
/** Type of a knowledge link. */
export type LinkType = (typeof LINK_TYPES)[number];

/** Evidence of a knowledge entry: the episodes and narratives it came from. */
export interface Evidence {
  episodes: number[];
  narratives: number[];
}

/** What a thing means: a fact, preference, procedure… with a lifecycle. */
export interface Knowledge {
  id: number;
  space: string;
  kind: KnowledgeKind;
  key: string | null;
  subject: string | null;
  content: string;
  status: KnowledgeStatus;
  occurrences: number;
  strength: number;
  lastReinforcedAt: number;
  importance: number;
  durable: boolean;
  tags: string[];
  evidence: Evidence;
  source: string;
  validFrom: number | null;
  validTo: number | null;
  createdAt: number;
  updatedAt: number;
  supersededBy: number | null;
  meta: Record<string, unknown>;
}

/** A typed link between two knowledge entries. */
export interface KnowledgeLink {
  id: number;
  fromId: number;
  toId: number;
  type: LinkType;
  createdAt: number;
}

/** Profile types of Tideline (SEEDS §1.4). */
export const PROFILE_TYPES = ['fact', 'impression', 'relationship', 'self', 'contact'] as const;
/** Profile type. */
export type ProfileType = (typeof PROFILE_TYPES)[number];

/** What the memory knows about one entity, of one type. */
export interface Profile {
  id: number;
  entity: string;
  ptype: ProfileType;
  content: string;
  pinned: boolean;
  createdAt: number;
  updatedAt: number;
}

/** One earlier version of a profile or self-concept field. */
export interface HistoryEntry {
  content: string;
  validFrom: number;
  replacedAt: number;
}

/** Self-concept fields (SEEDS §1.4). */
export const SELF_CONCEPT_FIELDS = ['fact', 'terrain', 'self_reflection'] as const;
/** A self-concept field. */
export type SelfConceptField = (typeof SELF_CONCEPT_FIELDS)[number];
/** Prefix of the fields under which the sleep's self-image (SEEDS §3.5) keeps its parts in the self-concept table. */
export const SELF_IMAGE_PREFIX = 'self_image.';
/** A self-image part's field in the self-concept table (`self_image.works_on` …). */
export type SelfImageField = `${typeof SELF_IMAGE_PREFIX}${string}`;

/** True for one of Tideline's self-concept fields; false for a self-image part or anything else in the table. */
export function isSelfConceptField(field: string): field is SelfConceptField {
  return (SELF_CONCEPT_FIELDS as readonly string[]).includes(field);
}

/** One self-concept field and its content. */
export interface SelfConcept {
  /** One of Tideline's fields, or a part of the sleep's self-image (same table; `isSelfConceptField` tells them apart). */
  field: SelfConceptField | SelfImageField;
  content: string;
  updatedAt: number;
}

/** A "how I am right now" slice. */
export interface Snapshot {
  id: number;
  content: string;
  createdAt: number;
}

/** Thread statuses (SEEDS §1.4). */
export const THREAD_STATUSES = ['open', 'explored', 'abandoned'] as const;
/** A thread status. */
export type ThreadStatus = (typeof THREAD_STATUSES)[number];

/** An exploration seed with a weight. */
export interface Thread {
  id: number;
  content: string;
  importance: number;
  emotional: number;
  recurrence: number;
  unresolved: number;
  weight: number;
  status: ThreadStatus;
  createdAt: number;
  updatedAt: number;
  exploredAt: number | null;
}

/** Sources of attention-log entries (DESIGN §3). */
export const ATTENTION_SOURCES = ['t0_inject', 't1_prefetch', 'search', 'recall', 'dream'] as const;
/** Where a hit was made. */
export type AttentionSource = (typeof ATTENTION_SOURCES)[number];

/** One ranked result of `recall`. */
export interface RecallHit {
  /** Public id: `e12`, `n3`, `k7`. */
  id: string;
  layer: Layer;
  text: string;
  score: number;
  createdAt: number;
  /** True when the hit contains the query as an exact phrase. */
  exact: boolean;
  session?: string | null;
  speaker?: string | null;
  kind?: string;
  status?: KnowledgeStatus;
  weight?: number;
  tags?: string[];
  /** Why the hit is in the list. */
  why?: HitReason;
  /** Lower-ranked items with the same text (id and own score), not listed again. */
  repeats?: Array<{ id: string; score: number }>;
  /** Turns of the same session next to this hit that hold no query word: shown with it, not as hits of their own. */
  context?: RecallContext[];
}

/** Why a recall hit is in the list. */
export interface HitReason {
  /** Query words the text holds (as typed; stemmed matches count). */
  words: string[];
  /** It lies in (or tells of) a time window the query names. */
  window: boolean;
  /** The query's text occurs in it (substring search). */
  substring: boolean;
  /** Its vector is near the query's (hybrid search). */
  vector: boolean;
}

/** A neighbouring turn shown as context of a hit. */
export interface RecallContext {
  id: string;
  text: string;
  createdAt: number;
  session: string | null;
  speaker: string | null;
  /** Its share of its neighbours' scores, on the hits' scale. */
  score: number;
  /** The hit it neighbours. */
  neighbourOf: string;
}
