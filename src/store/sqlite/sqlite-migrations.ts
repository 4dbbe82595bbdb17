/** Numbered SQLite schema migrations: the whole data model of DESIGN.md §1 (v1) and each change since (v2 …). */
// Past 400 lines on purpose (STYLE §4): the schema is SQL text, one table after another, never edited once released.

/** One migration: its number and the statements that take the schema from `version - 1` to `version`. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

// Every table carries `space` (DESIGN §1: two spaces never see each other's rows) and epoch-ms integer times.
const V1 = `
CREATE TABLE spaces (
  id TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  meta TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE episodes (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  kind TEXT NOT NULL,
  role TEXT,
  speaker TEXT,
  content TEXT NOT NULL,
  session TEXT,
  tool TEXT,
  ok INTEGER,
  source TEXT NOT NULL,
  ref TEXT,
  meta TEXT NOT NULL DEFAULT '{}',
  durable INTEGER NOT NULL DEFAULT 0,
  occurred_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  consolidated_at INTEGER,
  archived_at INTEGER,
  embed_pending INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ix_episodes_space_time ON episodes(space, occurred_at);
CREATE INDEX ix_episodes_space_session ON episodes(space, session, occurred_at);
CREATE UNIQUE INDEX ux_episodes_ref ON episodes(space, ref) WHERE ref IS NOT NULL;
CREATE INDEX ix_episodes_pending ON episodes(space, consolidated_at) WHERE consolidated_at IS NULL;

CREATE TABLE narratives (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'narrative',
  ntype TEXT NOT NULL DEFAULT 'general',
  content TEXT NOT NULL,
  gesture TEXT,
  context TEXT,
  moment TEXT,
  cognition_direction TEXT,
  tags TEXT NOT NULL DEFAULT '[]',
  entities_role TEXT,
  related_entities TEXT NOT NULL DEFAULT '[]',
  source_links TEXT NOT NULL DEFAULT '[]',
  importance INTEGER NOT NULL,
  emotional INTEGER NOT NULL,
  recurrence INTEGER NOT NULL,
  unresolved INTEGER NOT NULL,
  weight REAL NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  embed_pending INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ix_narratives_space_time ON narratives(space, created_at);
CREATE INDEX ix_narratives_space_weight ON narratives(space, weight);

CREATE TABLE narrative_tags (
  space TEXT NOT NULL,
  narrative_id INTEGER NOT NULL,
  tag TEXT NOT NULL,
  PRIMARY KEY (narrative_id, tag)
);
CREATE INDEX ix_narrative_tags_tag ON narrative_tags(space, tag);

CREATE TABLE knowledge (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  kind TEXT NOT NULL,
  key TEXT,
  subject TEXT,
  content TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'provisional',
  occurrences INTEGER NOT NULL DEFAULT 1,
  strength REAL NOT NULL DEFAULT 0.5,
  last_reinforced_at INTEGER NOT NULL,
  importance INTEGER NOT NULL DEFAULT 3,
  durable INTEGER NOT NULL DEFAULT 0,
  tags TEXT NOT NULL DEFAULT '[]',
  evidence TEXT NOT NULL DEFAULT '{"episodes":[],"narratives":[]}',
  source TEXT NOT NULL,
  valid_from INTEGER,
  valid_to INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  superseded_by INTEGER,
  meta TEXT NOT NULL DEFAULT '{}',
  embed_pending INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ix_knowledge_space_status ON knowledge(space, status, kind);
CREATE UNIQUE INDEX ux_knowledge_live_key ON knowledge(space, key)
  WHERE key IS NOT NULL AND status NOT IN ('superseded', 'forgotten');

CREATE TABLE knowledge_links (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  from_id INTEGER NOT NULL,
  to_id INTEGER NOT NULL,
  type TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (from_id, to_id, type)
);
CREATE INDEX ix_knowledge_links_to ON knowledge_links(to_id);

CREATE TABLE profiles (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  entity TEXT NOT NULL,
  ptype TEXT NOT NULL,
  content TEXT NOT NULL,
  pinned INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (space, entity, ptype)
);
CREATE TABLE profile_history (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  entity TEXT NOT NULL,
  ptype TEXT NOT NULL,
  content TEXT NOT NULL,
  valid_from INTEGER NOT NULL,
  replaced_at INTEGER NOT NULL
);
CREATE INDEX ix_profile_history ON profile_history(space, entity, ptype, replaced_at);

CREATE TABLE self_concept (
  space TEXT NOT NULL,
  field TEXT NOT NULL,
  content TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (space, field)
);
CREATE TABLE self_concept_history (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  field TEXT NOT NULL,
  content TEXT NOT NULL,
  valid_from INTEGER NOT NULL,
  replaced_at INTEGER NOT NULL
);

CREATE TABLE snapshots (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX ix_snapshots ON snapshots(space, created_at);

CREATE TABLE threads (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  content TEXT NOT NULL,
  importance INTEGER NOT NULL,
  emotional INTEGER NOT NULL,
  recurrence INTEGER NOT NULL,
  unresolved INTEGER NOT NULL,
  weight REAL NOT NULL,
  status TEXT NOT NULL DEFAULT 'open',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  explored_at INTEGER
);
CREATE INDEX ix_threads ON threads(space, status, weight);

CREATE TABLE goals (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  text TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active',
  session TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE checkpoints (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  goal_id INTEGER,
  plan TEXT NOT NULL,
  session TEXT,
  created_at INTEGER NOT NULL
);
CREATE TABLE pending_events (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL DEFAULT '{}',
  session TEXT,
  created_at INTEGER NOT NULL,
  delivered_at INTEGER
);

CREATE TABLE embeddings (
  space TEXT NOT NULL,
  layer TEXT NOT NULL,
  item_id INTEGER NOT NULL,
  model TEXT NOT NULL,
  dim INTEGER NOT NULL,
  vector BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (layer, item_id, model)
);
CREATE INDEX ix_embeddings_space ON embeddings(space, layer, model);

CREATE TABLE attention_log (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  layer TEXT NOT NULL,
  item_id INTEGER NOT NULL,
  sim REAL NOT NULL DEFAULT 0,
  cluster TEXT,
  source TEXT NOT NULL,
  session TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX ix_attention_time ON attention_log(space, created_at);
CREATE INDEX ix_attention_item ON attention_log(layer, item_id);
CREATE TABLE attention_stats (
  space TEXT NOT NULL,
  cluster TEXT NOT NULL,
  hit_count INTEGER NOT NULL DEFAULT 0,
  last_hit INTEGER NOT NULL,
  last_item_id INTEGER,
  PRIMARY KEY (space, cluster)
);

CREATE TABLE topic_clusters (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  name TEXT NOT NULL,
  keywords TEXT NOT NULL DEFAULT '[]',
  size INTEGER NOT NULL,
  narrative_ids TEXT NOT NULL DEFAULT '[]',
  last_active INTEGER,
  avg_weight REAL,
  UNIQUE (space, name)
);
CREATE TABLE emb_clusters (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  name TEXT NOT NULL,
  centroid BLOB,
  member_count INTEGER NOT NULL,
  total_hits INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE emb_cluster_members (
  space TEXT NOT NULL,
  cluster_id INTEGER NOT NULL,
  narrative_id INTEGER NOT NULL,
  distance REAL NOT NULL,
  PRIMARY KEY (cluster_id, narrative_id)
);
CREATE INDEX ix_emb_members_narrative ON emb_cluster_members(narrative_id);
CREATE TABLE emb_cluster_adjacency (
  space TEXT NOT NULL,
  cluster_a INTEGER NOT NULL,
  cluster_b INTEGER NOT NULL,
  shared_count INTEGER NOT NULL,
  PRIMARY KEY (cluster_a, cluster_b)
);
CREATE TABLE graph_nodes (
  space TEXT NOT NULL,
  entity TEXT NOT NULL,
  mention_count INTEGER NOT NULL,
  first_seen INTEGER NOT NULL,
  last_seen INTEGER NOT NULL,
  PRIMARY KEY (space, entity)
);
CREATE TABLE graph_edges (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  entity_a TEXT NOT NULL,
  entity_b TEXT NOT NULL,
  narrative_id INTEGER NOT NULL,
  role_a TEXT,
  role_b TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX ix_graph_edges_a ON graph_edges(space, entity_a);
CREATE INDEX ix_graph_edges_b ON graph_edges(space, entity_b);
CREATE TABLE graph_cooccur (
  space TEXT NOT NULL,
  entity_a TEXT NOT NULL,
  entity_b TEXT NOT NULL,
  cooccur_count INTEGER NOT NULL,
  PRIMARY KEY (space, entity_a, entity_b)
);

CREATE TABLE sleep_runs (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  night TEXT NOT NULL,
  status TEXT NOT NULL,
  model TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  finished_at INTEGER,
  tokens_in INTEGER NOT NULL DEFAULT 0,
  tokens_out INTEGER NOT NULL DEFAULT 0,
  log TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX ix_sleep_runs ON sleep_runs(space, night);
CREATE TABLE sleep_work (
  space TEXT NOT NULL,
  run_id INTEGER NOT NULL,
  step TEXT NOT NULL,
  unit TEXT NOT NULL,
  status TEXT NOT NULL,
  payload TEXT NOT NULL DEFAULT '{}',
  result TEXT,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (run_id, step, unit)
);
CREATE TABLE briefings (
  space TEXT NOT NULL,
  day TEXT NOT NULL,
  headline TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (space, day)
);
CREATE TABLE locks (
  name TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE TABLE job_state (
  space TEXT NOT NULL,
  job TEXT NOT NULL,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (space, job)
);

CREATE TABLE workspaces (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  root TEXT NOT NULL,
  title TEXT,
  registered_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL,
  last_tended_day TEXT,
  UNIQUE (space, root)
);
CREATE TABLE journal_archive (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  root TEXT NOT NULL,
  day TEXT NOT NULL,
  content TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  archived_at INTEGER NOT NULL,
  restored_at INTEGER
);
CREATE INDEX ix_journal_archive ON journal_archive(space, root, day);

CREATE TABLE api_tokens (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  scope TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  label TEXT,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);

CREATE VIRTUAL TABLE episodes_fts USING fts5(body, speaker, ctx, content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE narratives_fts USING fts5(body, tags, content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE knowledge_fts USING fts5(body, tags, content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE episodes_vocab USING fts5vocab(episodes_fts, 'row');
CREATE VIRTUAL TABLE narratives_vocab USING fts5vocab(narratives_fts, 'row');
CREATE VIRTUAL TABLE knowledge_vocab USING fts5vocab(knowledge_fts, 'row');
CREATE VIRTUAL TABLE episodes_tri USING fts5(body, content='', contentless_delete=1, tokenize='trigram');
CREATE VIRTUAL TABLE narratives_tri USING fts5(body, content='', contentless_delete=1, tokenize='trigram');
CREATE VIRTUAL TABLE knowledge_tri USING fts5(body, content='', contentless_delete=1, tokenize='trigram');
`;

/**
 * v2: a compact binary copy of every vector (one bit per dimension, sqlite-vec's vec_quantize_binary) in a table of
 * its own, so a Hamming pre-selection scans 48-byte rows instead of walking each 1.5 KB float vector's overflow
 * pages; the exact cosine re-scores the candidates. Rows are written by the store when sqlite-vec is loaded and
 * filled in lazily for vectors written without it; the triggers drop a copy whose vector changed or went away.
 */
