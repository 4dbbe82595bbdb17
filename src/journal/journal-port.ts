/** What the journal needs from the memory database, as a port the app implements over the Store (DESIGN §1.6, §7). */

/** One `##` section of a day file or of MEMORY.md, to be stored as a journal episode so that core recall finds it. */
export interface JournalSection {
  /** Path relative to `memory/`: `archive/hot/2026-10-29.md`, `MEMORY.md`. */
  file: string;
  /** `core` for MEMORY.md; otherwise where the day file lies. */
  tier: 'core' | 'hot' | 'cold' | 'legacy';
  /** The day of a day file. */
  date?: string;
  /** Heading text after `## `, e.g. `【14:30 wrote the tide tests】`. */
  heading: string;
  /** `HH:MM` from the heading, when it has one. */
  time?: string;
  /** Heading without time and brackets. */
  title: string;
  /** 1-based line of the heading. */
  line: number;
  /** Section body (HTML comments removed), never empty. */
  text: string;
  /** Epoch ms of the day + time in the journal's zone (day start when untimed); absent for MEMORY.md. */
  occurredAt?: number;
  /** Stable across tier moves and unrelated edits: `2026-10-29.md#【14:30 …】`, plus `#2`… for repeats. */
  key: string;
  /** sha256 hex of heading + "\n" + text, so an implementation can skip unchanged sections. */
  sha256: string;
}

/**
 * The database side of the journal. Every `root` is the real path of the workspace. Implementations must be
 * idempotent where noted, because a tend interrupted by a crash repeats its last step.
 */
export interface JournalHost {
  /** Remembers a workspace that used the journal (auto-tend visits these); idempotent. */
  registerWorkspace(root: string): Promise<void>;
  /** Every registered workspace. */
  listWorkspaces(): Promise<string[]>;
  /** Stores a day file that leaves the cold folder over coldMaxFiles; idempotent per (root, date): the last copy wins. */
  archiveDay(root: string, date: string, content: string): Promise<void>;
  /** The archived content of a day, or undefined; the archive keeps its copy. */
  restoreDay(root: string, date: string): Promise<string | undefined>;
  /** Days of this workspace held in the archive database. */
  listArchivedDays(root: string): Promise<string[]>;
  /** Replaces all journal episodes of this workspace with `sections` (source `journal`). */
  indexSections(root: string, sections: readonly JournalSection[]): Promise<void>;
  /** The day of the last completed tend, or undefined. */
  getTendState(root: string): Promise<string | undefined>;
  /** Records a completed tend. */
  setTendState(root: string, day: string): Promise<void>;
}
