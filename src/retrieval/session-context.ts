/** Spreads lexical scores to neighbouring turns of the same session: an answer often sits next to its question. */

/** Position of an episode within the rows read around the hits. */
export interface TurnPosition {
  id: number;
  session: string | null;
  occurredAt: number;
}

/**
 * Smoothed score of every hit and every neighbour of a hit: s'(t) = s(t) + Σ_d w_d·(s(t−d) + s(t+d)) over the
 * turns d steps away in the same session. Turns without a session have no neighbours. A turn that had no score of
 * its own is recorded in `neighbourOf` with the hits that gave it a share, largest first: it is context, not a hit.
 */
export function smoothBySession(
  scores: ReadonlyMap<number, number>,
  rows: readonly TurnPosition[],
  weights: readonly number[],
  /** Filled with each turn that only neighbours hits → the hits that gave it a share, the largest first. */
  neighbourOf?: Map<number, number[]>,
): Map<number, number> {
  const bySession = new Map<string, TurnPosition[]>();
  for (const r of rows) {
    if (r.session === null) continue;
    const list = bySession.get(r.session) ?? [];
    list.push(r);
    bySession.set(r.session, list);
  }
  const out = new Map<number, number>(scores);
  for (const list of bySession.values()) {
    list.sort((a, b) => a.occurredAt - b.occurredAt || a.id - b.id);
    for (let i = 0; i < list.length; i++) {
      let add = 0;
      const from: Array<{ id: number; gave: number }> = [];
      for (let d = 1; d <= weights.length; d++) {
        const w = weights[d - 1]!;
        for (const n of [list[i - d], list[i + d]]) {
          const gave = n ? w * (scores.get(n.id) ?? 0) : 0;
          if (gave <= 0) continue;
          add += gave;
          from.push({ id: n!.id, gave });
        }
      }
      if (add > 0) out.set(list[i]!.id, (out.get(list[i]!.id) ?? 0) + add);
      if (from.length > 0 && neighbourOf && !scores.has(list[i]!.id)) neighbourOf.set(list[i]!.id, from.sort((a, b) => b.gave - a.gave).map((f) => f.id));
    }
  }
  return out;
}
