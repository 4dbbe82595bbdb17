/** Erasure to the byte on SQLite: rewrites the touched FTS5 indexes, then checkpoints and truncates the WAL. */
import type { Layer } from '../../core/types.js';
import type { SqlDriver } from '../sql-driver.js';
import type { SqliteDriver } from './sqlite-driver.js';
import { allSpaceFtsTables, SHARED_FTS_TABLES } from './sqlite-search.js';

/** The FTS5 indexes of a layer: the shared tables of the first layout and every space's word and trigram tables. */
export async function sqliteFtsIndexes(db: SqlDriver, layer: Layer): Promise<string[]> {
  return [...SHARED_FTS_TABLES[layer], ...(await allSpaceFtsTables(db, layer))];
}

/**
 * A contentless FTS5 table forgets a deleted row through a tombstone; the row's terms stay in the index segment
 * until that segment is merged. `optimize` merges every segment into one, dropping the deleted rows' terms;
 * `secure_delete` (set by the driver) zeroes the pages the old segments leave, and the TRUNCATE checkpoint moves
 * the zeroed pages into the file and empties the WAL that still held the inserts. The rewrite costs a pass over the
 * layer's index (docs/RELIABILITY.md has the figures); an index already in one segment with no deletions is free.
 */
export async function purgeSqlite(driver: SqliteDriver, db: SqlDriver, layers: readonly Layer[] | 'all'): Promise<{ complete: boolean }> {
  const touched = layers === 'all' ? (Object.keys(SHARED_FTS_TABLES) as Layer[]) : [...new Set(layers)];
  await db.transaction(async (tx) => {
    for (const layer of touched) {
      for (const t of await sqliteFtsIndexes(tx, layer)) await tx.run(`INSERT INTO ${t}(${t}) VALUES('optimize')`);
    }
  });
  return { complete: await driver.checkpointTruncate() };
}
