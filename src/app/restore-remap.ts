/**
 * New ids for a restore whose ids are already taken in the database (another space of it, or the space the export
 * came from): each table's rows move up past the largest id in use, and every reference to them moves with them.
 */
import { ID_TABLES, SPACE_TABLE_REFS, type EmbeddedIds, type IdTable } from '../store/row-refs.js';
import type { Store } from '../store/port.js';

/** How far each table's ids move (absent or 0: kept). */
export type IdShift = ReadonlyMap<IdTable, number>;

type Row = Record<string, unknown>;

const LAYER_TABLE: Record<string, IdTable> = { episode: 'episodes', narrative: 'narratives', knowledge: 'knowledge' };
const LETTER_TABLE: Record<string, IdTable> = { e: 'episodes', n: 'narratives', k: 'knowledge' };

/**
 * The shift of each table: 0 when none of its ids is in use (so a restore into a fresh database keeps every id, and
 * its export is byte-identical), else the distance past the database's largest id. One offset per table keeps the
 * ids' order and spacing, which recall reads (neighbouring turns are found by id range).
 */
export async function planIdShift(tx: Store, byTable: ReadonlyMap<string, readonly Row[]>): Promise<IdShift> {
  const shift = new Map<IdTable, number>();
  for (const table of ID_TABLES) {
    const ids = (byTable.get(table) ?? []).map((r) => Number(r.id));
    if (ids.length === 0 || (await tx.rows.countIds(table, ids)) === 0) continue;
    // A loop, not Math.min(...ids): a spread of a large table's ids overflows the call stack.
    let min = Infinity;
    for (const id of ids) if (id < min) min = id;
    shift.set(table, (await tx.rows.maxId(table)) + 1 - min);
  }
  return shift;
}

/** Whether the shift moves any id. */
export function shiftsAny(shift: IdShift): boolean {
  return [...shift.values()].some((d) => d !== 0);
}

/** The rows with every id and reference moved by `shift`, as `row-refs.ts` classifies their columns. */
export function remapRows(byTable: ReadonlyMap<string, readonly Row[]>, shift: IdShift): Map<string, Row[]> {
  const to = (table: IdTable | undefined, v: unknown): unknown =>
    table !== undefined && typeof v === 'number' && Number.isInteger(v) ? v + (shift.get(table) ?? 0) : v;
  const lastItemLayer = lastItemLayers(byTable.get('attention_log') ?? []);
  const out = new Map<string, Row[]>();
  for (const [table, rows] of byTable) {
    const refs = SPACE_TABLE_REFS[table];
    if (!refs) throw new Error(`no id declaration for table ${table}`);
    out.set(
      table,
      rows.map((row) => {
        const next: Row = { ...row };
        for (const [col, r] of Object.entries(refs)) {
          const v = row[col];
          if (v === null || v === undefined || r === 'plain') continue;
          if (r === 'id') next[col] = to(table as IdTable, asInt(v));
          else if ('ref' in r) next[col] = to(r.ref, asInt(v));
          else if ('layerRef' in r) next[col] = to(LAYER_TABLE[String(row[r.layerRef])], asInt(v));
          else if ('lastItemOf' in r) {
            // Trigger: the stats row keeps no layer. Why: only its log row does. Outcome: unresolvable → no last item.
            const layer = lastItemLayer.get(`${String(row.last_hit)}:${String(v)}`);
            next[col] = layer === undefined ? null : to(LAYER_TABLE[layer], asInt(v));
          } else Object.assign(next, embedded(r.embedded, col, next, to));
        }
        return next;
      }),
    );
  }
  return out;
}

function asInt(v: unknown): unknown {
  return typeof v === 'bigint' ? Number(v) : v;
}

/** `created_at:item_id` → layer of the attention log's rows (a stats row's last hit is one of them). */
function lastItemLayers(log: readonly Row[]): Map<string, string> {
  const m = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const r of log) {
    const key = `${String(r.created_at)}:${String(r.item_id)}`;
    const had = m.get(key);
    if (had !== undefined && had !== r.layer) ambiguous.add(key);
    m.set(key, String(r.layer));
  }
  for (const k of ambiguous) m.delete(k);
  return m;
}

type To = (table: IdTable | undefined, v: unknown) => unknown;

