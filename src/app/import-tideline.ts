/**
 * Switching from Tideline: a Tideline database (SEEDS §1.3) imported into a space. The raw log comes first, so each
 * narrative's source_links can be remapped to the new episode ids; narratives, profiles, self-concept, snapshots,
 * threads and topic clusters follow in one transaction. A mapping kept in the space makes a second import add only
 * what is new.
 */
import {
  PROFILE_TYPES,
  SELF_CONCEPT_FIELDS,
  THREAD_STATUSES,
  type NarrativeKind,
  type ProfileType,
  type SelfConceptField,
  type ThreadStatus,
} from '../core/types.js';
import type { TidelineNarrative } from '../script/import-formats/decode-tideline-db.js';
import { readTidelineDb } from './read-tideline-db.js';
import { tidelineContextTurns } from '../script/import-formats/tideline-turns.js';
import { computeWeight } from '../script/weight-policy.js';
import { fromTidelineWeight } from '../core/weight-scale.js';
import { spaceTransaction, type AppContext } from './app-context.js';
import { embedItems } from './embed-items.js';
import { redact } from './guard-secrets.js';
import type { ImportFileResult } from './import-sessions.js';
import { storeTurns, type ImportOptions } from './store-imported-turns.js';
import { narrativeIndexText } from './index-text.js';

/** Model name under which Tideline's own vectors are kept: the name the `tideline` embedder provider uses. */
export const TIDELINE_VECTOR_MODEL = 'tideline-local';

/** What a Tideline import added besides the raw log (`skipped`: already imported from this file before). */
export interface TidelineCounts {
  narratives: { imported: number; skipped: number };
  profiles: number;
  selfConcept: number;
  snapshots: number;
  threads: number;
  topicClusters: number;
  /** Vectors carried over from Tideline's `embedding` columns. */
  vectors: number;
  /** source_links that named a context row the database does not hold. */
  droppedLinks: number;
}

/** What was imported from one file before, so a second import adds only what is new. */
interface ImportState {
  narratives: Record<string, number>;
  snapshots: Record<string, number>;
  threads: Record<string, number>;
  profiles: string[];
  selfConcept: string[];
  topicClusters: string[];
}

// SEEDS §1.5.1 legacy backfill: emotion markers that raise a missing emotional score to 4.
const EMOTION_MARKERS = [
  '哭',
  '笑',
  '生气',
  '开心',
  '难过',
  '害怕',
  '爱',
  '喜欢',
  '讨厌',
  '累',
  '痛苦',
  '温暖',
  '心疼',
  '撒娇',
];

