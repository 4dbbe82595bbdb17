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

export interface TimelineAnswer {
  total: number;
  items: Array<{
    id: string;
    occurred_at: number;
    speaker?: string | null;
    role?: string | null;
    kind: string;
    archived: boolean;
    text: string;
  }>;
}

export interface RecallAnswer {
  hits: Array<{ id: string; layer: string; text: string; score: number }>;
}

export interface JournalConfigAnswer {
  root: string;
  config: Record<string, number | boolean>;
  warnings: string[];
}
