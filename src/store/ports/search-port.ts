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

/**
 * New rows of a layer's table, written with their index entries by {@link IndexBatch.rowsWith}: JSON records (one
 * object per row, read by the server's json_to_recordset) and how each column is read from them.
 */
export interface NewRows {
  space: string;
  /** The columns written from the records, in the records' key order: each with its record key and SQL type. */
  columns: ReadonlyArray<{ column: string; key: string; type: string }>;
  /** The rows as JSON records, in input order. */
  records: string;
  /**
   * What the statement does with a row that conflicts: `ON CONFLICT … DO NOTHING` on one column (`key`, as the
   * records name it) skips a row whose value is stored already or repeats an earlier row's, and its entry too; a row
   * without a value there is always written.
   */
  conflict: { sql: string; key: string };
}

/** A batch being indexed in parts ({@link SearchIndex.indexing}): `add` each part in turn, then `finish` once. */
export interface IndexBatch {
  add(docs: ReadonlyArray<{ id: number } & IndexText>): Promise<void>;
  /**
   * Optional (PostgreSQL): new rows and their entries (`docs[i]` the entry of row i) in one statement, the rows' ids
   * drawn by it. The statement is built now, in the app, and sent by the function returned, which resolves with
   * each written row's id and its 0-based place in the input (a skipped row has none): a writer builds its next part
   * while the server writes this one. Counted in the batch like `add`.
   */
  rowsWith?(rows: NewRows, docs: readonly IndexText[]): () => Promise<Array<{ id: number; at: number }>>;
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
