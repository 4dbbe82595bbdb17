/** Generic row access for export and restore (cross-space). */

/** Generic row access for export and restore: every table that carries a `space` column. */
export interface RowStore {
  /** Table names in dependency order: what export writes and restore loads. Credentials (`api_tokens`) are not among them. */
  tables(): readonly string[];
  /** Rows of one table for a space, ordered by primary key; BLOBs as Uint8Array. */
  dump(space: string, table: string): AsyncIterable<Record<string, unknown>>;
  /** Inserts rows exactly as dumped (explicit ids). */
  load(table: string, rows: ReadonlyArray<Record<string, unknown>>): Promise<void>;
  /** The largest `id` of a table with ids of its own, in any space (0 when it has none). */
  maxId(table: string): Promise<number>;
  /** How many of `ids` rows of `table` already hold, in any space (ids are global). */
  countIds(table: string, ids: readonly number[]): Promise<number>;
  /** Deletes every row of a space in every table, its API tokens included (and its index entries). */
  eraseSpace(space: string): Promise<void>;
  /** Whether no table of `tables()` holds a row of the space (its API tokens do not count). */
  spaceIsEmpty(space: string): Promise<boolean>;
  /**
   * Deletes the space's work records that quote one of `texts` verbatim (the night's packets and answers in
   * `sleep_work`): what a forget must not leave behind. Returns the rows deleted.
   */
  dropQuoting(space: string, texts: readonly string[]): Promise<number>;
}
