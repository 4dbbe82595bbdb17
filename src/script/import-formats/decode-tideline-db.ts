/**
 * Decodes the rows of a Tideline SQLite database (SEEDS §1.3) into plain records; `app/read-tideline-db.ts` reads
 * them from the file. Timestamps of every Tideline writer become epoch ms; JSON columns (tags with `\uXXXX` escapes,
 * source_links, related_entities, meta, embeddings) are decoded; columns this decoder does not know are kept in `extra`.
 */
import { isRecord } from './read-json-lines.js';

/** A Tideline narrative; `context` is Tideline's `context_layer`. */
export interface TidelineNarrative {
  id: number;
  content: string;
  ntype: string;
  tags: string[];
  gesture: string | null;
  context: string | null;
  moment: string | null;
  cognitionDirection: string | null;
  relatedEntities: string[];
  sourceLinks: number[];
  entitiesRole: string | null;
  weight: number | null;
  importance: number | null;
  emotional: number | null;
  recurrence: number | null;
  unresolved: number | null;
  embedding: number[] | null;
  createdAt: number | null;
  extra: Record<string, unknown>;
}

/** A raw context row; `role` and `session` come from the `[USER]`/`[ASSISTANT]` prefix and from meta. */
export interface TidelineContext {
  id: number;
  content: string;
  role: 'user' | 'assistant' | null;
  session: string | null;
  meta: Record<string, unknown>;
  embedding: number[] | null;
  createdAt: number | null;
  extra: Record<string, unknown>;
}

/** Profile, self-concept, snapshot, thread and topic-cluster rows. */
export interface TidelineProfile {
  id: number;
  entity: string;
  ptype: string;
  content: string;
  updatedAt: number | null;
  extra: Record<string, unknown>;
}
export interface TidelineSelfConcept {
  field: string;
  content: string;
  updatedAt: number | null;
  extra: Record<string, unknown>;
}
export interface TidelineSnapshot {
  id: number;
  content: string;
  createdAt: number | null;
  extra: Record<string, unknown>;
}
export interface TidelineThread {
  id: number;
  content: string;
  importance: number | null;
  emotional: number | null;
  recurrence: number | null;
  unresolved: number | null;
  weight: number | null;
  status: string;
  createdAt: number | null;
  exploredAt: number | null;
  extra: Record<string, unknown>;
}
export interface TidelineTopicCluster {
  name: string;
  size: number;
  narrativeIds: number[];
  lastActive: number | null;
  avgWeight: number | null;
  extra: Record<string, unknown>;
}

/** Everything read from one database. */
export interface TidelineDb {
  narratives: TidelineNarrative[];
  context: TidelineContext[];
  profiles: TidelineProfile[];
  selfConcept: TidelineSelfConcept[];
  snapshots: TidelineSnapshot[];
  threads: TidelineThread[];
  topicClusters: TidelineTopicCluster[];
  /** Tables of this list that the database lacks (older versions). */
  missingTables: string[];
  /** Values that could not be read, e.g. `narratives 7 created_at: "yesterday"`. */
  warnings: string[];
}

/**
 * Epoch ms of a Tideline timestamp: `YYYY-MM-DD HH:MM:SS` (server, UTC), `YYYY-MM-DDTHH:MM:SSZ` (provider),
 * `isoformat()` with microseconds and no zone (scripts; read as UTC shifted by `naiveOffsetMinutes`), or with an
 * explicit offset such as `+08:00`; also a bare date or a number of epoch seconds/ms (SEEDS T-8).
 */
export function parseTidelineTime(v: unknown, naiveOffsetMinutes = 0): number | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'number' && Number.isFinite(v)) return v < 1e11 ? Math.round(v * 1000) : Math.round(v);
  if (typeof v !== 'string') return null;
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(
      v.trim(),
    );
  if (!m) return /^\d+(\.\d+)?$/.test(v.trim()) ? parseTidelineTime(Number(v.trim())) : null;
  const ms = Number((m[7] ?? '0').slice(0, 3).padEnd(3, '0'));
  const utc = Date.UTC(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4] ?? 0),
    Number(m[5] ?? 0),
    Number(m[6] ?? 0),
    ms,
  );
  const zone = m[8];
  if (!zone) return utc - naiveOffsetMinutes * 60_000;
  if (zone.toUpperCase() === 'Z') return utc;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return utc - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
}

