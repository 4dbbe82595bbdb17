/** Narratives and their tag table over portable SQL. */
import type { Narrative, NarrativeKind } from '../../core/types.js';
import type { NarrativeStore, NewNarrative, SearchIndex } from '../port.js';
import type { SqlDriver, SqlValue } from '../sql-driver.js';
import { bit, chunks, json, marks, num, timeOf, toJson } from './sql-util.js';

const COLS = `id, space, kind, ntype, content, gesture, context, moment, cognition_direction, tags, entities_role,
  related_entities, source_links, importance, emotional, recurrence, unresolved, weight, created_at, updated_at`;

/** Maps a database row to a Narrative. */
export function toNarrative(r: Record<string, unknown>): Narrative {
  return {
    id: num(r.id),
    space: String(r.space),
    kind: r.kind as NarrativeKind,
    ntype: String(r.ntype),
    content: String(r.content),
    gesture: (r.gesture as string | null) ?? null,
    context: (r.context as string | null) ?? null,
    moment: (r.moment as string | null) ?? null,
    cognitionDirection: (r.cognition_direction as string | null) ?? null,
    tags: json(r.tags, [], { table: 'narratives', column: 'tags', row: r }),
    entitiesRole: (r.entities_role as string | null) ?? null,
    relatedEntities: json(r.related_entities, [], { table: 'narratives', column: 'related_entities', row: r }),
    sourceLinks: json<unknown[]>(r.source_links, [], { table: 'narratives', column: 'source_links', row: r }).map(Number).filter(Number.isFinite),
    importance: num(r.importance),
    emotional: num(r.emotional),
    recurrence: num(r.recurrence),
    unresolved: num(r.unresolved),
    weight: num(r.weight),
    createdAt: timeOf(r.created_at),
    updatedAt: timeOf(r.updated_at),
  };
}

/** Narrative store written once for every engine. */
export class NarrativeSql implements NarrativeStore {
  readonly #db: SqlDriver;
  readonly #search: SearchIndex;
  constructor(db: SqlDriver, search: SearchIndex) {
    this.#db = db;
    this.#search = search;
  }

