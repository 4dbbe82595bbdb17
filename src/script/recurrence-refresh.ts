/** Nightly recurrence refresh from tag frequency and weight anti-inflation over the newest 50 (SEEDS §1.5.1-1.5.2). */
import { countWeightBands, type WeightBand } from '../core/weight-scale.js';
import { ANTI_INFLATION, antiInflate, computeWeight, recurrenceFromFrequency } from './weight-policy.js';

/** A narrative reduced to its tags, scores and weight. */
export interface WeightedDoc {
  id: number;
  tags: readonly string[];
  importance: number;
  emotional: number;
  recurrence: number;
  unresolved: number;
  weight: number;
  createdAt: number;
}

/** A change to store: a new recurrence and/or a new weight. */
export interface WeightUpdate {
  id: number;
  recurrence?: number;
  weight?: number;
}

/** What the nightly weight job did. */
export interface WeightPlan {
  updates: WeightUpdate[];
  /** Narratives whose recurrence changed. */
  refreshed: number;
  /** Narratives rescaled by anti-inflation (0 when the newest average stayed ≤ Tideline's 0.7). */
  rescaled: number;
  /** Weight bands after the plan (core/weight-scale `WEIGHT_BANDS`). */
  bands: Record<WeightBand, number>;
}

/** Frequencies at or above this all map to recurrence 5 (weight-policy: 11+), so counting can stop there. */
const FREQ_CAP = 11;

/**
 * For each tagged narrative, the number of *other* narratives sharing at least one of its tags (tags compared
 * trimmed and case-folded), capped at 11. This is the write-time measure of SEEDS §1.5.2 (1.), applied to the
 * whole set, so write time and the nightly refresh agree (SEEDS T-2). Untagged narratives are absent.
 */
export function tagFrequencies(docs: readonly WeightedDoc[]): Map<number, number> {
  const tagsOf = docs.map((d) => [...new Set(d.tags.map((t) => t.trim().toLowerCase()).filter(Boolean))]);
  const postings = new Map<string, number[]>();
  tagsOf.forEach((tags, i) => {
    for (const t of tags) {
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  });
  const out = new Map<number, number>();
  const stamp = new Int32Array(docs.length).fill(-1);
  tagsOf.forEach((tags, i) => {
    if (tags.length === 0) return;
    stamp[i] = i;
    let count = 0;
    for (const t of tags) {
      for (const j of postings.get(t)!) {
        if (stamp[j] === i) continue;
        stamp[j] = i;
        if (++count >= FREQ_CAP) break;
      }
      if (count >= FREQ_CAP) break;
    }
    out.set(docs[i]!.id, count);
  });
  return out;
}

/**
 * Recomputes recurrence from tag frequency with the one mapping of `recurrenceFromFrequency`; a changed row also
 * gets its weight recomputed from its four scores. Rows without tags, or whose recurrence holds, are untouched.
 */
export function refreshRecurrence(docs: readonly WeightedDoc[]): WeightUpdate[] {
  const freq = tagFrequencies(docs);
  const out: WeightUpdate[] = [];
  for (const d of docs) {
    const f = freq.get(d.id);
    if (f === undefined) continue;
    const recurrence = recurrenceFromFrequency(f);
    if (recurrence === d.recurrence) continue;
    out.push({ id: d.id, recurrence, weight: computeWeight({ ...d, recurrence }) });
  }
  return out;
}

/**
 * Nightly anti-inflation (SEEDS §1.5.1 batch normalisation): the newest `window` weights rescaled to average 0.6
 * when above 0.7, both on Tideline's scale (weight-policy `antiInflate`).
 */
export function normalizeWeights(
  docs: readonly WeightedDoc[],
  window: number = ANTI_INFLATION.nightlyWindow,
): WeightUpdate[] {
  const newest = [...docs].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id).slice(0, window);
  const scaled = antiInflate(newest.map((d) => d.weight));
  if (!scaled) return [];
  return newest.flatMap((d, i) => (scaled[i] !== d.weight ? [{ id: d.id, weight: scaled[i]! }] : []));
}

/** The nightly weight job: refresh recurrence, then normalise the newest 50 on the refreshed weights. */
export function planNightlyWeights(docs: readonly WeightedDoc[]): WeightPlan {
  const refreshed = refreshRecurrence(docs);
  const byId = new Map(refreshed.map((u) => [u.id, u]));
  const current = docs.map((d) => ({ ...d, weight: byId.get(d.id)?.weight ?? d.weight }));
  const rescaled = normalizeWeights(current);
  for (const u of rescaled) {
    const prev = byId.get(u.id);
    if (prev) prev.weight = u.weight;
    else byId.set(u.id, { ...u });
  }
  const finalWeight = new Map(current.map((d) => [d.id, byId.get(d.id)?.weight ?? d.weight]));
  const bands = countWeightBands(finalWeight.values());
  const updates = [...byId.values()].sort((a, b) => a.id - b.id);
  return { updates, refreshed: refreshed.length, rescaled: rescaled.length, bands };
}
