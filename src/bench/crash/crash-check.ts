/**
 * The crash bench's checks after a kill round, on the SQLite file as the writers left it: SQLite's and each FTS5
 * index's own integrity checks, every index holding exactly its table's rows, and every acknowledged write found by
 * its id and its text.
 */
import Database from 'better-sqlite3';
import type { Layer } from '../../core/types.js';
import { SHARED_FTS_TABLES, spaceFtsTables } from '../../store/sqlite/sqlite-search.js';
import type { Ack } from './crash-acks.js';
import { TAG_PATTERN } from './crash-workload.js';
import { checkWorkspaces, type TendWorkspace } from './crash-tend-lane.js';

/** What one check found. */
export interface CheckResult {
  /** Integrity problems (SQLite, FTS5, index rows out of step with their table, journal days). */
  integrity: string[];
  /** Acknowledged writes missing or altered, one line each. */
  lost: string[];
}

/** Whether the comma-joined ids `a` are all among `b`. */
function isSubset(a: string, b: string): boolean {
  const all = new Set(b.split(','));
  return a === '' || a.split(',').every((x) => all.has(x));
}

const tagsOf = (text: string) => text.match(TAG_PATTERN) ?? [];

/** Rows of `table` by id, with the tags their text carries. */
function tagsById(db: Database.Database, table: 'episodes' | 'knowledge'): Map<number, string[]> {
  const rows = db.prepare(`SELECT id, content FROM ${table}`).all() as Array<{ id: number; content: string }>;
  return new Map(rows.map((r) => [r.id, tagsOf(r.content)]));
}

/** Checks the file and `acks` (and the journal workspaces `touched` this round). */
export function checkAfterRound(path: string, acks: readonly Ack[], touched: readonly TendWorkspace[] = []): CheckResult {
  const db = new Database(path);
  const integrity: string[] = [];
  const lost: string[] = [];
  try {
    const sqlite = db.pragma('integrity_check', { simple: true });
    if (sqlite !== 'ok') integrity.push(`integrity_check: ${String(sqlite)}`);
    const ids = (sql: string) => (db.prepare(sql).pluck().all() as number[]).sort((a, b) => a - b).join(',');
    const ftsCheck = (t: string, want: string, whole: boolean, of: string) => {
      try {
        db.exec(`INSERT INTO ${t}(${t}) VALUES('integrity-check')`);
        // The word index holds every row; the trigram index only rows with raw text worth indexing, none other.
        const indexed = ids(`SELECT rowid FROM ${t}`);
        if (whole ? indexed !== want : !isSubset(indexed, want)) integrity.push(`${t} is out of step with ${of}`);
      } catch (e) {
        integrity.push(`${t} integrity-check: ${e instanceof Error ? e.message : String(e)}`);
      }
    };
    for (const [layer, shared] of Object.entries(SHARED_FTS_TABLES) as Array<[Layer, readonly string[]]>) {
      const table = layer === 'episode' ? 'episodes' : layer === 'narrative' ? 'narratives' : 'knowledge';
      // The shared tables of the first layout stay empty; each space's rows are in its own tables.
      for (const t of shared) ftsCheck(t, '', true, 'nothing');
      const own = db.prepare('SELECT n, space FROM search_tables WHERE layer = ?').all(layer) as Array<{ n: number; space: string }>;
      const spaces = db.prepare(`SELECT DISTINCT space FROM ${table}`).pluck().all() as string[];
      for (const s of spaces.filter((x) => !own.some((o) => o.space === x))) integrity.push(`${table} of space ${s} has no search tables`);
      for (const { n, space } of own) {
        const rows = (db.prepare(`SELECT id FROM ${table} WHERE space = ?`).pluck().all(space) as number[]).sort((a, b) => a - b).join(',');
        const { fts, tri } = spaceFtsTables(layer, n);
        ftsCheck(fts, rows, true, `${table} of space ${space}`);
        ftsCheck(tri, rows, false, `${table} of space ${space}`);
      }
    }
    const archived = db.prepare('SELECT content FROM journal_archive WHERE root = ? AND day = ? AND restored_at IS NULL').pluck();
    integrity.push(...checkWorkspaces(touched, (root, day) => archived.all(root, day) as string[]));

    const episodes = tagsById(db, 'episodes');
    const knowledge = tagsById(db, 'knowledge');
    const everyTag = new Set([...episodes.values()].flat());
    const holds = (rows: Map<number, string[]>, id: string | undefined, tag: string) => id !== undefined && (rows.get(Number(id.slice(1))) ?? []).includes(tag);
    for (const a of acks) {
      const what = `${a.via} ${a.kind} ${a.tag}`;
      if (a.kind === 'turns') {
        a.ids.forEach((id, j) => {
          if (!holds(episodes, id, `${a.tag}t${j}`)) lost.push(`${what}: turn ${j} (${id})`);
        });
      } else if (a.kind === 'fact') {
        if (!holds(knowledge, a.id, a.tag)) lost.push(`${what}: knowledge ${a.id}`);
        if (a.episodeId !== undefined && !holds(episodes, a.episodeId, a.tag)) lost.push(`${what}: episode ${a.episodeId}`);
      } else {
        for (let j = 0; j < a.n; j++) if (!everyTag.has(`${a.tag}t${j}`)) lost.push(`${what}: turn ${j} (by text)`);
      }
    }
  } finally {
    db.close();
  }
  return { integrity, lost };
}
