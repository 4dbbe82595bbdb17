/**
 * Which columns of the schema hold row ids: the one declaration a restore into another space rewrites ids through
 * (app/restore-remap.ts). Port-level data beside `SPACE_TABLES` (sql/row-sql.ts); `row-refs.test.ts` reads the
 * SQLite schema and fails when a table or column is not classified here.
 */

/** Tables whose rows carry an integer `id` of their own, global across spaces. */
export const ID_TABLES = [
  'episodes',
  'narratives',
  'knowledge',
  'knowledge_links',
  'profiles',
  'profile_history',
  'self_concept_history',
  'snapshots',
  'threads',
  'goals',
  'checkpoints',
  'pending_events',
  'attention_log',
  'topic_clusters',
  'emb_clusters',
  'graph_edges',
  'sleep_runs',
  'workspaces',
  'journal_archive',
  'api_tokens',
] as const;

/** A table with ids of its own. */
export type IdTable = (typeof ID_TABLES)[number];

/**
 * JSON or text columns that name ids inside them, by shape (the remap knows each shape):
 * - `episode-ids` / `narrative-ids`: a JSON array of ids of that table;
 * - `evidence`: `{"episodes": [...], "narratives": [...]}`;
 * - `knowledge-meta`: knowledge ids at `mergedFrom[]`, `quarantine.supersedes`, `quarantine.conflictsWith`;
 * - `night-log`: a NightLog (knowledge ids of its brief items, public ids `e12`/`n3`/`k7` of its PII flags);
 * - `work-payload`: a night unit's plan (episode ids at `chunks[][]`, `loose[]`, `episodeIds[]`);
 * - `work-result`: a night unit's result (`delta`, shaped like a night log; cached model answers);
 * - `job-state`: a value whose shape the row's `job` names (`review:pii`, `sleep:self_image`, `import:tideline:…`);
 * - `briefing-body`: rendered markdown naming knowledge entries as `[#7]`.
 */
export type EmbeddedIds =
  | 'episode-ids'
  | 'narrative-ids'
  | 'evidence'
  | 'knowledge-meta'
  | 'night-log'
  | 'work-payload'
  | 'work-result'
  | 'job-state'
  | 'briefing-body';

/**
 * What one column holds:
 * - `plain`: no row id (text, numbers, times, the space);
 * - `id`: the row's own id;
 * - `{ ref }`: an id of that table;
 * - `{ layerRef }`: an item id whose table the row's column `layerRef` names (`episode`, `narrative`, `knowledge`);
 * - `{ lastItemOf }`: the item id of the latest `attention_log` hit of the row's cluster, whose layer only that log
 *   row records;
 * - `{ embedded }`: JSON or text holding ids in the named shape.
 */
export type ColumnRefs =
  | 'plain'
  | 'id'
  | { ref: IdTable }
  | { layerRef: string }
  | { lastItemOf: 'attention_log' }
  | { embedded: EmbeddedIds };