/** The columns to overwrite for one embedded-ids column (a not-finished night unit also changes its status). */
function embedded(shape: EmbeddedIds, col: string, row: Row, to: To): Row {
  const text = row[col];
  if (typeof text !== 'string') return {};
  if (shape === 'briefing-body') return { [col]: text.replace(/\[#(\d+)\]/g, (_, id: string) => `[#${String(to('knowledge', Number(id)))}]`) };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return {}; // Not JSON: nothing in it can be read as an id (reads of the column fall back the same way).
  }
  if (shape === 'work-result' && row.status !== 'done') {
    // A unit not yet done keeps the model's answers to replay; they name the source's ids, so the night asks again.
    return { [col]: null, status: 'planned' };
  }
  return { [col]: JSON.stringify(remapJson(shape, v, row, to)) };
}

function ids(v: unknown, table: IdTable, to: To): unknown {
  return Array.isArray(v) ? v.map((x) => to(table, x)) : v;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** A public id (`e12`, `n3`, `k7`) moved with its table; any other string as it is. */
function publicId(v: unknown, to: To): unknown {
  const m = typeof v === 'string' ? /^([enk])(\d{1,15})$/.exec(v) : null;
  return m ? `${m[1]!}${String(to(LETTER_TABLE[m[1]!], Number(m[2])))}` : v;
}

function withRefs(v: unknown, to: To): unknown {
  return Array.isArray(v) ? v.map((f) => (obj(f) ? { ...obj(f), ref: publicId(obj(f)!.ref, to) } : f)) : v;
}

function briefItem(v: unknown, to: To): unknown {
  const o = obj(v);
  return o ? { ...o, id: to('knowledge', o.id) } : v;
}

/** A night log or a unit's delta: knowledge ids of its brief items, public ids of its PII flags. */
function nightLog(v: unknown, to: To): unknown {
  const o = obj(v);
  if (!o) return v;
  const out: Record<string, unknown> = { ...o };
  for (const k of ['created', 'reinforced', 'forgotten', 'promoted', 'openProblems']) {
    if (Array.isArray(o[k])) out[k] = (o[k] as unknown[]).map((i) => briefItem(i, to));
  }
  if (Array.isArray(o.superseded)) {
    out.superseded = o.superseded.map((s) => (obj(s) ? { ...obj(s), old: briefItem(obj(s)!.old, to), by: briefItem(obj(s)!.by, to) } : s));
  }
  if (Array.isArray(o.quarantined)) {
    out.quarantined = o.quarantined.map((q) =>
      obj(q) ? { ...obj(q), entry: briefItem(obj(q)!.entry, to), conflictsWith: briefItem(obj(q)!.conflictsWith, to) } : q,
    );
  }
  if ('piiFlags' in o) out.piiFlags = withRefs(o.piiFlags, to);
  return out;
}

function remapJson(shape: Exclude<EmbeddedIds, 'briefing-body'>, v: unknown, row: Row, to: To): unknown {
  const o = obj(v);
  switch (shape) {
    case 'episode-ids':
      return ids(v, 'episodes', to);
    case 'narrative-ids':
      return ids(v, 'narratives', to);
    case 'evidence':
      return o ? { ...o, episodes: ids(o.episodes, 'episodes', to), narratives: ids(o.narratives, 'narratives', to) } : v;
    case 'knowledge-meta': {
      if (!o) return v;
      const out: Record<string, unknown> = { ...o };
      if ('mergedFrom' in o) out.mergedFrom = ids(o.mergedFrom, 'knowledge', to);
      const q = obj(o.quarantine);
      if (q) {
        out.quarantine = {
          ...q,
          ...('supersedes' in q ? { supersedes: to('knowledge', q.supersedes) } : {}),
          ...('conflictsWith' in q ? { conflictsWith: to('knowledge', q.conflictsWith) } : {}),
        };
      }
      return out;
    }
    case 'night-log':
      return nightLog(v, to);
    case 'work-payload': {
      if (!o) return v;
      const out: Record<string, unknown> = { ...o };
      if (Array.isArray(o.chunks)) out.chunks = o.chunks.map((c) => ids(c, 'episodes', to));
      if ('loose' in o) out.loose = ids(o.loose, 'episodes', to);
      if ('episodeIds' in o) out.episodeIds = ids(o.episodeIds, 'episodes', to);
      return out;
    }
    case 'work-result':
      return o && 'delta' in o ? { ...o, delta: nightLog(o.delta, to) } : v;
    case 'job-state':
      return jobState(String(row.job), v, to);
  }
}

/** The states kept in `job_state` that name ids, by key (sleep/pii-flags.ts, sleep/phases/self-image-phase.ts, app/import-tideline.ts). */
function jobState(job: string, v: unknown, to: To): unknown {
  const o = obj(v);
  if (job === 'review:pii') return withRefs(v, to);
  if (job === 'sleep:self_image') return o ? { ...o, ids: ids(o.ids, 'knowledge', to) } : v;
  if (job.startsWith('import:tideline:') && o) {
    const moved = (m: unknown, table: IdTable) =>
      obj(m) ? Object.fromEntries(Object.entries(obj(m)!).map(([k, id]) => [k, to(table, id)])) : m;
    return { ...o, narratives: moved(o.narratives, 'narratives'), snapshots: moved(o.snapshots, 'snapshots'), threads: moved(o.threads, 'threads') };
  }
  return v;
}
