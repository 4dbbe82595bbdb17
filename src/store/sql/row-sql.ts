/** Generic, lossless row access for export, restore and erase of a whole space. */
import type { Layer } from '../../core/types.js';
import type { RowStore, SearchIndex } from '../port.js';
import { ID_TABLES } from '../row-refs.js';
import type { SqlDriver, SqlValue } from '../sql-driver.js';
import { marks, num } from './sql-util.js';

/**
 * Tables that hold a space's data, in the order a restore must load them; each has its ordering key. A table marked
 * `credentials` is erased with its space but never exported or restored (issue 22: a restore must not plant a token).
 */
export const SPACE_TABLES: ReadonlyArray<{ name: string; order: string; credentials?: true }> = [
  { name: 'spaces', order: 'id' },
  { name: 'episodes', order: 'id' },
  { name: 'narratives', order: 'id' },
  { name: 'narrative_tags', order: 'narrative_id, tag' },
  { name: 'knowledge', order: 'id' },
  { name: 'knowledge_links', order: 'id' },
  { name: 'profiles', order: 'id' },
  { name: 'profile_history', order: 'id' },
  { name: 'self_concept', order: 'field' },
  { name: 'self_concept_history', order: 'id' },
  { name: 'snapshots', order: 'id' },
  { name: 'threads', order: 'id' },
  { name: 'goals', order: 'id' },
  { name: 'checkpoints', order: 'id' },
  { name: 'pending_events', order: 'id' },
  { name: 'embeddings', order: 'layer, item_id, model' },
  { name: 'attention_log', order: 'id' },
  { name: 'attention_stats', order: 'cluster' },
  { name: 'topic_clusters', order: 'id' },
  { name: 'emb_clusters', order: 'id' },
  { name: 'emb_cluster_members', order: 'cluster_id, narrative_id' },
  { name: 'emb_cluster_adjacency', order: 'cluster_a, cluster_b' },
  { name: 'graph_nodes', order: 'entity' },
  { name: 'graph_edges', order: 'id' },
  { name: 'graph_cooccur', order: 'entity_a, entity_b' },
  { name: 'sleep_runs', order: 'id' },
  { name: 'sleep_work', order: 'run_id, step, unit' },
  { name: 'briefings', order: 'day' },
  { name: 'job_state', order: 'job' },
  { name: 'workspaces', order: 'id' },
  { name: 'journal_archive', order: 'id' },
  { name: 'api_tokens', order: 'id', credentials: true },
];

const INDEXED: ReadonlyArray<{ table: string; layer: Layer }> = [
  { table: 'episodes', layer: 'episode' },
  { table: 'narratives', layer: 'narrative' },
  { table: 'knowledge', layer: 'knowledge' },
];

/** Row store over any engine; `columnsOf` lists a table's real columns (the only names ever put into SQL). */
export class RowSql implements RowStore {
  readonly #db: SqlDriver;
  readonly #search: SearchIndex;
  readonly #columnsOf: (table: string) => Promise<string[]>;
  constructor(db: SqlDriver, search: SearchIndex, columnsOf: (table: string) => Promise<string[]>) {
    this.#db = db;
    this.#search = search;
    this.#columnsOf = columnsOf;
  }

  tables(): readonly string[] {
    return SPACE_TABLES.filter((t) => !t.credentials).map((t) => t.name);
  }

  #table(name: string) {
    const t = SPACE_TABLES.find((x) => x.name === name && !x.credentials);
    if (!t) throw new Error(`unknown table ${name}`);
    return t;
  }

  async *dump(space: string, table: string): AsyncIterable<Record<string, unknown>> {
    const t = this.#table(table);
    const cols = await this.#columnsOf(table);
    const key = table === 'spaces' ? 'id' : 'space';
    const page = 2000;
    for (let offset = 0; ; offset += page) {
      const rows = await this.#db.all<Record<string, unknown>>(
        `SELECT ${cols.join(', ')} FROM ${table} WHERE ${key} = ? ORDER BY ${t.order} LIMIT ? OFFSET ?`,
        [space, page, offset],
      );
      for (const r of rows) yield r;
      if (rows.length < page) break;
    }
  }

  async load(table: string, rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
    this.#table(table);
    const cols = new Set(await this.#columnsOf(table));
    for (const row of rows) {
      const names = Object.keys(row).filter((c) => cols.has(c));
      const unknown = Object.keys(row).filter((c) => !cols.has(c));
      if (unknown.length > 0) throw new Error(`table ${table} has no column ${unknown.join(', ')}`);
      await this.#db.run(
        `INSERT INTO ${table} (${names.join(', ')}) VALUES (${marks(names.length)})`,
        names.map((c) => row[c] as SqlValue),
      );
    }
  }

  async maxId(table: string): Promise<number> {
    this.#idTable(table);
    const r = await this.#db.get<{ m: unknown }>(`SELECT MAX(id) AS m FROM ${table}`);
    return r?.m === null || r?.m === undefined ? 0 : num(r.m);
  }

  async countIds(table: string, ids: readonly number[]): Promise<number> {
    this.#idTable(table);
    let n = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      const r = await this.#db.get<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${table} WHERE id IN (${marks(part.length)})`, part);
      n += num(r?.n ?? 0);
    }
    return n;
  }

  #idTable(name: string): void {
    if (!(ID_TABLES as readonly string[]).includes(name)) throw new Error(`table ${name} has no ids of its own`);
  }

  async eraseSpace(space: string): Promise<void> {
    for (const { table, layer } of INDEXED) {
      const ids = (await this.#db.all<{ id: unknown }>(`SELECT id FROM ${table} WHERE space = ?`, [space])).map((r) => num(r.id));
      for (let i = 0; i < ids.length; i += 500) await this.#search.unindex(layer, ids.slice(i, i + 500), space);
    }
    await this.#search.dropSpace?.(space);
    for (const t of [...SPACE_TABLES].reverse()) {
      await this.#db.run(`DELETE FROM ${t.name} WHERE ${t.name === 'spaces' ? 'id' : 'space'} = ?`, [space]);
    }
  }

  async dropQuoting(space: string, texts: readonly string[]): Promise<number> {
    let n = 0;
    for (const t of texts) {
      if (t.length === 0) continue;
      // Packets hold the text inside JSON: match it raw and as JSON writes it (quotes, newlines escaped).
      for (const needle of new Set([t, JSON.stringify(t).slice(1, -1)])) {
        const like = `%${needle.replace(/[!%_]/g, (c) => `!${c}`)}%`;
        n += (
          await this.#db.run(`DELETE FROM sleep_work WHERE space = ? AND (payload LIKE ? ESCAPE '!' OR result LIKE ? ESCAPE '!')`, [
            space,
            like,
            like,
          ])
        ).changes;
      }
    }
    return n;
  }

  async spaceIsEmpty(space: string): Promise<boolean> {
    for (const t of SPACE_TABLES) {
      // A token names a space before anything is written to it; it does not make the space's memory non-empty.
      if (t.name === 'spaces' || t.credentials) continue;
      const r = await this.#db.get(`SELECT 1 AS x FROM ${t.name} WHERE space = ? LIMIT 1`, [space]);
      if (r) return false;
    }
    return true;
  }
}
