/** Raw episodes: the turns, tool calls and notes as they happened, and their lifecycle marks. */
import type { Episode } from '../../core/types.js';
import type { IndexText } from './search-port.js';

/** A new episode row: an `Episode` less what the store gives it (id, space, archive mark), with its index text. */
export type NewEpisode = Omit<Episode, 'id' | 'space' | 'consolidatedAt' | 'archivedAt'> & {
  consolidatedAt?: number | null;
  embedPending: boolean;
  index: IndexText;
};

/** Filters of a timeline read. */
export interface TimelineQuery {
  from?: number;
  to?: number;
  session?: string;
  limit: number;
  offset: number;
  order: 'asc' | 'desc';
  includeArchived: boolean;
}

/** The columns of an episode that recall ranks, filters and shows. */
export type RecallEpisode = Pick<
  Episode,
  'id' | 'kind' | 'role' | 'speaker' | 'content' | 'session' | 'occurredAt' | 'archivedAt'
>;

/** An episode as the Layer-0 scan and the links backfill read it. */
export interface ScriptEpisodeRow {
  id: number;
  content: string;
  role: string | null;
  session: string | null;
  occurredAt: number;
}

/** Raw episodes. */
export interface EpisodeStore {
  /**
   * Inserts rows in order; rows whose `ref` already exists in the space are skipped (idempotent import). The rows
   * are read part by part as they are inserted: a generator's work on later rows may overlap the database's writes
   * of earlier ones (PostgreSQL).
   */
  insertMany(rows: Iterable<NewEpisode>): Promise<{ ids: number[]; skipped: number }>;
  get(id: number): Promise<Episode | undefined>;
  getMany(ids: readonly number[]): Promise<Episode[]>;
  /** What recall ranks and shows of each episode (fewer columns than getMany: recall reads hundreds per query). */
  getForRecall(ids: readonly number[]): Promise<RecallEpisode[]>;
  timeline(q: TimelineQuery): Promise<{ items: Episode[]; total: number }>;
  /**
   * Position facts (id, session, time, speaker) of every episode whose id lies within ±`window` of one of `ids`:
   * enough to find each hit's neighbouring turns of the same session without reading whole sessions.
   */
  around(
    ids: readonly number[],
    window: number,
  ): Promise<Array<{ id: number; session: string | null; occurredAt: number; speaker: string | null }>>;
  /** Contents of the newest `n` episodes of each session, oldest first (a session without episodes is left out). */
  lastInSessions(sessions: readonly string[], n: number): Promise<Map<string, string[]>>;
  /** Ids of the first `n` episodes (by time) of each of `sessions`: the turns that open a conversation. */
  openingTurns(sessions: readonly string[], n: number): Promise<number[]>;
  /** Distinct speakers of the space (for recognising a person a query names). */
  speakers(): Promise<string[]>;
  /** Episodes of one session ordered by time, around `id` (±n turns). */
  neighbours(id: number, n: number): Promise<Episode[]>;
  delete(ids: readonly number[]): Promise<number>;
  count(): Promise<number>;
  /** Ids of the space's episodes whose content is exactly one of `contents` (and, when given, whose source is `source`). */
  idsWithContent(contents: readonly string[], source?: string): Promise<number[]>;
  /** Unconsolidated, unarchived episodes stored after `since` (all when null), by time. */
  storedAfter(since: number | null): Promise<ScriptEpisodeRow[]>;
  /** Episodes whose time lies in one of the closed ranges, by time. */
  inRanges(ranges: ReadonlyArray<readonly [number, number]>): Promise<ScriptEpisodeRow[]>;
  /** Episode ids by `ref` for the refs that exist. */
  idsByRef(refs: readonly string[]): Promise<Map<string, number>>;
  /**
   * Live episodes not yet consolidated that wait since at or before `createdBefore`, oldest first; an episode waits
   * since the earlier of its own time (`occurredAt`) and its insertion, so imported history is eligible at once.
   */
  pending(q: { createdBefore: number; limit: number }): Promise<Episode[]>;
  /** Since when every live, unconsolidated episode waits (earlier of `occurredAt` and insertion; the wake rule), oldest first. */
  pendingTimes(limit: number): Promise<number[]>;
  markConsolidated(ids: readonly number[], at: number): Promise<number>;
  /** Moves live episodes to the cold archive (still readable by timeline). */
  markArchived(ids: readonly number[], at: number): Promise<number>;
  /** Live episodes that retention may move: consolidated at or before `consolidatedBefore`, or created at or before `createdBefore`. */
  retentionCandidates(q: {
    consolidatedBefore: number;
    createdBefore: number;
    limit: number;
  }): Promise<Array<{ id: number; createdAt: number; consolidatedAt: number | null; durable: boolean }>>;
  /**
   * Tool calls and tool results with a session, a tool name and a success flag, occurred at or after `since` (live
   * and archived); a call's `input` is its text (the tool name and its input), at most 1,000 characters.
   */
  toolResults(since: number): Promise<
    Array<{
      id: number;
      session: string;
      tool: string;
      ok: boolean;
      at: number;
      kind: 'tool_call' | 'tool_result';
      input: string | null;
    }>
  >;
  /** Replaces an episode's text, re-indexes it with `index` and drops its vectors (marked for re-embedding). */
  rewrite(id: number, content: string, index: IndexText): Promise<void>;
  /** Re-indexes an episode whose own text is unchanged (its context field changed). */
  reindex(id: number, index: IndexText): Promise<void>;
  /** Ids of rows whose text contains `needle` as written (content), archive included; LIKE-matched, so callers confirm each. */
  idsContaining(needle: string, limit: number): Promise<number[]>;
}