/** Imports a Tideline database read-only from `path`; `fileId` (its base name) keys the refs and the mapping. */
export async function importTideline(
  ctx: AppContext,
  input: { path: string; fileId: string },
  opts: ImportOptions = {},
): Promise<ImportFileResult> {
  const { path, fileId } = input;
  let db;
  try {
    db = readTidelineDb(path);
  } catch (e) {
    return {
      status: 'failed',
      file: fileId,
      reason: `cannot read ${fileId} as a Tideline database: ${(e as Error).message}`,
    };
  }
  const warnings = [...db.warnings];
  if (db.missingTables.length > 0)
    warnings.push(`tables not in this database: ${db.missingTables.join(', ')}`);
  const turns = tidelineContextTurns(db.context, fileId).map((t, i) => {
    const extra = db.context[i]!.extra;
    return Object.keys(extra).length > 0 ? { ...t, meta: { ...t.meta, tidelineExtra: extra } } : t;
  });
  const stored = await storeTurns(ctx, fileId, 'tideline', turns, opts);
  const episodeOf = await ctx.scope.episodes.idsByRef(
    turns.map((t) => t.ref),
  );
  const contextToEpisode = new Map<number, number>();
  db.context.forEach((c, i) => {
    const id = episodeOf.get(turns[i]!.ref);
    if (id !== undefined) contextToEpisode.set(c.id, id);
  });

  const key = `import:tideline:${fileId}`;
  const now = ctx.clock.now();
  const counts: TidelineCounts = {
    narratives: { imported: 0, skipped: 0 },
    profiles: 0,
    selfConcept: 0,
    snapshots: 0,
    threads: 0,
    topicClusters: 0,
    vectors: 0,
    droppedLinks: 0,
  };
  const fresh: Array<{ id: number; text: string }> = [];
  let redacted = stored.redacted;
  await spaceTransaction(ctx, async (scope, tx) => {
    await tx.spaces.ensure(ctx.space, now);
    const state = readState(await scope.state.get(key));
    for (const c of db.context) {
      const id = contextToEpisode.get(c.id);
      if (id !== undefined && c.embedding && c.embedding.length > 0) {
        await scope.vectors.put(
          'episode',
          id,
          TIDELINE_VECTOR_MODEL,
          Float32Array.from(c.embedding),
          now,
        );
        counts.vectors++;
      }
    }
    for (const n of db.narratives) {
      if (state.narratives[n.id] !== undefined) {
        counts.narratives.skipped++;
        continue;
      }
      const links = n.sourceLinks.map((l) => contextToEpisode.get(l));
      counts.droppedLinks += links.filter((l) => l === undefined).length;
      const clean = (s: string | null) => {
        if (s === null) return null;
        const r = redact(s);
        redacted += r.count;
        return r.text;
      };
      const scores = legacyScores(n);
      const row = {
        kind: narrativeKind(n),
        ntype: n.ntype,
        content: clean(n.content) || clean(n.gesture) || '(empty)',
        gesture: clean(n.gesture),
        context: clean(n.context),
        moment: clean(n.moment),
        cognitionDirection: clean(n.cognitionDirection),
        tags: [...new Set(n.tags.map((t) => t.trim()).filter(Boolean))],
        entitiesRole: n.entitiesRole,
        relatedEntities: n.relatedEntities,
        sourceLinks: [...new Set(links.filter((l): l is number => l !== undefined))],
        ...scores,
        weight: n.weight !== null ? fromTidelineWeight(n.weight) : computeWeight(scores),
        createdAt: n.createdAt ?? now,
        embedPending: true,
      };
      const id = await scope.narratives.insert({ ...row, index: narrativeIndexText(row) });
      if (n.embedding && n.embedding.length > 0) {
        await scope.vectors.put(
          'narrative',
          id,
          TIDELINE_VECTOR_MODEL,
          Float32Array.from(n.embedding),
          now,
        );
        counts.vectors++;
      }
      state.narratives[n.id] = id;
      fresh.push({ id, text: row.content });
      counts.narratives.imported++;
    }
    for (const p of db.profiles) {
      const ptype = oneOf<ProfileType>(PROFILE_TYPES, p.ptype, 'contact');
      const k = `${p.entity}\u0000${ptype}`;
      if (state.profiles.includes(k) || !p.entity.trim() || !p.content.trim()) continue;
      if (ptype !== p.ptype) warnings.push(`profile ${p.entity}: type "${p.ptype}" stored as contact`);
      await scope.identity.upsertProfile({
        entity: p.entity.trim(),
        ptype,
        content: p.content,
        at: p.updatedAt ?? now,
      });
      state.profiles.push(k);
      counts.profiles++;
    }
    for (const s of db.selfConcept) {
      const field = oneOf<SelfConceptField>(SELF_CONCEPT_FIELDS, s.field, undefined);
      if (!field) {
        warnings.push(
          `self_concept field "${s.field}" is not one of ${SELF_CONCEPT_FIELDS.join(', ')}: skipped`,
        );
        continue;
      }
      if (state.selfConcept.includes(field) || !s.content.trim()) continue;
      await scope.identity.upsertSelfConcept(field, s.content, s.updatedAt ?? now);
      state.selfConcept.push(field);
      counts.selfConcept++;
    }
    for (const s of db.snapshots) {
      if (state.snapshots[s.id] !== undefined || !s.content.trim()) continue;
      state.snapshots[s.id] = await scope.identity.addSnapshot(s.content, s.createdAt ?? now);
      counts.snapshots++;
    }
    for (const t of db.threads) {
      if (state.threads[t.id] !== undefined || !t.content.trim()) continue;
      const scores = {
        importance: score(t.importance),
        emotional: score(t.emotional),
        recurrence: score(t.recurrence),
        unresolved: score(t.unresolved),
      };
      const status = oneOf<ThreadStatus>(THREAD_STATUSES, t.status, 'open');
      const id = await scope.identity.insertThread({
        content: t.content,
        ...scores,
        weight: t.weight !== null ? fromTidelineWeight(t.weight) : computeWeight(scores),
        status,
        createdAt: t.createdAt ?? now,
      });
      if (t.exploredAt !== null) await scope.identity.updateThread(id, { exploredAt: t.exploredAt });
      state.threads[t.id] = id;
      counts.threads++;
    }
    const clusters = db.topicClusters.filter((c) => c.name && !state.topicClusters.includes(c.name));
    await scope.derived.upsertTopicClusters(
      clusters.map((c) => ({
        name: c.name,
        keywords: c.name.split(' / '),
        size: c.size,
        narrativeIds: c.narrativeIds
          .map((id) => state.narratives[id])
          .filter((id): id is number => id !== undefined),
        lastActive: c.lastActive,
        avgWeight: c.avgWeight === null ? null : fromTidelineWeight(c.avgWeight),
      })),
    );
    state.topicClusters.push(...clusters.map((c) => c.name));
    counts.topicClusters = clusters.length;
    await scope.state.put(key, state, now);
  });
  if (ctx.embedder && fresh.length > 0) await embedItems(ctx, 'narrative', fresh);
  if (db.narratives.some((n) => Object.keys(n.extra).length > 0)) {
    const cols = [...new Set(db.narratives.flatMap((n) => Object.keys(n.extra)))];
    warnings.push(`narrative columns Tidepool has no place for were not imported: ${cols.join(', ')}`);
  }
  return {
    status: 'imported',
    file: fileId,
    format: 'tideline',
    ...stored,
    redacted,
    warnings,
    tideline: counts,
  };
}