  async insert(space: string, r: NewNarrative): Promise<number> {
    const got = await this.#db.get<{ id: unknown }>(
      `INSERT INTO narratives (space, kind, ntype, content, gesture, context, moment, cognition_direction, tags,
         entities_role, related_entities, source_links, importance, emotional, recurrence, unresolved, weight,
         created_at, updated_at, embed_pending)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [
        space, r.kind, r.ntype, r.content, r.gesture, r.context, r.moment, r.cognitionDirection, toJson(r.tags),
        r.entitiesRole, toJson(r.relatedEntities), toJson(r.sourceLinks), r.importance, r.emotional, r.recurrence,
        r.unresolved, r.weight, r.createdAt, r.createdAt, bit(r.embedPending),
      ],
    );
    const id = num(got!.id);
    for (const tag of new Set(r.tags)) {
      await this.#db.run('INSERT INTO narrative_tags (space, narrative_id, tag) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [
        space,
        id,
        tag,
      ]);
    }
    await this.#search.index('narrative', [{ id, ...r.index }]);
    return id;
  }

  async get(space: string, id: number): Promise<Narrative | undefined> {
    const r = await this.#db.get(`SELECT ${COLS} FROM narratives WHERE space = ? AND id = ?`, [space, id]);
    return r ? toNarrative(r) : undefined;
  }

  async getMany(space: string, ids: readonly number[]): Promise<Narrative[]> {
    const out: Narrative[] = [];
    for (const part of chunks(ids)) {
      const rows = await this.#db.all(`SELECT ${COLS} FROM narratives WHERE (space || '') = ? AND id IN (${marks(part.length)})`, [
        space,
        ...part,
      ]);
      out.push(...rows.map(toNarrative));
    }
    return out;
  }

  async countSharingTags(space: string, tags: readonly string[], excludeId?: number): Promise<number> {
    if (tags.length === 0) return 0;
    const r = await this.#db.get<{ n: unknown }>(
      `SELECT COUNT(DISTINCT narrative_id) AS n FROM narrative_tags WHERE space = ? AND tag IN (${marks(tags.length)})
       AND narrative_id <> ?`,
      [space, ...tags, excludeId ?? -1],
    );
    return num(r?.n ?? 0);
  }

  async tagCounts(space: string, tags?: readonly string[]): Promise<Map<string, number>> {
    const filter = tags && tags.length > 0 ? ` AND tag IN (${marks(tags.length)})` : '';
    const rows = await this.#db.all<{ tag: string; n: unknown }>(
      `SELECT tag, COUNT(*) AS n FROM narrative_tags WHERE space = ?${filter} GROUP BY tag`,
      [space, ...(tags ?? [])],
    );
    return new Map(rows.map((r) => [r.tag, num(r.n)]));
  }

  async withAnyTag(space: string, tags: readonly string[]): Promise<Array<{ id: number; tags: string[] }>> {
    if (tags.length === 0) return [];
    const rows = await this.#db.all<{ id: unknown; tags: string }>(
      `SELECT id, tags FROM narratives WHERE space = ? AND id IN
         (SELECT narrative_id FROM narrative_tags WHERE space = ? AND tag IN (${marks(tags.length)}))`,
      [space, space, ...tags],
    );
    return rows.map((r) => ({ id: num(r.id), tags: json(r.tags, [], { table: 'narratives', column: 'tags', row: r, space }) }));
  }

  async list(
    space: string,
    q: { limit: number; offset?: number; ntype?: string; tags?: readonly string[]; since?: number; minWeight?: number; kind?: NarrativeKind },
  ): Promise<Narrative[]> {
    const where = ['space = ?'];
    const params: SqlValue[] = [space];
    if (q.ntype) {
      where.push('ntype = ?');
      params.push(q.ntype);
    }
    if (q.kind) {
      where.push('kind = ?');
      params.push(q.kind);
    }
    if (q.since !== undefined) {
      where.push('created_at >= ?');
      params.push(q.since);
    }
    if (q.minWeight !== undefined) {
      where.push('weight > ?');
      params.push(q.minWeight);
    }
    if (q.tags && q.tags.length > 0) {
      where.push(`id IN (SELECT narrative_id FROM narrative_tags WHERE space = ? AND tag IN (${marks(q.tags.length)}))`);
      params.push(space, ...q.tags);
    }
    const rows = await this.#db.all(
      `SELECT ${COLS} FROM narratives WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [...params, q.limit, q.offset ?? 0],
    );
    return rows.map(toNarrative);
  }

  async newestWeights(space: string, n: number): Promise<Array<{ id: number; weight: number }>> {
    const rows = await this.#db.all<{ id: unknown; weight: unknown }>(
      'SELECT id, weight FROM narratives WHERE space = ? ORDER BY created_at DESC, id DESC LIMIT ?',
      [space, n],
    );
    return rows.map((r) => ({ id: num(r.id), weight: num(r.weight) }));
  }

  async setWeights(space: string, rows: ReadonlyArray<{ id: number; weight: number }>): Promise<void> {
    for (const r of rows) await this.#db.run('UPDATE narratives SET weight = ? WHERE space = ? AND id = ?', [r.weight, space, r.id]);
  }

  async setScores(space: string, rows: ReadonlyArray<{ id: number; recurrence: number; weight: number }>): Promise<void> {
    for (const r of rows) {
      await this.#db.run('UPDATE narratives SET recurrence = ?, weight = ? WHERE space = ? AND id = ?', [
        r.recurrence,
        r.weight,
        space,
        r.id,
      ]);
    }
  }

  async delete(space: string, ids: readonly number[]): Promise<number> {
    let n = 0;
    for (const part of chunks(ids)) {
      const own = (
        await this.#db.all<{ id: unknown }>(`SELECT id FROM narratives WHERE (space || '') = ? AND id IN (${marks(part.length)})`, [
          space,
          ...part,
        ])
      ).map((r) => num(r.id));
      if (own.length === 0) continue;
      await this.#search.unindex('narrative', own);
      await this.#db.run(`DELETE FROM narrative_tags WHERE narrative_id IN (${marks(own.length)})`, own);
      await this.#db.run(`DELETE FROM embeddings WHERE layer = 'narrative' AND item_id IN (${marks(own.length)})`, own);
      n += (await this.#db.run(`DELETE FROM narratives WHERE id IN (${marks(own.length)})`, own)).changes;
    }
    return n;
  }

  async count(space: string): Promise<number> {
    const r = await this.#db.get<{ n: unknown }>('SELECT COUNT(*) AS n FROM narratives WHERE space = ?', [space]);
    return num(r?.n ?? 0);
  }
}
