/** Structured narratives: rows, their bulk reads for the script jobs, their scores and rewrites. */
import type { Narrative, NarrativeKind } from '../../core/types.js';
import type { IndexText } from './search-port.js';

/** A new narrative row: a `Narrative` less what the store gives it (id, space, update time), with its index text. */
export type NewNarrative = Omit<Narrative, 'id' | 'space' | 'updatedAt'> & {
  embedPending: boolean;
  index: IndexText;
};

/** A narrative's text fields, as keyword extraction reads them. */
export interface NarrativeTextRow {
  id: number;
  content: string;
  gesture: string | null;
  context: string | null;
  cognitionDirection: string | null;
  weight: number;
  createdAt: number;
}

/** A narrative's tags and scores, as the weight jobs read them. */
export interface NarrativeScoreRow {
  id: number;
  tags: string[];
  importance: number;
  emotional: number;
  recurrence: number;
  unresolved: number;
  weight: number;
  createdAt: number;
}

/** A narrative's links and embedding state, as the Layer-0 scan reads them. */
export interface NarrativeLinkRow {
  id: number;
  sourceLinks: number[];
  createdAt: number;
  embedPending: boolean;
}

/** New values for a narrative's weight and scores; a field left out keeps its value. */
export interface NarrativeScoreChange {
  id: number;
  weight?: number;
  importance?: number;
  emotional?: number;
  recurrence?: number;
  unresolved?: number;
}

/** Rewritable narrative text fields (the PII night watch replaces names in them). */
export interface NarrativeText {
  content: string;
  gesture: string | null;
  context: string | null;
  moment: string | null;
  cognitionDirection: string | null;
}

/** Structured narratives. */
export interface NarrativeStore {
  insert(row: NewNarrative): Promise<number>;
  get(id: number): Promise<Narrative | undefined>;
  getMany(ids: readonly number[]): Promise<Narrative[]>;
  /** Number of other narratives sharing any of `tags` (exact, UTF-8 as written). */
  countSharingTags(tags: readonly string[], excludeId?: number): Promise<number>;
  /** For each tag, how many narratives carry it. */
  tagCounts(tags?: readonly string[]): Promise<Map<string, number>>;
  /** Ids and tags of narratives sharing any of `tags`. */
  withAnyTag(tags: readonly string[]): Promise<Array<{ id: number; tags: string[] }>>;
  /** Newest narratives, optionally filtered. */
  list(q: {
    limit: number;
    offset?: number;
    ntype?: string;
    tags?: readonly string[];
    since?: number;
    minWeight?: number;
    kind?: NarrativeKind;
  }): Promise<Narrative[]>;
  /** The `n` newest (id, weight) pairs, for anti-inflation. */
  newestWeights(n: number): Promise<Array<{ id: number; weight: number }>>;
  delete(ids: readonly number[]): Promise<number>;
  count(): Promise<number>;
  /** Text fields of every narrative (only those without source_links when `unlinked`), ascending id. */
  texts(q?: { unlinked?: boolean }): Promise<NarrativeTextRow[]>;
  /** `entities_role` of every narrative that has one, ascending id. */
  roles(): Promise<Array<{ id: number; entitiesRole: string; createdAt: number }>>;
  /** Tags and scores of every narrative (only tagged ones with `tagged`; only the `newest` n by creation), ascending id. */
  scoreRows(q?: { tagged?: boolean; newest?: number }): Promise<NarrativeScoreRow[]>;
  /** source_links, creation time and embedding state of every narrative, ascending id. */
  linkRows(): Promise<NarrativeLinkRow[]>;
  /** Narratives per weight band (core/weight-scale `WEIGHT_BANDS`). */
  weightBands(): Promise<{ high: number; mid: number; low: number }>;
  /**
   * The one writer of a narrative's weight and scores (issue 19: it had four): every weight change, at write time
   * (recurrence propagation, anti-inflation), in the script jobs and in the night (the comb's re-scoring, the weight
   * refresh), goes through it. A field left out keeps its value; `at` also sets `updated_at`. Returns the rows changed.
   */
  writeScores(rows: ReadonlyArray<NarrativeScoreChange>, at?: number): Promise<number>;
  /** Sets source_links of narratives that still have none (a narrative linked meanwhile is left alone). */
  fillSourceLinks(
    rows: ReadonlyArray<{ narrativeId: number; sourceLinks: readonly number[] }>,
  ): Promise<number>;
  /** Replaces a narrative's text fields, re-indexes it and drops its vectors (marked for re-embedding). */
  rewrite(id: number, text: NarrativeText, tags: readonly string[], index: IndexText): Promise<void>;
  /** Ids of rows whose text contains `needle` as written (content and tags), archive included; LIKE-matched, so callers confirm each. */
  idsContaining(needle: string, limit: number): Promise<number[]>;
}