/** The four scores, with SEEDS §1.5.1's legacy backfill for rows that never had them. */
export function legacyScores(
  n: Pick<
    TidelineNarrative,
    'importance' | 'emotional' | 'recurrence' | 'unresolved' | 'ntype' | 'content' | 'tags'
  >,
) {
  const importance =
    n.importance ??
    (n.ntype === 'moment' || n.ntype === 'self_reflection' ? 4 : n.ntype === 'general' ? 2 : 3);
  const emotional = n.emotional ?? (EMOTION_MARKERS.some((m) => n.content.includes(m)) ? 4 : 3);
  const recurrence = n.recurrence ?? (n.tags.length >= 2 ? 3 : 2);
  const unresolved = n.unresolved ?? 2;
  return {
    importance: score(importance),
    emotional: score(emotional),
    recurrence: score(recurrence),
    unresolved: score(unresolved),
  };
}

function narrativeKind(n: TidelineNarrative): NarrativeKind {
  if (n.ntype === 'self_reflection') return 'self_reflection';
  if (n.ntype === 'dream' || n.tags.includes('dream')) return 'dream';
  return 'narrative';
}

function score(v: number | null): number {
  return Math.min(5, Math.max(1, Math.round(v ?? 3)));
}

function oneOf<T extends string>(allowed: readonly string[], v: string, fallback: T): T;
function oneOf<T extends string>(allowed: readonly string[], v: string, fallback: undefined): T | undefined;
function oneOf<T extends string>(
  allowed: readonly string[],
  v: string,
  fallback: T | undefined,
): T | undefined {
  return allowed.includes(v) ? (v as T) : fallback;
}

function readState(v: unknown): ImportState {
  const s = (v && typeof v === 'object' ? v : {}) as Partial<ImportState>;
  return {
    narratives: { ...s.narratives },
    snapshots: { ...s.snapshots },
    threads: { ...s.threads },
    profiles: [...(s.profiles ?? [])],
    selfConcept: [...(s.selfConcept ?? [])],
    topicClusters: [...(s.topicClusters ?? [])],
  };
}