/** Every column of every table that holds a space's rows (row-sql.ts `SPACE_TABLES`), classified. */
export const SPACE_TABLE_REFS: Readonly<Record<string, Readonly<Record<string, ColumnRefs>>>> = {
  spaces: { id: 'plain', created_at: 'plain', meta: 'plain' },
  episodes: {
    id: 'id', space: 'plain', kind: 'plain', role: 'plain', speaker: 'plain', content: 'plain', session: 'plain',
    tool: 'plain', ok: 'plain', source: 'plain', ref: 'plain', meta: 'plain', durable: 'plain', occurred_at: 'plain',
    created_at: 'plain', consolidated_at: 'plain', archived_at: 'plain', embed_pending: 'plain',
  },
  narratives: {
    id: 'id', space: 'plain', kind: 'plain', ntype: 'plain', content: 'plain', gesture: 'plain', context: 'plain',
    moment: 'plain', cognition_direction: 'plain', tags: 'plain', entities_role: 'plain', related_entities: 'plain',
    source_links: { embedded: 'episode-ids' }, importance: 'plain', emotional: 'plain', recurrence: 'plain',
    unresolved: 'plain', weight: 'plain', created_at: 'plain', updated_at: 'plain', embed_pending: 'plain',
  },
  narrative_tags: { space: 'plain', narrative_id: { ref: 'narratives' }, tag: 'plain' },
  knowledge: {
    id: 'id', space: 'plain', kind: 'plain', key: 'plain', subject: 'plain', content: 'plain', status: 'plain',
    occurrences: 'plain', strength: 'plain', last_reinforced_at: 'plain', importance: 'plain', durable: 'plain',
    tags: 'plain', evidence: { embedded: 'evidence' }, source: 'plain', valid_from: 'plain', valid_to: 'plain',
    created_at: 'plain', updated_at: 'plain', superseded_by: { ref: 'knowledge' }, meta: { embedded: 'knowledge-meta' },
    embed_pending: 'plain',
  },
  knowledge_links: {
    id: 'id', space: 'plain', from_id: { ref: 'knowledge' }, to_id: { ref: 'knowledge' }, type: 'plain', created_at: 'plain',
  },
  profiles: {
    id: 'id', space: 'plain', entity: 'plain', ptype: 'plain', content: 'plain', pinned: 'plain', created_at: 'plain',
    updated_at: 'plain',
  },
  profile_history: {
    id: 'id', space: 'plain', entity: 'plain', ptype: 'plain', content: 'plain', valid_from: 'plain', replaced_at: 'plain',
  },
  self_concept: { space: 'plain', field: 'plain', content: 'plain', updated_at: 'plain' },
  self_concept_history: {
    id: 'id', space: 'plain', field: 'plain', content: 'plain', valid_from: 'plain', replaced_at: 'plain',
  },
  snapshots: { id: 'id', space: 'plain', content: 'plain', created_at: 'plain' },
  threads: {
    id: 'id', space: 'plain', content: 'plain', importance: 'plain', emotional: 'plain', recurrence: 'plain',
    unresolved: 'plain', weight: 'plain', status: 'plain', created_at: 'plain', updated_at: 'plain', explored_at: 'plain',
  },
  goals: { id: 'id', space: 'plain', text: 'plain', status: 'plain', session: 'plain', created_at: 'plain', updated_at: 'plain' },
  checkpoints: { id: 'id', space: 'plain', goal_id: { ref: 'goals' }, plan: 'plain', session: 'plain', created_at: 'plain' },
  // Payloads are what the caller passed (goal text, a plan, a trigger); nothing writes a row id into them.
  pending_events: {
    id: 'id', space: 'plain', kind: 'plain', payload: 'plain', session: 'plain', created_at: 'plain', delivered_at: 'plain',
  },
  embeddings: {
    space: 'plain', layer: 'plain', item_id: { layerRef: 'layer' }, model: 'plain', dim: 'plain', vector: 'plain',
    created_at: 'plain',
  },
  attention_log: {
    id: 'id', space: 'plain', layer: 'plain', item_id: { layerRef: 'layer' }, sim: 'plain', cluster: 'plain',
    source: 'plain', session: 'plain', created_at: 'plain',
  },
  attention_stats: {
    space: 'plain', cluster: 'plain', hit_count: 'plain', last_hit: 'plain', last_item_id: { lastItemOf: 'attention_log' },
  },
  topic_clusters: {
    id: 'id', space: 'plain', name: 'plain', keywords: 'plain', size: 'plain', narrative_ids: { embedded: 'narrative-ids' },
    last_active: 'plain', avg_weight: 'plain',
  },
  emb_clusters: {
    id: 'id', space: 'plain', name: 'plain', centroid: 'plain', member_count: 'plain', total_hits: 'plain',
    created_at: 'plain', updated_at: 'plain',
  },
  emb_cluster_members: {
    space: 'plain', cluster_id: { ref: 'emb_clusters' }, narrative_id: { ref: 'narratives' }, distance: 'plain',
  },
  emb_cluster_adjacency: {
    space: 'plain', cluster_a: { ref: 'emb_clusters' }, cluster_b: { ref: 'emb_clusters' }, shared_count: 'plain',
  },
  graph_nodes: { space: 'plain', entity: 'plain', mention_count: 'plain', first_seen: 'plain', last_seen: 'plain' },
  graph_edges: {
    id: 'id', space: 'plain', entity_a: 'plain', entity_b: 'plain', narrative_id: { ref: 'narratives' }, role_a: 'plain',
    role_b: 'plain', created_at: 'plain',
  },
  graph_cooccur: { space: 'plain', entity_a: 'plain', entity_b: 'plain', cooccur_count: 'plain' },
  sleep_runs: {
    id: 'id', space: 'plain', night: 'plain', status: 'plain', model: 'plain', started_at: 'plain', finished_at: 'plain',
    tokens_in: 'plain', tokens_out: 'plain', log: { embedded: 'night-log' },
  },
  sleep_work: {
    space: 'plain', run_id: { ref: 'sleep_runs' }, step: 'plain', unit: 'plain', status: 'plain',
    payload: { embedded: 'work-payload' }, result: { embedded: 'work-result' }, updated_at: 'plain',
  },
  briefings: { space: 'plain', day: 'plain', headline: 'plain', body: { embedded: 'briefing-body' }, created_at: 'plain' },
  job_state: { space: 'plain', job: 'plain', value: { embedded: 'job-state' }, updated_at: 'plain' },
  workspaces: {
    id: 'id', space: 'plain', root: 'plain', title: 'plain', registered_at: 'plain', last_used_at: 'plain',
    last_tended_day: 'plain',
  },
  journal_archive: {
    id: 'id', space: 'plain', root: 'plain', day: 'plain', content: 'plain', sha256: 'plain', archived_at: 'plain',
    restored_at: 'plain',
  },
  // Never exported nor restored (credentials); classified so a new column is noticed all the same.
  api_tokens: {
    id: 'id', space: 'plain', scope: 'plain', hash: 'plain', label: 'plain', created_at: 'plain', last_used_at: 'plain',
    revoked_at: 'plain',
  },
};

/**
 * Tables outside any export, and why: a restore never loads them, so their ids need no rewriting. Search indexes
 * are rebuilt from the restored rows; the vector copies and change log are written by triggers and lazily.
 */
export const NOT_SPACE_DATA: Readonly<Record<string, string>> = {
  locks: 'process locks, held for minutes',
  schema_migrations: 'the schema version',
  embedding_bits: 'binary copies of vectors, filled in lazily from embeddings',
  embedding_changes: 'the HNSW change log, written by triggers on embeddings',
  embedding_change_floor: 'how far the HNSW change log was cut, per vector set',
  episodes_fts: 'search index, rebuilt by restore',
  narratives_fts: 'search index, rebuilt by restore',
  knowledge_fts: 'search index, rebuilt by restore',
  episodes_tri: 'search index, rebuilt by restore',
  narratives_tri: 'search index, rebuilt by restore',
  knowledge_tri: 'search index, rebuilt by restore',
  episodes_vocab: 'view over the search index',
  narratives_vocab: 'view over the search index',
  knowledge_vocab: 'view over the search index',
  // Each space's own word and trigram tables (`<table>_fts_<n>`, `<table>_tri_<n>`) are created on its first write.
  search_tables: 'the numbers of the search tables of each space, rebuilt by restore',
};
