/** Knowledge reads and writes the night shares: nearest entries, new entries, occurrences, retiring old versions. */

import type { Evidence, Knowledge, KnowledgeKind, KnowledgeStatus } from '../core/types.js';
import {
  contentTokens,
  findContradiction,
  jaccard,
  valueChange,
  type ContradictionVerdict,
} from '../script/contradiction-policy.js';
import type { Store } from '../store/port.js';
import type { NightContext } from './night-context.js';

/** Knowledge a model may see and build on: never quarantined, superseded or forgotten (DESIGN §3). */
export const LIVE_STATUSES: readonly KnowledgeStatus[] = ['provisional', 'reliable'];

/** Terms of the texts, most frequent first, at most `n`: the lexical query for "nearest". */
export function topTerms(night: NightContext, texts: readonly string[], n = 24): string[] {
  const freq = new Map<string, number>();
  for (const t of texts) for (const term of night.indexes.terms(t)) freq.set(term, (freq.get(term) ?? 0) + 1);
  return [...freq]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([t]) => t);
}

/**
 * The `k` live entries nearest to `texts` (SEEDS §3.3: the librarian sees the 5 nearest): BM25 over the knowledge
 * index, fused by reciprocal rank with a vector search when the space has an embedder (a failing embedder only
 * loses the vector half). `statuses` narrows the candidates (the contradiction check looks at reliable ones).
 */
export async function nearestKnowledge(
  night: NightContext,
  store: Store,
  texts: readonly string[],
  k: number,
  statuses: readonly KnowledgeStatus[] = LIVE_STATUSES,
): Promise<Knowledge[]> {
  const terms = topTerms(night, texts);
  const lists: number[][] = [];
  if (terms.length > 0) {
    lists.push(
      (await store.forSpace(night.space).search.lexical('knowledge', terms, { limit: k * 2, statuses })).map(
        (h) => h.id,
      ),
    );
  }
  const vector = await embedQuery(night, texts.join('\n').slice(0, 4000));
  if (vector !== undefined && night.embedder !== undefined) {
    lists.push(
      (await store.forSpace(night.space).vectors.nearest('knowledge', night.embedder.model, vector, k * 2)).map(
        (h) => h.id,
      ),
    );
  }
  const score = new Map<number, number>();
  for (const list of lists) list.forEach((id, rank) => score.set(id, (score.get(id) ?? 0) + 1 / (60 + rank)));
  const ids = [...score].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
  const rows = await store.forSpace(night.space).knowledge.getMany(ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is Knowledge => r !== undefined && statuses.includes(r.status))
    .slice(0, k);
}

/** One query vector, or undefined without an embedder or when it fails (the night goes on lexically). */
export async function embedQuery(night: NightContext, text: string): Promise<Float32Array | undefined> {
  if (night.embedder === undefined || text.trim() === '') return undefined;
  try {
    return (await night.embedder.embed([text]))[0];
  } catch (e) {
    night.warn('query_embed_failed', `embedder ${night.embedder.model} unavailable during the night, searched by words only: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** The fields of a new entry the night writes. */
export interface NewEntry {
  kind: KnowledgeKind;
  content: string;
  key: string | null;
  status: KnowledgeStatus;
  occurrences: number;
  evidence: Evidence;
  tags?: string[];
  validFrom?: number | null;
  meta?: Record<string, unknown>;
  strength?: number;
}

/** Inserts an entry written by the night (source `sleep`), indexed like every other entry. */
export async function insertEntry(night: NightContext, tx: Store, e: NewEntry): Promise<Knowledge> {
  const tags = e.tags ?? [];
  const id = await tx.forSpace(night.space).knowledge.insert({
    kind: e.kind,
    key: e.key,
    subject: null,
    content: e.content,
    status: e.status,
    occurrences: e.occurrences,
    strength: e.strength ?? 0.5,
    importance: 3,
    durable: false,
    tags,
    evidence: e.evidence,
    source: 'sleep',
    validFrom: e.validFrom ?? night.asOf,
    validTo: null,
    createdAt: night.asOf,
    meta: e.meta ?? {},
    embedPending: true,
    index: night.indexes.knowledge({ content: e.content, key: e.key, subject: null, tags }),
  });
  return (await tx.forSpace(night.space).knowledge.get(id))!;
}

/** Counts one more occurrence of `k` with new evidence, and reinforces its strength (SEEDS §3.4). */
export async function addOccurrence(
  night: NightContext,
  tx: Store,
  k: Knowledge,
  evidence: Evidence,
  by = 1,
): Promise<void> {
  await tx.forSpace(night.space).knowledge.update(
    k.id,
    { occurrences: k.occurrences + by, evidence: unionEvidence(k.evidence, evidence) },
    undefined,
    night.asOf,
  );
  await tx.forSpace(night.space).knowledge.reinforce([{ ids: [k.id], step: night.config.reinforceStep, at: night.asOf }]);
}

/** Retires `old` in favour of `by`: superseded, validity closed, kept as history (never stacked beside it). */
export async function retire(night: NightContext, tx: Store, old: number, by: number): Promise<void> {
  await tx.forSpace(night.space).knowledge.supersede(old, by, night.asOf);
}

/** Both evidence lists, de-duplicated, in order. */
export function unionEvidence(a: Evidence, b: Evidence): Evidence {
  return {
    episodes: [...new Set([...a.episodes, ...b.episodes])],
    narratives: [...new Set([...a.narratives, ...b.narratives])],
  };
}

/** Two statements are the same when their content words are nearly the same set (Jaccard ≥ 0.8) and the kind agrees. */
export const SAME_STATEMENT = 0.8;

/** The entry among `candidates` that says the same as `content`, if any (a changed value is never the same). */
export function sameStatement(
  content: string,
  kind: KnowledgeKind,
  candidates: readonly Knowledge[],
): Knowledge | undefined {
  const words = contentTokens(content);
  const norm = content.trim().toLowerCase();
  return candidates.find(
    (c) =>
      c.kind === kind &&
      (c.content.trim().toLowerCase() === norm ||
        (jaccard(words, contentTokens(c.content)) >= SAME_STATEMENT && valueChange(content, c.content) === undefined)),
  );
}

/** Whether `content` contradicts one of the reliable entries near it (the shown ones and a search on its words). */
export async function contradictionOf(
  night: NightContext,
  tx: Store,
  entry: { content: string; key: string | null },
  shown: readonly Knowledge[],
): Promise<{ verdict: ContradictionVerdict; reliable: Knowledge[] }> {
  const near = await nearestKnowledge(night, tx, [entry.content], 10, ['reliable']);
  const byId = new Map([...shown.filter((k) => k.status === 'reliable'), ...near].map((k) => [k.id, k]));
  if (entry.key !== null) {
    const live = await tx.forSpace(night.space).knowledge.getLiveByKey(entry.key);
    if (live?.status === 'reliable') byId.set(live.id, live);
  }
  const reliable = [...byId.values()];
  const verdict = findContradiction({ id: -1, content: entry.content, key: entry.key }, reliable);
  return { verdict, reliable };
}
