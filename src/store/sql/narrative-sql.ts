/** Narratives and their tag table over portable SQL: rows, the script jobs' narrow reads, scores and rewrites. */
import { weightBandSql, type WeightBand } from '../../core/weight-scale.js';
import type { Narrative, NarrativeKind } from '../../core/types.js';
import type { IndexText, NarrativeLinkRow, NarrativeScoreChange, NarrativeScoreRow, NarrativeStore, NarrativeText, NarrativeTextRow, NewNarrative, SearchIndex } from '../port.js';
import type { SqlDriver, SqlValue } from '../sql-driver.js';
import { bit, bool, chunks, idsLike, json, marks, num, rowsInSpace, timeOf, toJson } from './sql-util.js';

const COLS = `id, space, kind, ntype, content, gesture, context, moment, cognition_direction, tags, entities_role,
  related_entities, source_links, importance, emotional, recurrence, unresolved, weight, created_at, updated_at`;

/** The score fields `writeScores` may set, and their columns. */
const SCORE_COLUMNS = [
  ['importance', 'importance'],
  ['emotional', 'emotional'],
  ['recurrence', 'recurrence'],
  ['unresolved', 'unresolved'],
  ['weight', 'weight'],
] as const satisfies ReadonlyArray<readonly [keyof Omit<NarrativeScoreChange, 'id'>, string]>;

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
  readonly #space: string;
  constructor(db: SqlDriver, space: string, search: SearchIndex) {
    this.#space = space;
    this.#db = db;
    this.#search = search;
  }

  async insert(r: NewNarrative): Promise<number> {
    const got = await this.#db.get<{ id: unknown }>(
      `INSERT INTO narratives (space, kind, ntype, content, gesture, context, moment, cognition_direction, tags,
         entities_role, related_entities, source_links, importance, emotional, recurrence, unresolved, weight,
         created_at, updated_at, embed_pending)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [
        this.#space, r.kind, r.ntype, r.content, r.gesture, r.context, r.moment, r.cognitionDirection, toJson(r.tags),
        r.entitiesRole, toJson(r.relatedEntities), toJson(r.sourceLinks), r.importance, r.emotional, r.recurrence,
        r.unresolved, r.weight, r.createdAt, r.createdAt, bit(r.embedPending),
      ],
    );
    const id = num(got!.id);
    for (const tag of new Set(r.tags)) {
      await this.#db.run('INSERT INTO narrative_tags (space, narrative_id, tag) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [
        this.#space,
        id,
        tag,
      ]);
    }
    await this.#search.index('narrative', [{ id, ...r.index }], this.#space);
    return id;
  }

  async get(id: number): Promise<Narrative | undefined> {
    const r = await this.#db.get(`SELECT ${COLS} FROM narratives WHERE space = ? AND id = ?`, [this.#space, id]);
    return r ? toNarrative(r) : undefined;
  }

  async getMany(ids: readonly number[]): Promise<Narrative[]> {
    return (await rowsInSpace(this.#db, 'narratives', COLS, this.#space, ids)).map(toNarrative);
  }

  async countSharingTags(tags: readonly string[], excludeId?: number): Promise<number> {
    if (tags.length === 0) return 0;
    const r = await this.#db.get<{ n: unknown }>(
      `SELECT COUNT(DISTINCT narrative_id) AS n FROM narrative_tags WHERE space = ? AND tag IN (${marks(tags.length)})
       AND narrative_id <> ?`,
      [this.#space, ...tags, excludeId ?? -1],
    );
    return num(r?.n ?? 0);
  }

  async tagCounts(tags?: readonly string[]): Promise<Map<string, number>> {
    const filter = tags && tags.length > 0 ? ` AND tag IN (${marks(tags.length)})` : '';
    const rows = await this.#db.all<{ tag: string; n: unknown }>(
      `SELECT tag, COUNT(*) AS n FROM narrative_tags WHERE space = ?${filter} GROUP BY tag`,
      [this.#space, ...(tags ?? [])],
    );
    return new Map(rows.map((r) => [r.tag, num(r.n)]));
  }

  async withAnyTag(tags: readonly string[]): Promise<Array<{ id: number; tags: string[] }>> {
    if (tags.length === 0) return [];
    const rows = await this.#db.all<{ id: unknown; tags: string }>(
      `SELECT id, tags FROM narratives WHERE space = ? AND id IN
         (SELECT narrative_id FROM narrative_tags WHERE space = ? AND tag IN (${marks(tags.length)}))`,
      [this.#space, this.#space, ...tags],
    );
    return rows.map((r) => ({ id: num(r.id), tags: json(r.tags, [], { table: 'narratives', column: 'tags', row: r, space: this.#space }) }));
  }

  async list(
    q: { limit: number; offset?: number; ntype?: string; tags?: readonly string[]; since?: number; minWeight?: number; kind?: NarrativeKind },
  ): Promise<Narrative[]> {
    const where = ['space = ?'];
    const params: SqlValue[] = [this.#space];
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
      params.push(this.#space, ...q.tags);
    }
    const rows = await this.#db.all(
      `SELECT ${COLS} FROM narratives WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [...params, q.limit, q.offset ?? 0],
    );
    return rows.map(toNarrative);
  }

  async newestWeights(n: number): Promise<Array<{ id: number; weight: number }>> {
    const rows = await this.#db.all<{ id: unknown; weight: unknown }>(
      'SELECT id, weight FROM narratives WHERE space = ? ORDER BY created_at DESC, id DESC LIMIT ?',
      [this.#space, n],
    );
    return rows.map((r) => ({ id: num(r.id), weight: num(r.weight) }));
  }

  async delete(ids: readonly number[]): Promise<number> {
    let n = 0;
    for (const part of chunks(ids)) {
      const own = (await rowsInSpace<{ id: unknown }>(this.#db, 'narratives', 'id', this.#space, part)).map((r) => num(r.id));
      if (own.length === 0) continue;
      await this.#search.unindex('narrative', own, this.#space);
      await this.#db.run(`DELETE FROM narrative_tags WHERE narrative_id IN (${marks(own.length)})`, own);
      await this.#db.run(`DELETE FROM embeddings WHERE layer = 'narrative' AND item_id IN (${marks(own.length)})`, own);
      n += (await this.#db.run(`DELETE FROM narratives WHERE id IN (${marks(own.length)})`, own)).changes;
    }
    return n;
  }

  async count(): Promise<number> {
    const r = await this.#db.get<{ n: unknown }>('SELECT COUNT(*) AS n FROM narratives WHERE space = ?', [this.#space]);
    return num(r?.n ?? 0);
  }

  // Each read names only the columns its job needs: at 100,000 narratives a whole-row read costs seconds.
  async texts(q: { unlinked?: boolean } = {}): Promise<NarrativeTextRow[]> {
    const rows = await this.#db.all(
      `SELECT id, content, gesture, context, cognition_direction, weight, created_at FROM narratives WHERE space = ?
       ${q.unlinked ? `AND source_links = '[]'` : ''} ORDER BY id`,
      [this.#space],
    );
    return rows.map((r) => ({
      id: num(r.id),
      content: String(r.content),
      gesture: (r.gesture as string | null) ?? null,
      context: (r.context as string | null) ?? null,
      cognitionDirection: (r.cognition_direction as string | null) ?? null,
      weight: num(r.weight),
      createdAt: num(r.created_at),
    }));
  }

  async roles(
    
  ): Promise<Array<{ id: number; entitiesRole: string; createdAt: number }>> {
    const rows = await this.#db.all(
      `SELECT id, entities_role, created_at FROM narratives WHERE space = ? AND entities_role IS NOT NULL AND entities_role <> ''
       ORDER BY id`,
      [this.#space],
    );
    return rows.map((r) => ({
      id: num(r.id),
      entitiesRole: String(r.entities_role),
      createdAt: num(r.created_at),
    }));
  }

  async scoreRows(
    q: { tagged?: boolean; newest?: number } = {},
  ): Promise<NarrativeScoreRow[]> {
    const cols = 'id, tags, importance, emotional, recurrence, unresolved, weight, created_at';
    const tagged = q.tagged ? ` AND tags <> '[]'` : '';
    const rows =
      q.newest === undefined
        ? await this.#db.all(`SELECT ${cols} FROM narratives WHERE space = ?${tagged} ORDER BY id`, [this.#space])
        : await this.#db.all(
            `SELECT ${cols} FROM narratives WHERE space = ?${tagged} ORDER BY created_at DESC, id DESC LIMIT ?`,
            [this.#space, q.newest],
          );
    return rows
      .map((r) => ({
        id: num(r.id),
        tags: json<string[]>(r.tags, [], { table: 'narratives', column: 'tags', row: r, space: this.#space }),
        importance: num(r.importance),
        emotional: num(r.emotional),
        recurrence: num(r.recurrence),
        unresolved: num(r.unresolved),
        weight: num(r.weight),
        createdAt: num(r.created_at),
      }))
      .sort((a, b) => a.id - b.id);
  }

  async linkRows(): Promise<NarrativeLinkRow[]> {
    const rows = await this.#db.all(
      'SELECT id, source_links, created_at, embed_pending FROM narratives WHERE space = ? ORDER BY id',
      [this.#space],
    );
    return rows.map((r) => ({
      id: num(r.id),
      sourceLinks:
        r.source_links === '[]'
          ? []
          : json<unknown[]>(r.source_links, [], { table: 'narratives', column: 'source_links', row: r, space: this.#space }).map(Number).filter(Number.isFinite),
      createdAt: num(r.created_at),
      embedPending: bool(r.embed_pending) ?? false,
    }));
  }

  async weightBands(): Promise<Record<WeightBand, number>> {
    const rows = await this.#db.all<{ band: WeightBand; n: unknown }>(
      `SELECT ${weightBandSql('weight')} AS band, COUNT(*) AS n FROM narratives WHERE space = ? GROUP BY 1`,
      [this.#space],
    );
    const out: Record<WeightBand, number> = { high: 0, mid: 0, low: 0 };
    for (const r of rows) out[r.band] = num(r.n);
    return out;
  }

  async writeScores(rows: ReadonlyArray<NarrativeScoreChange>, at?: number): Promise<number> {
    // Rows sharing the same new values are written by one statement that sets only the columns given: a first
    // recurrence refresh over 100,000 narratives takes a few hundred statements instead of 100,000 (scores are 1-5,
    // so few value sets exist).
    const groups = new Map<string, { set: string[]; values: SqlValue[]; ids: number[] }>();
    for (const r of rows) {
      // One string per row (absent fields read "undefined"); the statement is built once per group.
      const key = `${r.importance}|${r.emotional}|${r.recurrence}|${r.unresolved}|${r.weight}`;
      let g = groups.get(key);
      if (g === undefined) {
        const given = SCORE_COLUMNS.filter(([field]) => r[field] !== undefined);
        g = { set: given.map(([, column]) => `${column} = ?`), values: given.map(([field]) => r[field]!), ids: [] };
        if (at !== undefined) {
          g.set.push('updated_at = ?');
          g.values.push(at);
        }
        groups.set(key, g);
      }
      if (g.set.length > 0) g.ids.push(r.id);
    }
    let changed = 0;
    for (const g of groups.values()) {
      for (const part of chunks(g.ids)) {
        const res = await this.#db.run(
          // `space || ''` keeps SQLite's planner off the (space, …) indexes: without statistics it reads the
          // whole space through one of them for every statement instead of looking the ids up (6 s vs 0.5 s at 100k).
          `UPDATE narratives SET ${g.set.join(', ')} WHERE space || '' = ? AND id IN (${marks(part.length)})`,
          [...g.values, this.#space, ...part],
        );
        changed += res.changes;
      }
    }
    return changed;
  }

  async fillSourceLinks(
    rows: ReadonlyArray<{ narrativeId: number; sourceLinks: readonly number[] }>,
  ): Promise<number> {
    let changed = 0;
    for (const r of rows) {
      const res = await this.#db.run(
        `UPDATE narratives SET source_links = ? WHERE space = ? AND id = ? AND source_links = '[]'`,
        [toJson(r.sourceLinks), this.#space, r.narrativeId],
      );
      changed += res.changes;
    }
    return changed;
  }

  async idsContaining(needle: string, limit: number): Promise<number[]> {
    return idsLike(this.#db, 'narratives', ['content', 'tags'], this.#space, needle, limit);
  }

  async rewrite(
    id: number,
    t: NarrativeText,
    tags: readonly string[],
    index: IndexText,
  ): Promise<void> {
    const r = await this.#db.run(
      `UPDATE narratives SET content = ?, gesture = ?, context = ?, moment = ?, cognition_direction = ?, tags = ?, embed_pending = 1
       WHERE space = ? AND id = ?`,
      [t.content, t.gesture, t.context, t.moment, t.cognitionDirection, toJson(tags), this.#space, id],
    );
    if (r.changes === 0) return;
    await this.#db.run('DELETE FROM narrative_tags WHERE space = ? AND narrative_id = ?', [this.#space, id]);
    for (const tag of new Set(tags)) {
      await this.#db.run(
        'INSERT INTO narrative_tags (space, narrative_id, tag) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
        [this.#space, id, tag],
      );
    }
    await this.#db.run(`DELETE FROM embeddings WHERE space = ? AND layer = 'narrative' AND item_id = ?`, [
      this.#space,
      id,
    ]);
    await this.#search.unindex('narrative', [id], this.#space);
    await this.#search.index('narrative', [{ id, ...index }], this.#space);
  }
}
