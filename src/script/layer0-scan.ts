/** The Layer-0 unindexed scan: what the nightly solidify step still has to read (SEEDS §1.7 scan_unindexed). */

/** A narrative reduced to what the scan reads. */
export interface ScanNarrative {
  id: number;
  sourceLinks: readonly number[] | null;
  createdAt: number;
  hasEmbedding: boolean;
}

/** An episode reduced to what the scan reads. */
export interface ScanEpisode {
  id: number;
  content: string;
  role?: string | null;
  session?: string | null;
  createdAt: number;
  hasEmbedding: boolean;
}

/** Options of {@link scanUnindexed}; defaults are SEEDS §1.7. */
export interface ScanOptions {
  /** Track B reads turns after this time; default the newest narrative's createdAt, or everything. */
  since?: number;
  /** A gap of at most this continues a chunk (10 minutes). */
  gapMs?: number;
  /** Chunks with fewer turns are dropped (3). */
  minTurns?: number;
}

/** One turn of a chunk. */
export interface ScanTurn {
  id: number;
  role: string;
  at: number;
  content: string;
}

/** A burst of conversation for the solidify step; its `episodeIds` become the new narratives' source_links. */
export interface ScanChunk {
  chunkId: number;
  session: string | null;
  start: number;
  end: number;
  entryCount: number;
  episodeIds: number[];
  turns: ScanTurn[];
}

/** The four tracks. */
export interface Layer0Scan {
  /** Narratives without source_links. */
  trackA: { count: number; narrativeIds: number[] };
  /** Conversation turns not yet solidified, in chunks. */
  trackB: { since: number | null; turnCount: number; droppedTurns: number; chunks: ScanChunk[] };
  /** Narratives without an embedding. */
  trackC: { count: number; narrativeIds: number[] };
  /** Episodes without an embedding. */
  trackD: { count: number; episodeIds: number[] };
}

/** SEEDS §1.7: a gap ≤ 10 min continues a chunk; chunks of < 3 turns are dropped. */
export const SCAN_DEFAULTS = { gapMs: 10 * 60_000, minTurns: 3 } as const;

const TURN_ROLES = new Set(['user', 'assistant']);
const TAGGED_TURN = /^\[(USER|ASSISTANT)\]/i;

/**
 * Runs the four tracks. Track B takes user/assistant turns (by role, or Tideline's `[USER]`/`[ASSISTANT]`
 * prefix) strictly after `since`, leaves out turns some narrative already links, groups them by session and
 * cuts each session's turns into chunks at gaps over `gapMs`.
 */
export function scanUnindexed(
  narratives: readonly ScanNarrative[],
  episodes: readonly ScanEpisode[],
  opts: ScanOptions = {},
): Layer0Scan {
  const gapMs = opts.gapMs ?? SCAN_DEFAULTS.gapMs;
  const minTurns = opts.minTurns ?? SCAN_DEFAULTS.minTurns;
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  const unlinked = narratives.filter((n) => !n.sourceLinks || n.sourceLinks.length === 0).sort(byId);
  const unembedded = narratives.filter((n) => !n.hasEmbedding).sort(byId);
  const since =
    opts.since ?? (narratives.length > 0 ? Math.max(...narratives.map((n) => n.createdAt)) : null);
  const linked = new Set(narratives.flatMap((n) => n.sourceLinks ?? []));
  const turns = episodes
    .filter((e) => (since === null || e.createdAt > since) && !linked.has(e.id) && isTurn(e))
    .sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
  const sessions = new Map<string, ScanEpisode[]>();
  for (const t of turns) {
    const key = t.session ?? '';
    const list = sessions.get(key);
    if (list) list.push(t);
    else sessions.set(key, [t]);
  }
  const chunks: ScanChunk[] = [];
  let dropped = 0;
  for (const list of sessions.values()) {
    let cur: ScanEpisode[] = [];
    const flush = () => {
      if (cur.length >= minTurns) chunks.push(toChunk(cur));
      else dropped += cur.length;
      cur = [];
    };
    for (const t of list) {
      if (cur.length > 0 && t.createdAt - cur[cur.length - 1]!.createdAt > gapMs) flush();
      cur.push(t);
    }
    flush();
  }
  chunks.sort((a, b) => a.start - b.start || a.episodeIds[0]! - b.episodeIds[0]!);
  chunks.forEach((c, i) => (c.chunkId = i + 1));
  return {
    trackA: { count: unlinked.length, narrativeIds: unlinked.map((n) => n.id) },
    trackB: { since, turnCount: turns.length, droppedTurns: dropped, chunks },
    trackC: { count: unembedded.length, narrativeIds: unembedded.map((n) => n.id) },
    trackD: {
      count: episodes.filter((e) => !e.hasEmbedding).length,
      episodeIds: episodes
        .filter((e) => !e.hasEmbedding)
        .map((e) => e.id)
        .sort((a, b) => a - b),
    },
  };
}

function isTurn(e: ScanEpisode): boolean {
  return (e.role !== null && e.role !== undefined && TURN_ROLES.has(e.role)) || TAGGED_TURN.test(e.content);
}

function roleOf(e: ScanEpisode): string {
  if (e.role && TURN_ROLES.has(e.role)) return e.role;
  return TAGGED_TURN.exec(e.content)?.[1]?.toLowerCase() ?? 'user';
}

function toChunk(list: readonly ScanEpisode[]): ScanChunk {
  return {
    chunkId: 0,
    session: list[0]!.session ?? null,
    start: list[0]!.createdAt,
    end: list[list.length - 1]!.createdAt,
    entryCount: list.length,
    episodeIds: list.map((e) => e.id),
    turns: list.map((e) => ({ id: e.id, role: roleOf(e), at: e.createdAt, content: e.content })),
  };
}

/** Markdown for a human or an agent (SEEDS §1.7): per chunk its start, entry count, `context_ids` and rows cut to `maxChars`. */
export function renderScanMarkdown(scan: Layer0Scan, maxChars = 300): string {
  const lines = ['# Layer 0 scan', ''];
  const a = scan.trackA;
  lines.push(
    `- Track A: ${a.count} narratives without source_links${a.count > 0 && a.count <= 10 ? ` (ids ${a.narrativeIds.join(', ')})` : ''}`,
  );
  const b = scan.trackB;
  lines.push(
    `- Track B: ${b.chunks.length} chunks from ${b.turnCount} turns since ${b.since === null ? 'the beginning' : stamp(b.since)} (${b.droppedTurns} turns in chunks under the minimum left out)`,
  );
  const c = scan.trackC;
  lines.push(
    `- Track C: ${c.count} narratives without an embedding${c.count > 0 ? ` (first ids ${c.narrativeIds.slice(0, 5).join(', ')})` : ''}`,
  );
  lines.push(`- Track D: ${scan.trackD.count} episodes without an embedding`);
  for (const ch of b.chunks) {
    lines.push(
      '',
      `## Chunk ${ch.chunkId}: ${stamp(ch.start)}, ${ch.entryCount} entries${ch.session ? ` (session ${ch.session})` : ''}`,
    );
    lines.push(`context_ids: [${ch.episodeIds.join(', ')}]`);
    for (const t of ch.turns) {
      const text = t.content.replace(/\s+/g, ' ').trim();
      const body = TAGGED_TURN.test(text) ? text : `[${t.role.toUpperCase()}] ${text}`;
      lines.push(
        `- ${stamp(t.at).slice(11)} ${[...body].length > maxChars ? `${[...body].slice(0, maxChars).join('')}…` : body}`,
      );
    }
  }
  return lines.join('\n');
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}