const V2 = `
CREATE TABLE embedding_bits (
  space TEXT NOT NULL,
  layer TEXT NOT NULL,
  item_id INTEGER NOT NULL,
  model TEXT NOT NULL,
  dim INTEGER NOT NULL,
  bits BLOB NOT NULL,
  PRIMARY KEY (layer, item_id, model)
);
CREATE INDEX ix_embedding_bits_space ON embedding_bits(space, layer, model, dim);
CREATE TRIGGER tg_embeddings_bits_delete AFTER DELETE ON embeddings BEGIN
  DELETE FROM embedding_bits WHERE layer = old.layer AND item_id = old.item_id AND model = old.model;
END;
CREATE TRIGGER tg_embeddings_bits_update AFTER UPDATE OF vector, dim, space ON embeddings BEGIN
  DELETE FROM embedding_bits WHERE layer = old.layer AND item_id = old.item_id AND model = old.model;
END;
`;

/**
 * v3: a log of vector changes for the HNSW index files beside the database (store/sqlite/hnsw-index.ts). Triggers
 * write one row (ids only, never the vector) for every insert, change and delete of an embedding, whatever code path
 * made it, so an index loaded from a file, or held by another process or thread, catches up by replaying the rows
 * after the sequence number it was saved at: a put re-reads the vector from `embeddings`, a drop removes it.
 */
