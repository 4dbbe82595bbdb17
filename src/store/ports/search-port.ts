/** A ranked lexical search over the engine's full-text indexes, and the text the indexes are fed. */
import type { KnowledgeStatus, Layer } from '../../core/types.js';

/** Text prepared for the lexical indexes by the caller (segmented CJK, joined fields). */
export interface IndexText {
  /** Segmented text for the word index (FTS5 / tsvector). */
  body: string;
  /** Secondary field: speaker for episodes, tags for narratives and knowledge. */
  extra: string;
  /** Raw text for the substring (trigram) index. */
  raw: string;
  /** Segmented text of the turns just before an episode in its session (a weaker field; episodes only). */
  ctx?: string;
}

/** Options of a lexical search. */
export interface LexicalOptions {
  limit: number;
  since?: number;
  until?: number;
  includeArchived?: boolean;
  /** Knowledge statuses allowed (quarantined is never among them for recall). */
  statuses?: readonly KnowledgeStatus[];
  kinds?: readonly string[];
  session?: string;
  minWeight?: number;
  /** Knowledge only: keep entries whose key starts with this (a LangGraph namespace), filtered in the query. */
  keyPrefix?: string;
}

/** A batch being indexed in parts ({@link SearchIndex.indexing}): `add` each part in turn, then `finish` once. */
export interface IndexBatch {
  add(docs: ReadonlyArray<{ id: number } & IndexText>): Promise<void>;
  finish(): Promise<void>;
}

/** Engine-specific full-text indexes; kept in step with the tables inside the same transaction. */
export interface SearchIndex {
  /**
   * Indexes items of `space`. An engine may keep each space's entries apart (SQLite: a word and a trigram table per
   * space and layer), so that BM25's statistics are the space's own.
   */
  index(layer: Layer, docs: ReadonlyArray<{ id: number } & IndexText>, space: string): Promise<void>;
  /**
   * Optional: `index` in several calls, for a writer that inserts its rows part by part and indexes each part while
   * it builds the next (PostgreSQL: the server writes one part's entries while the app works on the next). What is
   * kept for the whole batch (the lexical statistics) is written once, by `finish`, in the same transaction.
   */
  indexing?(layer: Layer, space: string): IndexBatch;
  /**
   * Optional: prepares the entries of texts about to be indexed. A writer calls it while the database inserts the
   * rows, so an engine that builds its entries in the app (PostgreSQL's tsvectors) does that work in the meantime.
   */
  prepare?(docs: readonly IndexText[]): void;
  /**
   * Optional: whether the index holds terms of an older tokenizer (PostgreSQL before issue 20.3 stemmed with
   * Snowball); the app then indexes every item again and calls `markTermsCurrent` in the same transaction.
   */
  termsOutdated?(): Promise<boolean>;
  markTermsCurrent?(): Promise<void>;
  unindex(layer: Layer, ids: readonly number[], space: string): Promise<void>;
  /** Optional: drops whatever the index keeps for a space being erased, after its items were unindexed. */
  dropSpace?(space: string): Promise<void>;
  /**
   * BM25-ranked ids for any of `terms` (already normalised words); higher score is better. A term of one Chinese
   * character matches the indexed words it begins (搬 → 搬家, 搬进).
   */
  lexical(
    space: string,
    layer: Layer,
    terms: readonly string[],
    opts: LexicalOptions,
  ): Promise<Array<{ id: number; score: number }>>;
  /** Ids whose raw text contains `needle` (case-insensitive), via the trigram index (≥ 3 chars) or a scan. */
  substring(
    space: string,
    layer: Layer,
    needle: string,
    opts: LexicalOptions,
  ): Promise<Array<{ id: number; score: number }>>;
}

/** A space's lexical search: {@link SearchIndex}'s reads with the space bound. */
export interface SpaceSearch {
  lexical(
    layer: Layer,
    terms: readonly string[],
    opts: LexicalOptions,
  ): Promise<Array<{ id: number; score: number }>>;
  substring(
    layer: Layer,
    needle: string,
    opts: LexicalOptions,
  ): Promise<Array<{ id: number; score: number }>>;
}

/** What of the search index the unbound store offers: upkeep across spaces, no reads. */
export type SearchUpkeep = Omit<SearchIndex, 'lexical' | 'substring'>;