/** A JSON list column as strings: JSON (escaped CJK decodes), doubly encoded JSON, a Python list repr, or `a, b`. */
export function decodeList(v: unknown): string[] {
  if (v === null || v === undefined || v === '') return [];
  if (Array.isArray(v)) return v.map((x) => String(x));
  if (typeof v !== 'string') return [String(v)];
  const s = v.trim();
  for (const attempt of [s, s.replace(/'/g, '"')]) {
    try {
      const parsed: unknown = JSON.parse(attempt);
      if (Array.isArray(parsed)) return parsed.map((x) => String(x)).filter((x) => x !== '');
      if (typeof parsed === 'string') return decodeList(parsed);
    } catch {
      // not JSON in this spelling; try the next
    }
  }
  return s
    .split(/[,，]/)
    .map((x) => x.trim())
    .filter(Boolean);
}

/** The seven tables Tidepool imports, each with the order its rows are read in. */
export const TIDELINE_TABLES = {
  narratives: 'id',
  context: 'id',
  profiles: 'id',
  self_concept: 'field',
  snapshots: 'id',
  threads: 'id',
  topic_clusters: 'cluster_name',
} as const;

/** A table of {@link TIDELINE_TABLES}. */
export type TidelineTable = keyof typeof TIDELINE_TABLES;

/** The raw rows of each table, in {@link TIDELINE_TABLES} order; a table the database lacks is absent. */
export type TidelineRows = Partial<Record<TidelineTable, ReadonlyArray<Record<string, unknown>>>>;

/** Options of {@link decodeTidelineDb}. */
export interface ReadTidelineOptions {
  /** Offset of zone-less `isoformat()` times written in local time (e.g. 480 for UTC+8); default 0 (UTC). */
  naiveOffsetMinutes?: number;
}

/** Every row of the seven tables Tidepool imports, decoded; absent tables are named in `missingTables`. */
export function decodeTidelineDb(tables: TidelineRows, opts: ReadTidelineOptions = {}): TidelineDb {
  const warnings: string[] = [];
  const missingTables: string[] = [];
  const time = (table: string, id: unknown, col: string, v: unknown) => {
    const t = parseTidelineTime(v, opts.naiveOffsetMinutes);
    if (t === null && v !== null && v !== undefined && v !== '')
      warnings.push(`${table} ${String(id)} ${col}: ${JSON.stringify(v)}`);
    return t;
  };
  const rows = (table: TidelineTable) => {
    const found = tables[table];
    if (!found) missingTables.push(table);
    return found ?? [];
  };
  const narratives = rows('narratives').map((r) => {
    const links = decodeList(r['source_links']);
    const sourceLinks = links.map(Number).filter((n) => Number.isInteger(n));
    if (sourceLinks.length !== links.length)
      warnings.push(`narratives ${String(r['id'])} source_links: ${JSON.stringify(r['source_links'])}`);
    return {
      id: num(r['id'])!,
      content: text(r['content']) ?? '',
      ntype: text(r['ntype']) ?? 'general',
      tags: decodeList(r['tags']),
      gesture: text(r['gesture']),
      context: text(r['context_layer']),
      moment: text(r['moment']),
      cognitionDirection: text(r['cognition_direction']),
      relatedEntities: decodeList(r['related_entities']),
      sourceLinks,
      entitiesRole: text(r['entities_role']),
      weight: num(r['weight']),
      importance: num(r['importance']),
      emotional: num(r['emotional']),
      recurrence: num(r['recurrence']),
      unresolved: num(r['unresolved']),
      embedding: vector(r['embedding']),
      createdAt: time('narratives', r['id'], 'created_at', r['created_at']),
      extra: rest(r, NARRATIVE_COLUMNS),
    };
  });
  const context = rows('context').map((r) => {
    const content = text(r['content']) ?? '';
    const meta = object(r['meta']);
    const prefix = /^\[(USER|ASSISTANT)\]/i.exec(content)?.[1]?.toLowerCase();
    const metaRole = typeof meta['role'] === 'string' ? meta['role'].toLowerCase() : undefined;
    const role = prefix ?? (metaRole === 'user' || metaRole === 'assistant' ? metaRole : null);
    return {
      id: num(r['id'])!,
      content,
      role: role as TidelineContext['role'],
      session: typeof meta['session'] === 'string' ? meta['session'] : null,
      meta,
      embedding: vector(r['embedding']),
      createdAt: time('context', r['id'], 'created_at', r['created_at']),
      extra: rest(r, ['id', 'content', 'meta', 'embedding', 'created_at']),
    };
  });
  const profiles = rows('profiles').map((r) => ({
    id: num(r['id'])!,
    entity: text(r['entity']) ?? '',
    ptype: text(r['ptype']) ?? 'contact',
    content: text(r['content']) ?? '',
    updatedAt: time('profiles', r['id'], 'updated_at', r['updated_at']),
    extra: rest(r, ['id', 'entity', 'ptype', 'content', 'updated_at']),
  }));
  const selfConcept = rows('self_concept').map((r) => ({
    field: text(r['field']) ?? '',
    content: text(r['content']) ?? '',
    updatedAt: time('self_concept', r['field'], 'updated_at', r['updated_at']),
    extra: rest(r, ['field', 'content', 'updated_at']),
  }));
  const snapshots = rows('snapshots').map((r) => ({
    id: num(r['id'])!,
    content: text(r['content']) ?? '',
    createdAt: time('snapshots', r['id'], 'created_at', r['created_at']),
    extra: rest(r, ['id', 'content', 'created_at']),
  }));
  const threads = rows('threads').map((r) => ({
    id: num(r['id'])!,
    content: text(r['content']) ?? '',
    importance: num(r['importance']),
    emotional: num(r['emotional']),
    recurrence: num(r['recurrence']),
    unresolved: num(r['unresolved']),
    weight: num(r['weight']),
    status: text(r['status']) ?? 'open',
    createdAt: time('threads', r['id'], 'created_at', r['created_at']),
    exploredAt: time('threads', r['id'], 'explored_at', r['explored_at']),
    extra: rest(r, [
      'id',
      'content',
      'importance',
      'emotional',
      'recurrence',
      'unresolved',
      'weight',
      'status',
      'created_at',
      'explored_at',
    ]),
  }));
  const topicClusters = rows('topic_clusters').map((r) => ({
    name: text(r['cluster_name']) ?? '',
    size: num(r['noun_freq']) ?? 0,
    narrativeIds: decodeList(r['narrative_ids'])
      .map(Number)
      .filter((n) => Number.isInteger(n)),
    lastActive: time('topic_clusters', r['cluster_name'], 'last_active', r['last_active']),
    avgWeight: num(r['avg_weight']),
    extra: rest(r, ['cluster_name', 'noun_freq', 'narrative_ids', 'last_active', 'avg_weight']),
  }));
  return {
    narratives,
    context,
    profiles,
    selfConcept,
    snapshots,
    threads,
    topicClusters,
    missingTables,
    warnings,
  };
}

const NARRATIVE_COLUMNS = [
  'id',
  'content',
  'ntype',
  'tags',
  'embedding',
  'created_at',
  'gesture',
  'context_layer',
  'moment',
  'cognition_direction',
  'related_entities',
  'source_links',
  'entities_role',
  'weight',
  'importance',
  'emotional',
  'recurrence',
  'unresolved',
];

function text(v: unknown): string | null {
  return v === null || v === undefined ? null : String(v);
}

function num(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

function vector(v: unknown): number[] | null {
  if (typeof v !== 'string' || !v.trim().startsWith('[')) return null;
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) && parsed.every((x) => typeof x === 'number') ? (parsed as number[]) : null;
  } catch {
    return null;
  }
}

function object(v: unknown): Record<string, unknown> {
  if (typeof v !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(v);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return { raw: v };
  }
}

function rest(row: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([k]) => !known.includes(k)));
}