const V3 = `
CREATE TABLE embedding_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  space TEXT NOT NULL,
  layer TEXT NOT NULL,
  model TEXT NOT NULL,
  dim INTEGER NOT NULL,
  item_id INTEGER NOT NULL,
  op TEXT NOT NULL CHECK (op IN ('put', 'drop'))
);
CREATE INDEX ix_embedding_changes_key ON embedding_changes(space, layer, model, dim, seq);
CREATE TRIGGER tg_embeddings_changes_insert AFTER INSERT ON embeddings BEGIN
  INSERT INTO embedding_changes (space, layer, model, dim, item_id, op) VALUES (new.space, new.layer, new.model, new.dim, new.item_id, 'put');
END;
CREATE TRIGGER tg_embeddings_changes_update AFTER UPDATE OF vector, dim, space ON embeddings BEGIN
  INSERT INTO embedding_changes (space, layer, model, dim, item_id, op) VALUES (old.space, old.layer, old.model, old.dim, old.item_id, 'drop');
  INSERT INTO embedding_changes (space, layer, model, dim, item_id, op) VALUES (new.space, new.layer, new.model, new.dim, new.item_id, 'put');
END;
CREATE TRIGGER tg_embeddings_changes_delete AFTER DELETE ON embeddings BEGIN
  INSERT INTO embedding_changes (space, layer, model, dim, item_id, op) VALUES (old.space, old.layer, old.model, old.dim, old.item_id, 'drop');
END;
`;

