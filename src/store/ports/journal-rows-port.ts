/** Journal workspaces, the archive of days and journal episodes. */

/** One workspace that used the journal in a space. */
export interface JournalWorkspaceRow {
  /** Real path of the workspace folder. */
  root: string;
  title: string | null;
  registeredAt: number;
  lastUsedAt: number;
  /** The journal day of the last completed tend. */
  lastTendedDay: string | null;
}

/** A day file that left the cold folder over coldMaxFiles, kept in the database instead of being deleted. */
export interface JournalArchiveRow {
  root: string;
  day: string;
  content: string;
  sha256: string;
  archivedAt: number;
  restoredAt: number | null;
}

/** A journal episode's identity and place, for replacing a workspace's sections without re-inserting unchanged ones. */
export interface JournalEpisodeRow {
  id: number;
  ref: string;
  meta: Record<string, unknown>;
  occurredAt: number;
}

/** Journal workspaces, the archive of days (DESIGN §7: overflow goes to the database, not away), journal episodes. */
export interface JournalStore {
  /** Adds the workspace or stamps its last use; idempotent. */
  registerWorkspace(w: { root: string; title: string | null; at: number }): Promise<void>;
  workspaces(): Promise<JournalWorkspaceRow[]>;
  workspace(root: string): Promise<JournalWorkspaceRow | undefined>;
  /** Records a completed tend; registers the workspace when it was not. */
  setTendState(root: string, day: string, at: number): Promise<void>;
  /** Stores a day; idempotent per (space, root, day): the last copy wins and a restore mark is cleared. */
  archiveDay(d: { root: string; day: string; content: string; sha256: string; at: number }): Promise<void>;
  archivedDay(root: string, day: string): Promise<JournalArchiveRow | undefined>;
  /** Stamps a restore; the archived copy stays. */
  markRestored(root: string, day: string, at: number): Promise<void>;
  /** Days of the workspace in the archive, ascending. */
  archivedDays(root: string): Promise<string[]>;
  /** Episodes of the space whose `ref` starts with `prefix` exactly (case-sensitive). */
  episodesByRefPrefix(prefix: string): Promise<JournalEpisodeRow[]>;
  /** Rewrites an episode's meta and time in place (a section that moved tier but kept its text). */
  moveEpisode(id: number, p: { meta: Record<string, unknown>; occurredAt: number }): Promise<void>;
}
