/** Erasure on PostgreSQL: the tables that lost rows are vacuumed, so dead row versions and index entries go. */
import type { Layer } from '../../core/types.js';
import type { SqlDriver } from '../sql-driver.js';
import { SPACE_TABLES } from '../sql/row-sql.js';

// The lexical statistics lose a forgotten row's words with it (pg-lexical-stats.ts).
const LEXICAL_STATS = ['lexical_rows', 'lexical_terms', 'lexical_deltas'];
const TOUCHED: Record<Layer, readonly string[]> = {
  episode: ['episodes', 'episodes_fts', 'embeddings', 'sleep_work', ...LEXICAL_STATS],
  narrative: ['narratives', 'narratives_fts', 'narrative_tags', 'embeddings', 'sleep_work', ...LEXICAL_STATS],
  knowledge: ['knowledge', 'knowledge_fts', 'knowledge_links', 'embeddings', 'sleep_work', ...LEXICAL_STATS],
};

/**
 * A DELETE leaves the row version in its page until VACUUM removes it and its index entries. VACUUM does not
 * zero the freed space inside a page, GIN keeps a term's key after its last posting is gone, and the WAL, base
 * backups and replicas keep what they were sent: docs/RELIABILITY.md states these limits and the operator's
 * remedies (VACUUM FULL / REINDEX, WAL and backup retention).
 */
export async function purgePostgres(db: SqlDriver, layers: readonly Layer[] | 'all'): Promise<{ complete: boolean }> {
  const tables =
    layers === 'all'
      ? [...SPACE_TABLES.map((t) => t.name), 'episodes_fts', 'narratives_fts', 'knowledge_fts', ...LEXICAL_STATS]
      : [...new Set(layers.flatMap((l) => TOUCHED[l]))];
  // VACUUM cannot run inside a transaction: it goes to the pool (or PGlite's one connection) directly. ANALYZE too:
  // a table VACUUM has sized but whose columns have no statistics gets worse plans than either (a newest-first walk
  // over the word index was planned as a sort of every row).
  await db.run(`VACUUM (ANALYZE) ${tables.join(', ')}`);
  return { complete: true };
}