/**
 * v4: each space's word and trigram tables of a layer (store/sqlite/sqlite-search.ts), numbered here and created on
 * the space's first write to the layer, so BM25 counts the space's rows only. The shared tables of v1 stay until the
 * app has indexed their rows again into these (`termsOutdated`, on open, in one transaction) and then stay empty.
 */
const V4 = `
CREATE TABLE search_tables (
  n INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  layer TEXT NOT NULL,
  UNIQUE (space, layer)
);
`;

/**
 * v5: how far each vector set's change log has been cut (store/sqlite/hnsw-index.ts). An index that applied changes
 * only up to below this sequence number cannot catch up from the log and is built again from `embeddings`; an index
 * file saved below it may predate a cut drop and is deleted by purge.
 */
const V5 = `
CREATE TABLE embedding_change_floor (
  space TEXT NOT NULL,
  layer TEXT NOT NULL,
  model TEXT NOT NULL,
  dim INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (space, layer, model, dim)
);
`;

/** All SQLite migrations in order. A new schema change is a new entry, never an edit of an old one. */
export const SQLITE_MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial schema', sql: V1 },
  { version: 2, name: 'binary-quantised vector copies', sql: V2 },
  { version: 3, name: 'vector change log for HNSW index files', sql: V3 },
  { version: 4, name: 'search tables per space', sql: V4 },
  { version: 5, name: 'change log floor per vector set', sql: V5 },
];
