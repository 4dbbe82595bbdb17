/** Journal workspaces, the archive of days that left the cold tier, and journal episode bookkeeping, over portable SQL. */
import type { JournalArchiveRow, JournalEpisodeRow, JournalStore, JournalWorkspaceRow } from '../port.js';
import type { SqlDriver } from '../sql-driver.js';
import { json, num, numOrNull, toJson } from './sql-util.js';

function toWorkspace(r: Record<string, unknown>): JournalWorkspaceRow {
  return {
    root: String(r.root),
    title: (r.title as string | null) ?? null,
    registeredAt: num(r.registered_at),
    lastUsedAt: num(r.last_used_at),
    lastTendedDay: (r.last_tended_day as string | null) ?? null,
  };
}

/** Escapes LIKE wildcards so a workspace path holding `%` or `_` matches only itself. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Journal store written once for every engine. */
export class JournalSql implements JournalStore {
  readonly #db: SqlDriver;
  readonly #space: string;
  constructor(db: SqlDriver, space: string) {
    this.#space = space;
    this.#db = db;
  }

  async registerWorkspace(
    w: { root: string; title: string | null; at: number },
  ): Promise<void> {
    await this.#db.run(
      `INSERT INTO workspaces (space, root, title, registered_at, last_used_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (space, root) DO UPDATE SET last_used_at = excluded.last_used_at`,
      [this.#space, w.root, w.title, w.at, w.at],
    );
  }

  async workspaces(): Promise<JournalWorkspaceRow[]> {
    const rows = await this.#db.all('SELECT * FROM workspaces WHERE space = ? ORDER BY root', [this.#space]);
    return rows.map(toWorkspace);
  }

  async workspace(root: string): Promise<JournalWorkspaceRow | undefined> {
    const r = await this.#db.get('SELECT * FROM workspaces WHERE space = ? AND root = ?', [this.#space, root]);
    return r ? toWorkspace(r) : undefined;
  }

  async setTendState(root: string, day: string, at: number): Promise<void> {
    await this.#db.run(
      `INSERT INTO workspaces (space, root, title, registered_at, last_used_at, last_tended_day) VALUES (?, ?, NULL, ?, ?, ?)
       ON CONFLICT (space, root) DO UPDATE SET last_tended_day = excluded.last_tended_day`,
      [this.#space, root, at, at, day],
    );
  }

  async archiveDay(
    d: { root: string; day: string; content: string; sha256: string; at: number },
  ): Promise<void> {
    // The schema has no unique key on (space, root, day), so the upsert is an UPDATE, then an INSERT when nothing matched;
    // the journal's workspace lock keeps a second writer of the same day out.
    await this.#db.transaction(async (tx) => {
      const updated = await tx.run(
        'UPDATE journal_archive SET content = ?, sha256 = ?, archived_at = ?, restored_at = NULL WHERE space = ? AND root = ? AND day = ?',
        [d.content, d.sha256, d.at, this.#space, d.root, d.day],
      );
      if (updated.changes > 0) return;
      await tx.run(
        'INSERT INTO journal_archive (space, root, day, content, sha256, archived_at) VALUES (?, ?, ?, ?, ?, ?)',
        [this.#space, d.root, d.day, d.content, d.sha256, d.at],
      );
    });
  }

  async archivedDay(root: string, day: string): Promise<JournalArchiveRow | undefined> {
    const r = await this.#db.get(
      'SELECT * FROM journal_archive WHERE space = ? AND root = ? AND day = ? ORDER BY id DESC LIMIT 1',
      [this.#space, root, day],
    );
    if (!r) return undefined;
    return {
      root: String(r.root),
      day: String(r.day),
      content: String(r.content),
      sha256: String(r.sha256),
      archivedAt: num(r.archived_at),
      restoredAt: numOrNull(r.restored_at),
    };
  }

  async markRestored(root: string, day: string, at: number): Promise<void> {
    await this.#db.run(
      'UPDATE journal_archive SET restored_at = ? WHERE space = ? AND root = ? AND day = ?',
      [at, this.#space, root, day],
    );
  }

  async archivedDays(root: string): Promise<string[]> {
    const rows = await this.#db.all<{ day: string }>(
      'SELECT DISTINCT day FROM journal_archive WHERE space = ? AND root = ? ORDER BY day',
      [this.#space, root],
    );
    return rows.map((r) => String(r.day));
  }

  async episodesByRefPrefix(prefix: string): Promise<JournalEpisodeRow[]> {
    const rows = await this.#db.all(
      "SELECT id, ref, meta, occurred_at FROM episodes WHERE space = ? AND ref LIKE ? ESCAPE '\\' ORDER BY id",
      [this.#space, likePrefix(prefix)],
    );
    // SQLite's LIKE ignores ASCII case; the exact prefix test keeps /Work and /work apart.
    return rows
      .filter((r) => String(r.ref).startsWith(prefix))
      .map((r) => ({
        id: num(r.id),
        ref: String(r.ref),
        meta: json(r.meta, {}, { table: 'episodes', column: 'meta', row: r, space: this.#space }),
        occurredAt: num(r.occurred_at),
      }));
  }

  async moveEpisode(
    id: number,
    p: { meta: Record<string, unknown>; occurredAt: number },
  ): Promise<void> {
    await this.#db.run('UPDATE episodes SET meta = ?, occurred_at = ? WHERE space = ? AND id = ?', [
      toJson(p.meta),
      p.occurredAt,
      this.#space,
      id,
    ]);
  }
}
