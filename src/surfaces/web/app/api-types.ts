/** The shapes of the `/v1` answers the dashboard reads (docs/http.md); only the fields it shows. */

export interface Briefing {
  day: string;
  headline: string;
  body: string;
}
export type BriefingAnswer = { briefing: Briefing; today: boolean } | { briefing: null; message: string };

export interface KnowledgeItem {
  id: string;
  kind: string;
  status: string;
  subject: string | null;
  content: string;
  reason: string | null;
}
export interface KnowledgeAnswer {
  items: KnowledgeItem[];
  counts: Record<string, number>;
}

export interface HeatmapRow {
  cluster: string;
  hits: number;
  share: number;
}
export interface MapAnswer {
  topics: Array<{ name: string; size: number }>;
  soft:
    | { kind: 'list'; clusters: Array<{ name: string; memberCount: number }> }
    | { kind: 'empty' | 'cluster'; message?: string };
  heatmap: {
    since: number;
    until: number;
    totalHits: number;
    clusters: HeatmapRow[];
    sources: Array<{ source: string; label: string; hits: number }>;
    neverLit: string[];
  };
  heatmapMessage: string | null;
}

export interface GraphNode {
  entity: string;
  mentionCount: number;
}
export interface GraphAnswer {
  nodes: GraphNode[];
  edges: Array<{ a: string; b: string; count: number }>;
  message: string | null;
}

/** An episode as REST sends it (docs/http.md "Ids and field names"). */
export interface WireEpisode {
  id: string;
  occurred_at: number;
  speaker?: string | null;
  role?: string | null;
  session?: string | null;
  kind: string;
  archived: boolean;
  text: string;
}

export interface TimelineAnswer {
  total: number;
  items: WireEpisode[];
}

export interface RecallAnswer {
  hits: Array<{ id: string; layer: string; text: string; score: number; session?: string | null; speaker?: string | null; createdAt: number }>;
}

export interface EpisodeRow {
  id: number;
  occurredAt: number;
  speaker?: string | null;
  role?: string | null;
  session?: string | null;
  kind: string;
  archivedAt?: number | null;
  content: string;
}
export interface ConversationAnswer {
  focus: EpisodeRow;
  session: string | null;
  items: EpisodeRow[];
}

export interface ReviewAnswer {
  items: Array<{
    id: string;
    kind: string;
    content: string;
    reason: string;
    personalData?: string[];
    against: { id: string; content: string; status: string } | null;
  }>;
}

export interface JournalStatsAnswer {
  root: string;
  today: string;
  tiers: Record<string, number>;
  files: Array<{ file: string; date?: string; location: string; hits: number; pinned?: string }>;
}
export type JournalDayAnswer =
  | { kind: 'found'; date: string; location: string; file: string; content: string }
  | { kind: 'missing'; date: string };

export interface JournalConfigAnswer {
  root: string;
  config: Record<string, number | boolean>;
  warnings: string[];
}
